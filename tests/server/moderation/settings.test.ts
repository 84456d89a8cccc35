import { describe, expect, test } from "bun:test";
import {
  type ModerationSettings,
  mergeStoredSettings,
  parseModerationChanges,
  storedFilters,
  storedShield,
} from "../../../server/moderation/settings.ts";
import { DEFAULT_FILTER_SETTINGS, DEFAULT_SHIELD_SETTINGS } from "../../../server/vocabulary.ts";

const defaults: ModerationSettings = { filters: DEFAULT_FILTER_SETTINGS, shield: DEFAULT_SHIELD_SETTINGS };
const errorOf = (body: unknown) => {
  const result = parseModerationChanges(body, defaults);
  return result.ok ? null : result.error;
};
const settingsAfter = (body: unknown) => {
  const result = parseModerationChanges(body, defaults);
  if (!result.ok) throw new Error(result.error);
  return result.settings;
};

describe("a PUT's changes", () => {
  test("change only the settings they name", () => {
    const settings = settingsAfter({
      filters: { caps: { percent: 80 }, terms: { list: [" spam ", "~/x+y/i"], action: "ban" } },
      shield: { minutes: 15 },
    });
    expect(settings.filters.caps).toEqual({ ...DEFAULT_FILTER_SETTINGS.caps, percent: 80 });
    expect(settings.filters.terms).toEqual({
      ...DEFAULT_FILTER_SETTINGS.terms,
      list: ["spam", "~/x+y/i"],
      action: "ban",
    });
    expect(settings.filters.links).toBe(DEFAULT_FILTER_SETTINGS.links);
    expect(settings.shield).toEqual({ ...DEFAULT_SHIELD_SETTINGS, minutes: 15 });
  });

  test("an empty body, or only `enabled`, changes nothing", () => {
    expect(settingsAfter({})).toEqual(defaults);
    expect(settingsAfter({ enabled: true })).toEqual(defaults);
  });

  test("a message is trimmed; common settings apply to every filter", () => {
    const settings = settingsAfter({
      filters: {
        links: { message: "  no links please  ", exempt: "subscriber", silent: true, timeoutSeconds: 1 },
      },
    });
    expect(settings.filters.links).toMatchObject({
      message: "no links please",
      exempt: "subscriber",
      silent: true,
      timeoutSeconds: 1,
    });
  });

  test("each problem is named by its path", () => {
    expect(errorOf(null)).toBe("body: must be an object");
    expect(errorOf({ nope: 1 })).toBe("nope: unknown setting");
    expect(errorOf({ enabled: "yes" })).toBe("enabled: must be true or false");
    expect(errorOf({ filters: [] })).toBe("filters: must be an object");
    expect(errorOf({ filters: { nope: {} } })).toBe("filters.nope: unknown filter");
    expect(errorOf({ filters: { caps: 5 } })).toBe("filters.caps: must be an object");
    expect(errorOf({ filters: { caps: { nope: 1 } } })).toBe("filters.caps.nope: unknown setting");
    expect(errorOf({ filters: { caps: { allow: [] } } })).toBe("filters.caps.allow: unknown setting");
    expect(errorOf({ filters: { caps: { percent: 0 } } })).toBe(
      "filters.caps.percent: must be an integer from 1 to 100",
    );
    expect(errorOf({ filters: { caps: { percent: 50.5 } } })).toBe(
      "filters.caps.percent: must be an integer from 1 to 100",
    );
    expect(errorOf({ filters: { caps: { percent: "50" } } })).toBe(
      "filters.caps.percent: must be an integer from 1 to 100",
    );
    expect(errorOf({ filters: { links: { timeoutSeconds: 1_209_601 } } })).toBe(
      "filters.links.timeoutSeconds: must be an integer from 1 to 1209600",
    );
    expect(errorOf({ filters: { links: { enabled: 1 } } })).toBe(
      "filters.links.enabled: must be true or false",
    );
    expect(errorOf({ filters: { links: { exempt: "admin" } } })).toBe(
      "filters.links.exempt: must be one of everyone, subscriber, regular, twitch_vip, moderator, owner",
    );
    expect(errorOf({ filters: { terms: { action: "kick" } } })).toBe(
      "filters.terms.action: must be one of timeout, ban",
    );
    expect(errorOf({ shield: { minutes: 0 } })).toBe("shield.minutes: must be an integer from 1 to 1440");
    expect(errorOf({ shield: { chatters: 1 } })).toBe("shield.chatters: must be an integer from 2 to 1000");
    expect(errorOf({ shield: { active: false } })).toBe("shield.active: unknown setting");
    expect(errorOf({ shield: "on" })).toBe("shield: must be an object");
  });

  test("a message must say something, in at most 200 characters", () => {
    const message = (value: unknown) => errorOf({ filters: { caps: { message: value } } });
    const problem = "filters.caps.message: must be text of 1 to 200 characters";
    expect(message("")).toBe(problem);
    expect(message("   ")).toBe(problem);
    expect(message(42)).toBe(problem);
    expect(message("x".repeat(201))).toBe(problem);
    expect(message("😀".repeat(200))).toBeNull();
  });

  test("lists: their size, each entry a text, then the filter's own check", () => {
    expect(errorOf({ filters: { links: { allow: "example.com" } } })).toBe(
      "filters.links.allow: must be a list of at most 10000 texts",
    );
    expect(errorOf({ filters: { links: { allow: Array(10_001).fill("example.com") } } })).toBe(
      "filters.links.allow: must be a list of at most 10000 texts",
    );
    expect(errorOf({ filters: { links: { allow: ["example.com", 5] } } })).toBe(
      "filters.links.allow[1]: must be text",
    );
    expect(errorOf({ filters: { links: { allow: ["example.com", "not a host"] } } })).toBe(
      "filters.links.allow[1]: not a host name (write example.com or *.example.com)",
    );
    expect(errorOf({ filters: { terms: { list: Array(1_001).fill("spam") } } })).toBe(
      "filters.terms.list: must be a list of at most 1000 texts",
    );
    expect(errorOf({ filters: { terms: { list: ["ok", "~/(a)\\1/"] } } })).toStartWith(
      "filters.terms.list[1]: not a regex this bot can run",
    );
  });

  test("10,000 allow entries are saved", () => {
    const allow = Array.from({ length: 10_000 }, (_, i) => `*.site${i}.com`);
    expect(settingsAfter({ filters: { links: { allow } } }).filters.links.allow).toHaveLength(10_000);
  });

  test("a failed change leaves the current settings as they were", () => {
    const current = structuredClone(defaults);
    parseModerationChanges({ filters: { caps: { percent: 80 }, symbols: { percent: 0 } } }, current);
    expect(current).toEqual(defaults);
  });
});

describe("stored settings", () => {
  test("only what differs from the defaults is stored, and read back over them", () => {
    const settings = settingsAfter({
      filters: { caps: { percent: 80 }, links: { allow: ["*.twitch.tv"] } },
      shield: { enabled: false },
    });
    const filters = storedFilters(settings.filters);
    const shield = storedShield(settings.shield);
    expect(filters).toEqual({ caps: { percent: 80 }, links: { allow: ["*.twitch.tv"] } });
    expect(shield).toEqual({ enabled: false });
    expect(storedFilters(DEFAULT_FILTER_SETTINGS)).toEqual({});
    const json = JSON.parse(JSON.stringify({ filters, shield }));
    expect(mergeStoredSettings(json)).toEqual(settings);
  });

  test("the whole object stored reads back the same", () => {
    expect(mergeStoredSettings(JSON.parse(JSON.stringify(defaults)))).toEqual(defaults);
  });

  test("missing, malformed or no longer valid settings fall back to the defaults", () => {
    expect(mergeStoredSettings({ filters: null, shield: "x" })).toEqual(defaults);
    const merged = mergeStoredSettings({
      filters: { caps: { percent: 900, minLength: 20, gone: true }, nope: {}, length: [] },
      shield: { chatters: 0, seconds: 30 },
    });
    expect(merged.filters.caps).toEqual({ ...DEFAULT_FILTER_SETTINGS.caps, minLength: 20 });
    expect(merged.filters.length).toEqual(DEFAULT_FILTER_SETTINGS.length);
    expect(merged.shield).toEqual({ ...DEFAULT_SHIELD_SETTINGS, seconds: 30 });
  });

  test("a list entry no longer accepted is dropped, the rest kept", () => {
    const merged = mergeStoredSettings({
      filters: {
        terms: { list: ["spam", "~/(a)\\1/", "eggs", "~/a*/"] },
        links: { allow: ["bad host", "ok.com"] },
      },
      shield: {},
    });
    expect(merged.filters.terms.list).toEqual(["spam", "eggs"]);
    expect(merged.filters.links.allow).toEqual(["ok.com"]);
  });

  test("a long stored list with many rejected entries keeps the rest, in order", () => {
    const list = Array.from({ length: 1_000 }, (_, i) => (i % 2 ? "~/(a)\\1/" : `good${i}`));
    const merged = mergeStoredSettings({ filters: { terms: { list } }, shield: {} });
    expect(merged.filters.terms.list).toHaveLength(500);
    expect(merged.filters.terms.list[1]).toBe("good2");
  });

  test("a stored value is checked once: reading it again costs next to nothing", () => {
    const list = Array.from({ length: 1_000 }, (_, i) => (i < 100 ? `~/x${i}y/` : `bad${i}*`));
    const stored = () => ({ filters: { terms: { list } }, shield: { seconds: 30 } });
    const first = mergeStoredSettings(stored());
    const started = performance.now();
    for (let read = 0; read < 10; read++) expect(mergeStoredSettings(stored())).toEqual(first);
    expect((performance.now() - started) / 10).toBeLessThan(5);
    expect(first.filters.terms.list).toEqual(list);
  });

  test("a stored list past the regex limits keeps its entries up to the first past them", () => {
    const list = ["spam", ...Array.from({ length: 150 }, (_, i) => `~/x${i}y/`)];
    const merged = mergeStoredSettings({ filters: { terms: { list } }, shield: {} });
    expect(merged.filters.terms.list).toEqual(list.slice(0, 101));
  });
});
