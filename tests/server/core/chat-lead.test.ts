import { describe, expect, test } from "bun:test";
import { withoutCommandLead } from "../../../server/core/chat-lead.ts";
import {
  COMMAND_CHARACTERS,
  INVISIBLE_LEADS,
  leadsWithCommand,
  TROLL_TEXTS,
} from "../../helpers/troll-texts.ts";

describe("a chat line's opening (CONTRACT §6: never a command)", () => {
  test("each command character is dropped from the opening, runs of them too", () => {
    for (const char of COMMAND_CHARACTERS) {
      expect(withoutCommandLead(`${char}bot part`)).toBe("bot part");
      expect(withoutCommandLead(`${char}${char} ${char}ban viewer_bob`)).toBe("ban viewer_bob");
    }
    expect(withoutCommandLead("!/.\\!addcom !x hi")).toBe("addcom !x hi");
  });

  test("each invisible character or blank look-alike before a command character is dropped with it", () => {
    for (const invisible of INVISIBLE_LEADS) {
      expect(withoutCommandLead(`${invisible}!addcom !x hi`)).toBe("addcom !x hi");
      expect(withoutCommandLead(`!${invisible}/ban viewer_bob`)).toBe("ban viewer_bob");
      expect(withoutCommandLead(`${invisible}${invisible} .timeout x`)).toBe("timeout x");
    }
    // Every code point of the tags block and every variation selector, not only the listed ones.
    for (let point = 0xe0000; point <= 0xe0fff; point += 0x3f) {
      expect(withoutCommandLead(`${String.fromCodePoint(point)}!x`)).toBe("x");
    }
    for (let point = 0xfe00; point <= 0xfe0f; point++) {
      expect(withoutCommandLead(`${String.fromCodePoint(point)}!x`)).toBe("x");
    }
    expect(withoutCommandLead("\u0001ACTION dances")).toBe("ACTION dances");
  });

  test("Nightbot's /me goes as a whole word; a word that only starts with me stays", () => {
    expect(withoutCommandLead("/me waves at bob")).toBe("waves at bob");
    expect(withoutCommandLead("\u200b.ME  \u2800!so bob")).toBe("so bob");
    expect(withoutCommandLead("/me")).toBe("");
    expect(withoutCommandLead("/meow")).toBe("meow");
    expect(withoutCommandLead("!me first")).toBe("me first");
  });

  test("a line of nothing but command characters and invisibles comes to nothing", () => {
    expect(withoutCommandLead("!!!")).toBe("");
    expect(withoutCommandLead(`${INVISIBLE_LEADS.join("")}${COMMAND_CHARACTERS.join("")}`)).toBe("");
    expect(withoutCommandLead("")).toBe("");
  });

  test("what follows the opening, and lines that open otherwise, are left as written", () => {
    for (const line of [
      "Join us at discord.gg/x!",
      'The command "!esc" has been added successfully.',
      "@viewer_anna !so is a command",
      "¡Hola! ¿Qué tal?",
      "❤️ thanks for the raid",
      "#1 in chat",
      "Ζ̸̢ä̷lgo",
      "日本語のテキスト",
    ]) {
      expect(withoutCommandLead(line)).toBe(line);
    }
    expect(withoutCommandLead("... and we're live")).toBe("and we're live");
  });

  test("troll texts behind a command character or an invisible never open with a command", () => {
    for (const troll of TROLL_TEXTS) {
      for (const lead of [...COMMAND_CHARACTERS, ...INVISIBLE_LEADS]) {
        const line = withoutCommandLead(`${lead}!${troll}`);
        expect(leadsWithCommand(line)).toBe(false);
        expect(line.endsWith(troll.slice(1))).toBe(true);
      }
    }
  });
});
