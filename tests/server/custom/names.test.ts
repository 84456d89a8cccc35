import { describe, expect, test } from "bun:test";
import { NAME_RULE, parseCommandName, shownName } from "../../../server/custom/names.ts";
import { expectNoEcho, TROLL_TEXTS } from "../../helpers/troll-texts.ts";

describe("custom command names", () => {
  test("a name is stored in lower case without its !", () => {
    expect(parseCommandName("!Discord")).toEqual({ ok: true, name: "discord" });
    expect(parseCommandName("  !lurk_2 ")).toEqual({ ok: true, name: "lurk_2" });
    expect(parseCommandName("socials")).toEqual({ ok: true, name: "socials" });
    expect(parseCommandName(`!${"a".repeat(32)}`)).toEqual({ ok: true, name: "a".repeat(32) });
    expect(shownName("discord")).toBe("!discord");
  });

  test("empty, too long or odd names get the rule, never the typed text", () => {
    expect(parseCommandName("!")).toEqual({ ok: false, error: NAME_RULE });
    expect(parseCommandName("")).toEqual({ ok: false, error: NAME_RULE });
    expect(parseCommandName("!!discord")).toEqual({ ok: false, error: NAME_RULE });
    expect(parseCommandName(`!${"a".repeat(33)}`)).toEqual({
      ok: false,
      error: "A command name is at most 32 characters after the !.",
    });
    for (const odd of ["!dis cord", "!discord!", "!déaths", "!🔥", "!fire🔥", "!a-b", "!a.b", "!ａｂｃ"]) {
      expect(parseCommandName(odd)).toEqual({ ok: false, error: NAME_RULE });
    }
  });

  test("letters that lower-case into ASCII are not ASCII (the Kelvin sign is not k)", () => {
    expect(parseCommandName("!\u212Aick").ok).toBe(false);
    expect(parseCommandName("!\u0130nfo").ok).toBe(false);
  });

  test("troll texts are refused without being repeated", () => {
    for (const text of TROLL_TEXTS) {
      const result = parseCommandName(`!${text}`);
      expect(result.ok).toBe(false);
      if (!result.ok) expectNoEcho(result.error);
    }
    expect(parseCommandName(`!${"x".repeat(100_000)}`).ok).toBe(false);
  });
});
