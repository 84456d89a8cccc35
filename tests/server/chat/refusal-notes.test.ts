import { describe, expect, test } from "bun:test";
import { REFUSAL_NOTE_WINDOW_MS, RefusalNotes } from "../../../server/chat/refusal-notes.ts";

/** Which refusals the activity feed stores: a flood leaves a few rows, not one per line. */
describe("refusal notes", () => {
  test("one per chatter and reason per 30 s; another reason or chatter is its own", () => {
    const notes = new RefusalNotes();
    const t = 1_000_000;
    expect(notes.due(1, "troll", "viewer_limit", t)).toBe(true);
    for (let i = 1; i < 1000; i++) expect(notes.due(1, "troll", "viewer_limit", t + i)).toBe(false);
    expect(notes.due(1, "troll", "cooldown", t)).toBe(true);
    expect(notes.due(1, "anna", "viewer_limit", t)).toBe(true);
    // The same chatter in another channel.
    expect(notes.due(2, "troll", "viewer_limit", t)).toBe(true);
    expect(notes.due(1, "troll", "viewer_limit", t + REFUSAL_NOTE_WINDOW_MS - 1)).toBe(false);
    expect(notes.due(1, "troll", "viewer_limit", t + REFUSAL_NOTE_WINDOW_MS)).toBe(true);
  });

  test("the channel's spent chat budget is noted once per channel, whoever typed", () => {
    const notes = new RefusalNotes();
    expect(notes.due(1, "anna", "chat_budget", 0)).toBe(true);
    expect(notes.due(1, "bob", "chat_budget", 10)).toBe(false);
    expect(notes.due(2, "bob", "chat_budget", 10)).toBe(true);
  });

  test("a flood of distinct chatters keeps memory bounded, and recent ones are still held", () => {
    const notes = new RefusalNotes();
    for (let i = 0; i < 100_000; i++) notes.due(1, `bot_${i}`, "user_level", i);
    expect(notes.size).toBeLessThanOrEqual(20_000);
    expect(notes.due(1, "bot_99999", "user_level", 100_000)).toBe(false);
  });
});
