import { describe, expect, test } from "bun:test";
import { compileFilters, judgeLine } from "../../../server/moderation/judge.ts";
import { DEFAULT_FILTER_SETTINGS, type FilterSettings, USER_LEVELS } from "../../../server/vocabulary.ts";
import { line, ORDINARY_CHAT } from "./lines.ts";

const everyoneCaught = (): FilterSettings => {
  const settings = structuredClone(DEFAULT_FILTER_SETTINGS);
  for (const filter of Object.values(settings)) filter.exempt = "owner";
  settings.terms.list = ["spam"];
  return settings;
};
const notPermitted = { linksPermitted: false };

describe("judging a line", () => {
  test("the first filter in order that catches it", () => {
    const compiled = compileFilters(everyoneCaught());
    expect(judgeLine(compiled, line("SPAM AT EXAMPLE.COM RIGHT NOW"), "everyone", notPermitted)).toBe(
      "links",
    );
    expect(judgeLine(compiled, line("SPAM SPAM SPAM RIGHT NOW"), "everyone", notPermitted)).toBe("caps");
    expect(judgeLine(compiled, line("spam"), "everyone", notPermitted)).toBe("terms");
    expect(judgeLine(compiled, line("hello chat"), "everyone", notPermitted)).toBeNull();
  });

  test("ordinary chat passes all filters with their defaults", () => {
    const compiled = compileFilters(DEFAULT_FILTER_SETTINGS);
    for (const text of ORDINARY_CHAT) {
      expect({ text, filter: judgeLine(compiled, line(text), "everyone", notPermitted) }).toEqual({
        text,
        filter: null,
      });
    }
  });

  test("a disabled filter catches nothing", () => {
    const settings = everyoneCaught();
    settings.links.enabled = false;
    const compiled = compileFilters(settings);
    expect(judgeLine(compiled, line("see example.com"), "everyone", notPermitted)).toBeNull();
  });

  test("chatters at the exempt level and above are not caught by that filter", () => {
    const settings = everyoneCaught();
    settings.links.exempt = "regular";
    const compiled = compileFilters(settings);
    const levels = ["everyone", "subscriber", "regular", "twitch_vip"] as const;
    expect(levels.map((level) => judgeLine(compiled, line("see example.com"), level, notPermitted))).toEqual([
      "links",
      "links",
      null,
      null,
    ]);
  });

  test("moderators and the broadcaster are never caught, whatever the settings", () => {
    const compiled = compileFilters(everyoneCaught());
    for (const level of ["moderator", "owner"] as const) {
      expect(judgeLine(compiled, line("SPAM AT EXAMPLE.COM"), level, notPermitted)).toBeNull();
    }
  });

  test("a permit lets links through, not the other filters", () => {
    const compiled = compileFilters(everyoneCaught());
    const permitted = { linksPermitted: true };
    expect(judgeLine(compiled, line("see example.com"), "everyone", permitted)).toBeNull();
    expect(judgeLine(compiled, line("SEE EXAMPLE.COM RIGHT NOW"), "everyone", permitted)).toBe("caps");
  });

  test("every level is judged, none throws on troll lines", () => {
    const compiled = compileFilters(everyoneCaught());
    const trolls = [
      "",
      " ",
      "\u202e\u202e\u202e",
      `a${"\u0301".repeat(500)}`,
      "\u{e0000}".repeat(250),
      "😂".repeat(250),
      "\ud800 lone surrogate \udc00",
    ];
    for (const level of USER_LEVELS) {
      for (const text of trolls)
        expect(() => judgeLine(compiled, line(text), level, notPermitted)).not.toThrow();
    }
  });
});
