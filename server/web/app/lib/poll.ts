// Keeping a panel current while its view is open. A poll never starts while the one before is still
// waiting: the next is scheduled after the answer, later after a failure (doubling up to a minute)
// and not before Retry-After after a 429; it pauses while the tab is hidden and stops by itself once
// the view is gone. "Newest answer wins" keeps a slow old answer (or failure) from overwriting a
// newer one that was already drawn, and lets a change the user sent (a PUT) outrank polls asked before it.
import { ApiError } from "./api.ts";

const MAX_BACKOFF_MS = 60_000;

/** The wait after a failure: Retry-After on a 429, else twice the last wait, at most a minute. */
export function failureDelay(error: unknown, lastDelay: number): number {
  if (error instanceof ApiError && error.retryAfter !== null) return error.retryAfter * 1000;
  return Math.min(MAX_BACKOFF_MS, Math.max(1000, lastDelay * 2));
}

export interface Poll {
  /** The interval changed: the poll waiting for its turn is planned again with it (one in flight is left alone). */
  reschedule(): void;
}

/**
 * Runs `fn` after `first` ms and again `interval()` ms after each answer while `root` is in the page; a failure
 * waits longer (see failureDelay); nothing runs while the tab is hidden. `fn` reports its failures by
 * rejecting.
 */
export function every(
  root: HTMLElement,
  interval: () => number,
  fn: () => Promise<unknown>,
  first = interval(),
): Poll {
  let delay = first;
  let waiting: number | null = null;
  const schedule = (ms: number) => {
    waiting = window.setTimeout(tick, ms);
  };
  const whenVisible = () => {
    document.removeEventListener("visibilitychange", whenVisible);
    if (root.isConnected) tick();
  };
  const tick = async () => {
    waiting = null;
    if (!root.isConnected) return;
    if (document.hidden) {
      document.addEventListener("visibilitychange", whenVisible);
      return;
    }
    try {
      await fn();
      delay = interval();
    } catch (error) {
      delay = failureDelay(error, delay);
    }
    schedule(delay);
  };
  schedule(delay);
  return {
    reschedule: () => {
      if (waiting === null) return;
      window.clearTimeout(waiting);
      schedule(interval());
    },
  };
}

/** Numbers requests in the order they were asked; an answer is used only if none asked later was. */
export class Sequence {
  private asked = 0;
  private drawn = 0;

  /** A ticket for a request about to be sent. */
  ask(): number {
    this.asked += 1;
    return this.asked;
  }

  /** True (and remembered) when nothing asked after `ticket` has been drawn yet. */
  accept(ticket: number): boolean {
    if (ticket < this.drawn) return false;
    this.drawn = ticket;
    return true;
  }
}

/**
 * Wraps a loader so an answer older than the last one drawn resolves to null (its caller draws
 * nothing); a failure older than it resolves to null too, a newer failure rejects.
 */
export function newestWins<T>(fetcher: () => Promise<T>, sequence = new Sequence()): () => Promise<T | null> {
  return async () => {
    const mine = sequence.ask();
    try {
      const answer = await fetcher();
      return sequence.accept(mine) ? answer : null;
    } catch (error) {
      if (!sequence.accept(mine)) return null;
      throw error;
    }
  };
}
