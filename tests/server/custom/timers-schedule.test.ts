import { describe, expect, test } from "bun:test";
import {
  type ScheduledTimer,
  TIMER_SPACING_MS,
  timerDueAt,
  timerToPost,
} from "../../../server/custom/timer-schedule.ts";

const MIN = 60_000;
/** The stream went live at 20:00. */
const LIVE = Date.UTC(2026, 10, 26, 20, 0, 0);

function timer(id: number, changes: Partial<ScheduledTimer> = {}): ScheduledTimer {
  return {
    id,
    intervalMinutes: 10,
    minChatLines: 2,
    enabled: true,
    lastPostedAt: null,
    updatedAt: LIVE - 60 * MIN,
    linesSince: 5,
    ...changes,
  };
}

const at = (minutes: number) => LIVE + minutes * MIN;

/** Runs a channel minute by minute: who posts when, lines arriving at `linesPerMinute`. */
function simulate(
  timers: ScheduledTimer[],
  minutes: number,
  linesPerMinute = 3,
): { minute: number; id: number }[] {
  const posts: { minute: number; id: number }[] = [];
  const state = timers.map((t) => ({ ...t }));
  for (let minute = 0; minute <= minutes; minute++) {
    for (const t of state) t.linesSince += linesPerMinute;
    const id = timerToPost({ now: at(minute), liveSince: LIVE, timers: state });
    if (id === null) continue;
    posts.push({ minute, id });
    const posted = state.find((t) => t.id === id) as ScheduledTimer;
    posted.lastPostedAt = at(minute);
    posted.linesSince = 0;
  }
  return posts;
}

describe("timers: which one posts now", () => {
  test("only while the stream is live", () => {
    expect(timerToPost({ now: at(30), liveSince: null, timers: [timer(1)] })).toBeNull();
    expect(timerToPost({ now: at(30), liveSince: LIVE, timers: [timer(1)] })).toBe(1);
  });

  test("not in the first interval of a stream, even when the last post is long ago", () => {
    const old = timer(1, { lastPostedAt: LIVE - 600 * MIN });
    expect(timerToPost({ now: at(9), liveSince: LIVE, timers: [old] })).toBeNull();
    expect(timerToPost({ now: at(10), liveSince: LIVE, timers: [old] })).toBe(1);
  });

  test("every interval after its last post", () => {
    const t = timer(1, { lastPostedAt: at(15) });
    expect(timerToPost({ now: at(24), liveSince: LIVE, timers: [t] })).toBeNull();
    expect(timerToPost({ now: at(25), liveSince: LIVE, timers: [t] })).toBe(1);
    expect(simulate([timer(1, { intervalMinutes: 5 })], 30).map((p) => p.minute)).toEqual([
      5, 10, 15, 20, 25, 30,
    ]);
  });

  test("only after at least M chat lines since its last post; a quiet chat holds it until they come", () => {
    const t = (linesSince: number) => timer(1, { minChatLines: 3, linesSince });
    expect(timerToPost({ now: at(40), liveSince: LIVE, timers: [t(2)] })).toBeNull();
    expect(timerToPost({ now: at(40), liveSince: LIVE, timers: [t(3)] })).toBe(1);
    // No lines at all: nothing in an hour; then the lines come and it posts at once.
    expect(simulate([timer(1, { linesSince: 0 })], 60, 0)).toEqual([]);
    expect(timerToPost({ now: at(61), liveSince: LIVE, timers: [timer(1, { linesSince: 2 })] })).toBe(1);
  });

  test("zero lines asked: it posts in a silent chat", () => {
    expect(simulate([timer(1, { minChatLines: 0, linesSince: 0, intervalMinutes: 20 })], 60, 0)).toEqual([
      { minute: 20, id: 1 },
      { minute: 40, id: 1 },
      { minute: 60, id: 1 },
    ]);
  });

  test("disabled timers never post, and do not hold the others back", () => {
    const off = timer(1, { enabled: false, intervalMinutes: 5 });
    expect(simulate([off], 60)).toEqual([]);
    expect(simulate([off, timer(2, { intervalMinutes: 15 })], 30)).toEqual([
      { minute: 15, id: 2 },
      { minute: 30, id: 2 },
    ]);
  });

  test("never two at once: timers due together go one by one, a spacing apart, most overdue first", () => {
    const timers = [timer(3), timer(1), timer(2)];
    const first = timerToPost({ now: at(10), liveSince: LIVE, timers });
    expect(first).toBe(1);
    // The one that posted holds the others for the spacing.
    const after = timers.map((t) => (t.id === 1 ? { ...t, lastPostedAt: at(10), linesSince: 0 } : t));
    expect(timerToPost({ now: at(10) + TIMER_SPACING_MS - 1, liveSince: LIVE, timers: after })).toBeNull();
    expect(timerToPost({ now: at(10) + TIMER_SPACING_MS, liveSince: LIVE, timers: after })).toBe(2);
    // Most overdue first, whatever the order or ids.
    const overdue = [timer(1, { lastPostedAt: at(5) }), timer(2, { lastPostedAt: at(2) })];
    expect(timerToPost({ now: at(20), liveSince: LIVE, timers: overdue })).toBe(2);
  });

  test("several timers spread out over a stream: never within the spacing, each at its pace", () => {
    const timers = [
      timer(1, { intervalMinutes: 5 }),
      timer(2, { intervalMinutes: 5 }),
      timer(3, { intervalMinutes: 10 }),
      timer(4, { intervalMinutes: 15 }),
    ];
    const posts = simulate(timers, 180);
    for (let i = 1; i < posts.length; i++)
      expect((posts[i]?.minute ?? 0) - (posts[i - 1]?.minute ?? 0)).toBeGreaterThanOrEqual(
        TIMER_SPACING_MS / MIN,
      );
    // Every timer posts, and none more often than its interval.
    for (const t of timers) {
      const minutes = posts.filter((p) => p.id === t.id).map((p) => p.minute);
      expect(minutes.length).toBeGreaterThan(5);
      for (let i = 1; i < minutes.length; i++)
        expect((minutes[i] ?? 0) - (minutes[i - 1] ?? 0)).toBeGreaterThanOrEqual(t.intervalMinutes);
    }
    // The two 5-minute timers drifted apart and stay apart.
    expect(posts.slice(0, 2)).toEqual([
      { minute: 5, id: 1 },
      { minute: 6, id: 2 },
    ]);
  });

  test("many timers on the shortest interval: one post a spacing apart, in turn", () => {
    const timers = Array.from({ length: 50 }, (_, i) =>
      timer(i + 1, { intervalMinutes: 5, minChatLines: 0 }),
    );
    const posts = simulate(timers, 200, 0);
    expect(new Set(posts.map((p) => p.minute)).size).toBe(posts.length);
    expect(posts.slice(0, 50).map((p) => p.id)).toEqual(timers.map((t) => t.id));
    expect(posts[50]).toEqual({ minute: 55, id: 1 });
  });

  test("a timer edited mid-way: the edit starts its countdown again and the new values apply", () => {
    const before = timer(1, { intervalMinutes: 30, lastPostedAt: at(10) });
    expect(timerToPost({ now: at(39), liveSince: LIVE, timers: [before] })).toBeNull();
    // Shortened to 5 minutes at 20:25: due at 20:30, not at once for the post at 20:10.
    const shortened = { ...before, intervalMinutes: 5, updatedAt: at(25) };
    expect(timerToPost({ now: at(26), liveSince: LIVE, timers: [shortened] })).toBeNull();
    expect(timerToPost({ now: at(30), liveSince: LIVE, timers: [shortened] })).toBe(1);
    // More lines asked: held until they come.
    expect(
      timerToPost({ now: at(30), liveSince: LIVE, timers: [{ ...shortened, minChatLines: 6 }] }),
    ).toBeNull();
    // Disabled then enabled again: a full interval after the edit that enabled it.
    const enabled = { ...before, enabled: true, updatedAt: at(50) };
    expect(timerToPost({ now: at(50), liveSince: LIVE, timers: [{ ...before, enabled: false }] })).toBeNull();
    expect(timerToPost({ now: at(79), liveSince: LIVE, timers: [enabled] })).toBeNull();
    expect(timerToPost({ now: at(80), liveSince: LIVE, timers: [enabled] })).toBe(1);
  });

  test("a new stream starts every countdown again", () => {
    const t = timer(1, { lastPostedAt: at(-30) });
    expect(timerDueAt(t, LIVE)).toBe(at(10));
    expect(timerDueAt(t, LIVE - 120 * MIN)).toBe(at(-20));
  });

  test("no timers, or an empty channel: nothing posts", () => {
    expect(timerToPost({ now: at(60), liveSince: LIVE, timers: [] })).toBeNull();
  });
});
