/**
 * Which of a channel's timers posts now (issue 24; Nightbot's timers, reference/chat-bot-commands.md
 * §3). Pure: the clock, the timers and the chat lines come in, one timer id (or none) comes out.
 *
 * The rules, as a streamer can predict them:
 * - Only while the stream is live, and never in the first interval of a stream: a timer's countdown
 *   starts at the latest of its last post, its last edit (an edit starts the countdown again) and the
 *   stream's start.
 * - Only once at least `minChatLines` chat lines came since the timer's last post. A timer whose
 *   interval passed in a quiet chat waits for the lines (Nightbot skips the run instead; waiting
 *   posts sooner and says the same).
 * - Never two at once: at most one timer per channel per look, and `TIMER_SPACING_MS` between any
 *   two timer posts of a channel. Timers due together go most overdue first (then the oldest timer),
 *   so equal intervals drift apart by the spacing and stay apart, as StreamElements spaces its own.
 */

/** Least time between two timer posts in one channel. */
export const TIMER_SPACING_MS = 60_000;

const MINUTE_MS = 60_000;

/** One timer as the scheduler sees it (db/timers.ts's row, and the lines counted since its post). */
export interface ScheduledTimer {
  id: number;
  intervalMinutes: number;
  minChatLines: number;
  enabled: boolean;
  /** Its last post (Unix ms), or null when it never posted. */
  lastPostedAt: number | null;
  /** Its last addition or edit (Unix ms). */
  updatedAt: number;
  /** Chat lines from others since its last post (or since this server began counting). */
  linesSince: number;
}

/** A channel at one moment. */
export interface ChannelMoment {
  now: number;
  /** When the current stream began (Unix ms); null while the channel is offline or not known live. */
  liveSince: number | null;
  timers: readonly ScheduledTimer[];
}

/** When `timer` may post next in a stream live since `liveSince`, lines aside. */
export function timerDueAt(timer: ScheduledTimer, liveSince: number): number {
  const countdownFrom = Math.max(timer.lastPostedAt ?? Number.NEGATIVE_INFINITY, timer.updatedAt, liveSince);
  return countdownFrom + timer.intervalMinutes * MINUTE_MS;
}

/** The channel's last timer post, whichever timer it was; null when none posted. */
export function lastChannelPost(timers: readonly ScheduledTimer[]): number | null {
  let last: number | null = null;
  for (const t of timers)
    if (t.lastPostedAt !== null && (last === null || t.lastPostedAt > last)) last = t.lastPostedAt;
  return last;
}

/** The id of the timer that posts now, or null when none does. */
export function timerToPost(moment: ChannelMoment): number | null {
  const { now, liveSince, timers } = moment;
  if (liveSince === null) return null;
  const last = lastChannelPost(timers);
  if (last !== null && now - last < TIMER_SPACING_MS) return null;
  let chosen: { id: number; dueAt: number } | null = null;
  for (const timer of timers) {
    if (!timer.enabled || timer.linesSince < timer.minChatLines) continue;
    const dueAt = timerDueAt(timer, liveSince);
    if (dueAt > now) continue;
    if (!chosen || dueAt < chosen.dueAt || (dueAt === chosen.dueAt && timer.id < chosen.id))
      chosen = { id: timer.id, dueAt };
  }
  return chosen?.id ?? null;
}
