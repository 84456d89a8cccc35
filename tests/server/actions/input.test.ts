import { describe, expect, test } from "bun:test";
import { ChatBotDataError } from "../../../db/chat-bot-rules.ts";
import { parseActionInput } from "../../../server/actions/input.ts";
import type { ActionStep } from "../../../server/actions/model.ts";
import { FOLDING_LOOKALIKES, TROLL_TEXTS } from "../../helpers/troll-texts.ts";

const BUTTON = { name: "Go", trigger: { type: "button" }, steps: [{ type: "wait", seconds: 1 }] };

/** The path a refusal names (the whole message is for the streamer). */
function refusedAt(body: unknown): string {
  try {
    parseActionInput(body);
  } catch (error) {
    if (error instanceof ChatBotDataError && error.code === "invalid_input") return error.field;
    throw error;
  }
  throw new Error("accepted");
}

const ZALGO =
  "Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319\u0324\u031e\u0349\u035a\u032f\u031e\u0320\u034dA";

describe("an action's input", () => {
  test("names keep combining marks, right-to-left text and emoji, counted in code points", () => {
    for (const name of [ZALGO, "\u05e9\u05dc\u05d5\u05dd \u202eevil", "🎉🔥👾 raid", ...TROLL_TEXTS]) {
      expect(parseActionInput({ ...BUTTON, name }).name).toBe(name.trim());
    }
    expect(parseActionInput({ ...BUTTON, name: "🎉".repeat(50) }).name).toBe("🎉".repeat(50));
    expect(refusedAt({ ...BUTTON, name: "🎉".repeat(51) })).toBe("name");
    expect(refusedAt({ ...BUTTON, name: "\u0301".repeat(51) })).toBe("name");
    expect(refusedAt({ ...BUTTON, name: "\ud800broken" })).toBe("name");
  });

  test("10,000-character fields are refused where they are, never stored", () => {
    const long = "x".repeat(10_000);
    expect(refusedAt({ ...BUTTON, name: long })).toBe("name");
    expect(refusedAt({ ...BUTTON, steps: [{ type: "chat", text: long }] })).toBe("steps[0].text");
    expect(refusedAt({ ...BUTTON, steps: [{ type: "obs.text", source: "t", text: long }] })).toBe(
      "steps[0].text",
    );
    expect(refusedAt({ ...BUTTON, steps: [{ type: "obs.scene", scene: long }] })).toBe("steps[0].scene");
    expect(refusedAt({ ...BUTTON, trigger: { type: "command", command: long } })).toBe("trigger.command");
    expect(refusedAt({ ...BUTTON, trigger: { type: "alert", kind: "redemption", reward: long } })).toBe(
      "trigger.reward",
    );
    expect(refusedAt({ ...BUTTON, [long]: 1 })).toBe(`["${"x".repeat(40)}"]`);
  });

  test("500 combining marks fit a text source (its text is the streamer's to choose)", () => {
    const marks = "\u0301".repeat(500);
    const steps: ActionStep[] = [{ type: "obs.text", source: "Raider", text: marks }];
    expect(parseActionInput({ ...BUTTON, steps }).steps).toEqual(steps);
  });

  test("nested junk is refused at its path, with unknown keys shown in ASCII", () => {
    const junk = { a: [{ b: { c: [null, { d: "🙂" }] } }] };
    expect(refusedAt({ ...BUTTON, trigger: junk })).toBe("trigger.type");
    expect(refusedAt({ ...BUTTON, steps: [junk] })).toBe("steps[0].type");
    expect(refusedAt({ ...BUTTON, steps: [{ type: "wait", seconds: 1, junk }] })).toBe("steps[0].junk");
    expect(refusedAt({ ...BUTTON, steps: [{ type: "wait", seconds: { valueOf: 5 } }] })).toBe(
      "steps[0].seconds",
    );
    expect(refusedAt({ ...BUTTON, steps: [[{ type: "wait", seconds: 1 }]] })).toBe("steps[0]");
    expect(refusedAt({ ...BUTTON, steps: [null] })).toBe("steps[0]");
    expect(refusedAt({ ...BUTTON, "🙂\u202e": true })).toBe('["\\ud83d\\ude42\\u202e"]');
    expect(refusedAt({ ...BUTTON, trigger: { type: "button", "na me": 1 } })).toBe('trigger["na me"]');
    expect(refusedAt(JSON.parse('{"__proto__": {"x": 1}, "name": "n"}'))).toBe("__proto__");
    expect(refusedAt(null)).toBe("body");
    expect(refusedAt("{}")).toBe("body");
    for (const seconds of [Number.NaN, Number.POSITIVE_INFINITY, -0, 1e308])
      expect(refusedAt({ ...BUTTON, steps: [{ type: "wait", seconds }] })).toBe("steps[0].seconds");
  });

  test("a command is a plain word, lower-cased, its ! optional; look-alikes are refused", () => {
    const command = (c: string) => ({ ...BUTTON, trigger: { type: "command", command: c } });
    expect(parseActionInput(command("!BRB")).trigger).toEqual({
      type: "command",
      command: "brb",
      level: "everyone",
    });
    for (const lookalike of FOLDING_LOOKALIKES) expect(refusedAt(command(lookalike))).toBe("trigger.command");
    for (const troll of ["!!brb", "brb now", "", "/me", "bŕb", "brb\u200b"])
      expect(refusedAt(command(troll))).toBe("trigger.command");
  });

  test("an empty reward title means any reward; a source's seconds may be left out or null", () => {
    const alert = parseActionInput({
      ...BUTTON,
      trigger: { type: "alert", kind: "redemption", reward: " " },
    });
    expect(alert.trigger).toEqual({ type: "alert", kind: "redemption", min: 0, reward: null });
    const source: ActionStep = { type: "obs.source", scene: "S", source: "Cam", visible: true };
    expect(parseActionInput({ ...BUTTON, steps: [{ ...source, seconds: null }] }).steps).toEqual([source]);
  });
});
