import { describe, expect, test } from "bun:test";
import {
  ChatBotDataError,
  checkCooldown,
  checkGame,
  checkLine,
  codePoints,
  isRowKey,
  parseCommandName,
} from "../../db/chat-bot-rules.ts";
import { TROLL_TEXTS } from "../helpers/troll-texts.ts";

const thrown = (run: () => unknown): ChatBotDataError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ChatBotDataError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
};

describe("the chat bot's data rules", () => {
  test("command names: ! optional, any case in, lower case out, [a-z0-9_]{1,32}", () => {
    expect(parseCommandName("!Discord")).toBe("discord");
    expect(parseCommandName("  lurk_2 ")).toBe("lurk_2");
    for (const input of ["", "!", "!!a", "a b", "x".repeat(33), "ß", "İ", ...TROLL_TEXTS]) {
      expect(parseCommandName(input)).toBeNull();
    }
  });

  test("length is counted in code points, as Twitch counts a chat line", () => {
    expect(codePoints("🎲🎲")).toBe(2);
    expect(codePoints("e\u0301")).toBe(2);
    expect(codePoints("")).toBe(0);
  });

  test("a line is trimmed, and refused when empty, too long, broken or multi-line", () => {
    expect(checkLine("  hi  ", "f", "It", 5)).toBe("hi");
    expect(thrown(() => checkLine("123456", "f", "It", 5)).message).toBe(
      "It is 5 characters at most (this one has 6).",
    );
    for (const text of ["a\nb", "a\rb", "\u0007", "\ud800x", "x\udc00"]) {
      const error = thrown(() => checkLine(text, "f", "It", 500));
      expect([error.code, error.field]).toEqual(["invalid_input", "f"]);
    }
  });

  test("cooldowns are 0 or 5–300 whole seconds", () => {
    expect([0, 5, 300].map((s) => checkCooldown(s))).toEqual([0, 5, 300]);
    for (const s of [-1, 1, 4, 301, 5.5, Number.NaN])
      expect(() => checkCooldown(s)).toThrow(ChatBotDataError);
  });

  test("a blank game is no game", () => {
    expect(checkGame(null)).toBeNull();
    expect(checkGame("   ")).toBeNull();
    expect(checkGame(" VALORANT ")).toBe("VALORANT");
  });

  test("row keys are positive whole numbers an integer column holds", () => {
    expect([1, 2_147_483_647].map(isRowKey)).toEqual([true, true]);
    expect([0, -1, 1.5, 2_147_483_648, Number.NaN, Number.POSITIVE_INFINITY].map(isRowKey)).toEqual(
      Array(6).fill(false),
    );
  });
});
