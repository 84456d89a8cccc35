import { describe, expect, test } from "bun:test";
import { MODERATION_FILTERS } from "../../../../../../server/vocabulary.ts";
import type { ModerationLogItem, ShieldInfo } from "../../../../../../server/web/app/lib/types.ts";
import {
  canUndo,
  defaultText,
  FILTER_FACTS,
  listOf,
  listProblem,
  logActionText,
  logWho,
  shieldState,
  shownText,
  testOutcomeText,
} from "../../../../../../server/web/app/views/moderation/model.ts";

const item = (over: Partial<ModerationLogItem>): ModerationLogItem => ({
  id: 1,
  at: "2026-12-06T14:00:00.000Z",
  user: { id: "9", login: "spammer", name: "Spammer" },
  filter: "links",
  action: "deleted",
  seconds: null,
  text: "buy followers at example.com",
  undone: false,
  ...over,
});

const facts = (filter: keyof typeof FILTER_FACTS, key: string) => {
  const setting = FILTER_FACTS[filter].own.find((s) => s.key === key);
  if (!setting) throw new Error(`${filter} has no ${key}`);
  return setting;
};

describe("the Moderation view's words", () => {
  test("each filter's own settings show the vocabulary's defaults", () => {
    expect(defaultText("caps", facts("caps", "percent"))).toBe("default 70%");
    expect(defaultText("caps", facts("caps", "minLength"))).toBe("default 15");
    expect(defaultText("length", facts("length", "max"))).toBe("default 350");
    expect(defaultText("links", facts("links", "allow"))).toBe("default none");
    expect(defaultText("terms", facts("terms", "action"))).toBe("default: delete and warn, then time out");
    // Every filter has a card's words, and every own setting a default to show.
    for (const filter of MODERATION_FILTERS)
      for (const setting of FILTER_FACTS[filter].own)
        expect(defaultText(filter, setting)).not.toContain("undefined");
  });

  test("a log entry says what was done; only a timeout or ban still in force can be undone", () => {
    expect(logActionText(item({ action: "timeout", seconds: 600 }))).toBe("Timed out 10 min");
    expect(logActionText(item({ action: "ban" }))).toBe("Banned");
    expect(logActionText(item({ action: "deleted" }))).toBe("Deleted");
    expect(logActionText(item({ action: "permit", seconds: 60 }))).toBe("Links allowed 1 min");
    expect(logWho(item({}))).toBe("Spammer");
    expect(logWho(item({ user: { id: "9", login: "anna", name: "アンナ" } }))).toBe("アンナ (anna)");
    // The shield's entry is the channel's own: no one to name.
    expect(logWho(item({ action: "shield", filter: null, text: null }))).toBe("");
    expect(canUndo(item({ action: "timeout", seconds: 600 }))).toBe(true);
    expect(canUndo(item({ action: "ban" }))).toBe(true);
    expect(canUndo(item({ action: "ban", undone: true }))).toBe(false);
    expect(canUndo(item({ action: "deleted" }))).toBe(false);
    expect(canUndo(item({ action: "shield", user: null, filter: null }))).toBe(false);
  });

  test("a tried line's outcome names the filter and what it would do", () => {
    expect(testOutcomeText({ caught: false, filter: null, action: null })).toBe(
      "Not caught: this line would stay in chat.",
    );
    expect(testOutcomeText({ caught: true, filter: "caps", action: "warned" })).toBe(
      "Caught by the caps filter: the message deleted and a warning sent (a repeat within the hour is a timeout).",
    );
    expect(testOutcomeText({ caught: true, filter: "caps", action: "deleted" })).toStartWith(
      "Caught by the caps filter: the message deleted silently",
    );
    expect(testOutcomeText({ caught: true, filter: "terms", action: "ban" })).toBe(
      "Caught by the blocked terms filter: the chatter would be banned.",
    );
  });

  test("the shield: on until when, ready with its trigger, or off", () => {
    const shield: ShieldInfo = {
      enabled: true,
      chatters: 8,
      seconds: 10,
      minutes: 5,
      active: false,
      until: null,
    };
    const hour = (iso: string) => iso.slice(11, 16);
    expect(shieldState({ ...shield, active: true, until: "2026-12-06T14:05:00.000Z" }, hour)).toEqual({
      label: "On",
      detail: "until 14:05 (followers-only chat)",
    });
    expect(shieldState(shield, hour)).toEqual({
      label: "Ready",
      detail: "followers-only chat goes on when 8 chatters are caught, or send the same text, within 10 s.",
    });
    expect(shieldState({ ...shield, enabled: false }, hour).label).toBe("Off");
  });
});

describe("a caught message in the log", () => {
  test("a pile of combining marks is cut to three a letter; accents, emoji and other text stay", () => {
    expect(shownText(`e${"\u0301".repeat(150)}vil`)).toBe("e\u0301\u0301\u0301vil");
    expect(shownText("Tiếng Việt café")).toBe("Tiếng Việt café");
    expect(shownText("👍🏽 <b>hi</b> \u202Emoc.live")).toBe("👍🏽 <b>hi</b> \u202Emoc.live");
    // A 500-character line of marks alone (no letter under them) is cut as well, at once.
    const started = performance.now();
    expect(shownText("\u0301".repeat(500))).toBe("\u0301\u0301\u0301");
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe("the allow list and the blocked terms, one entry per line", () => {
  const limits = { entries: 3, entryLength: 5 };

  test("entries are trimmed; blank lines and repeats are dropped; Windows line ends are lines", () => {
    expect(listOf("  clips.twitch.tv \r\n\n*.example.com\nclips.twitch.tv\n   \n")).toEqual([
      "clips.twitch.tv",
      "*.example.com",
    ]);
    expect(listOf("")).toEqual([]);
  });

  test("too many entries, or one too long, is said before a round trip", () => {
    expect(listProblem(["a", "b", "c"], limits)).toBe("");
    expect(listProblem(["a", "b", "c", "d"], limits)).toBe("At most 3 entries (this has 4).");
    expect(listProblem(["a", "toolong"], limits)).toBe("Entry 2 is longer than 5 characters.");
  });

  test("lengths count code points, as the server does: five emoji fit in five, combining marks count", () => {
    expect(listProblem(["🎉🎉🎉🎉🎉"], limits)).toBe("");
    expect(listProblem(["e\u0301\u0301\u0301\u0301"], limits)).toBe("");
    expect(listProblem(["e\u0301\u0301\u0301\u0301\u0301"], limits)).toBe(
      "Entry 1 is longer than 5 characters.",
    );
  });

  test("10,001 allow-list entries are refused at once, not after a stall", () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `host${i}.example.com`);
    const started = performance.now();
    const allow = facts("links", "allow");
    if (allow.kind !== "list") throw new Error("the allow list is a list");
    const problem = listProblem(listOf(many.join("\n")), allow.limits);
    expect(problem).toBe("At most 10,000 entries (this has 10,001).");
    expect(performance.now() - started).toBeLessThan(200);
  });
});
