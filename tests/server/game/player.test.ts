import { describe, expect, test } from "bun:test";
import { parsePlayer, parseType } from "../../../server/game/player.ts";

describe("the player a lookup is about", () => {
  test("region lowercased, name and tag trimmed, lengths counted in characters", () => {
    expect(parsePlayer("EU", " Kestrel ", "EUW", "rank")).toEqual({
      region: "eu",
      name: "Kestrel",
      tag: "EUW",
    });
    expect(parsePlayer("kr", "데모시청자", "KR1").name).toBe("데모시청자");
    expect(parsePlayer("na", "🎱🎱🎱", "NA1").name).toBe("🎱🎱🎱");
  });

  test("each refusal names the parameter and echoes only a login-shaped value", () => {
    expect(() => parsePlayer("mars", "Kestrel", "EUW")).toThrow('"mars" is not a game region; use one of');
    expect(() => parsePlayer("$(1)", "Kestrel", "EUW", "rank")).toThrow(
      'The path parameter "region" is missing: use /api/game/rank/<region>/<name>/<tag>.',
    );
    expect(() => parsePlayer("eu", null, "EUW")).toThrow(
      'The path parameter "name" is not valid URL encoding.',
    );
    expect(() => parsePlayer("eu", "ab", "EUW")).toThrow(
      'The path parameter "name" must be 3 to 16 characters long; "ab" has 2.',
    );
    expect(() => parsePlayer("eu", "Kestrel", "a b c d")).toThrow("the one given has 7.");
  });

  test("type is 1, 2 or 3; blanks and unreplaced variables mean none", () => {
    expect(parseType("2")).toBe(2);
    expect(parseType(" ")).toBeUndefined();
    expect(parseType("%type%")).toBeUndefined();
    expect(() => parseType("4")).toThrow('The query parameter "type" must be 1, 2 or 3, not "4".');
  });
});
