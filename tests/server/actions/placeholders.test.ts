import { describe, expect, test } from "bun:test";
import type { RunCause } from "../../../server/actions/model.ts";
import { fillPlaceholders, MAX_TEXT_POINTS, MAX_VALUE_POINTS } from "../../../server/actions/placeholders.ts";
import { TROLL_TEXTS } from "../../helpers/troll-texts.ts";

const cause = (over: Partial<RunCause> = {}): RunCause => ({
  trigger: "alert",
  user: "Raider",
  amount: 42,
  reward: null,
  message: null,
  ...over,
});

describe("an action's text with what set it off", () => {
  test("{user}, {amount}, {reward} and {message} come from the event; a missing one is empty", () => {
    expect(fillPlaceholders("{user} raids with {amount}!", cause())).toBe("Raider raids with 42!");
    expect(
      fillPlaceholders("{user}: {reward} — {message}", cause({ reward: "Hydrate", message: "drink up" })),
    ).toBe("Raider: Hydrate — drink up");
    expect(fillPlaceholders("[{amount}][{reward}][{message}]", cause({ amount: null }))).toBe("[][][]");
  });

  test("an unknown word in braces stays as written", () => {
    expect(fillPlaceholders("{viewers} {User} {}", cause())).toBe("{viewers} {User} {}");
  });

  test("a viewer's text is put in once: braces in it are never filled", () => {
    const typed = "{user} {amount} {message}";
    expect(fillPlaceholders("said: {message}", cause({ message: typed }))).toBe(`said: ${typed}`);
  });

  test("troll texts arrive as typed", () => {
    for (const text of TROLL_TEXTS)
      expect(fillPlaceholders("{message}", cause({ message: text }))).toBe(text);
  });

  test("500 combining marks arrive intact; more are cut at the bound, never inside a pair", () => {
    const marks = `a${"\u0301".repeat(499)}`;
    expect(fillPlaceholders("{message}", cause({ message: marks }))).toBe(marks);
    const flood = "\u0301".repeat(5_000);
    expect(fillPlaceholders("{message}", cause({ message: flood }))).toBe("\u0301".repeat(MAX_VALUE_POINTS));
    const emoji = "🎉".repeat(MAX_VALUE_POINTS + 10);
    const filled = fillPlaceholders("{message}", cause({ message: emoji }));
    expect([...filled]).toHaveLength(MAX_VALUE_POINTS);
    expect(filled).toBe("🎉".repeat(MAX_VALUE_POINTS));
  });

  test("a text of many placeholders is bounded as a whole", () => {
    const text = "{message}".repeat(20);
    const filled = fillPlaceholders(text, cause({ message: "x".repeat(MAX_VALUE_POINTS) }));
    expect(filled).toHaveLength(MAX_TEXT_POINTS);
  });
});
