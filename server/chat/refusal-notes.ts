import type { CommandRefusal } from "../vocabulary.ts";

/** How long one stored note of a refusal stands for the same chatter and reason. */
export const REFUSAL_NOTE_WINDOW_MS = 30_000;

/** Notes remembered at most; past it, the ones older than the window go (all, when none is). */
const MAX_NOTED = 20_000;

/**
 * Which refusals are stored for the activity feed: at most one per chatter and reason per 30 s in a
 * channel, and one per channel per 30 s for its spent chat budget (a budget of the channel, not of
 * the chatter), so a troll flooding 1,000 commands leaves a handful of rows, not 1,000. What is not
 * stored is still told (the `commandRefused` hook: the demo chat notes every line).
 */
export class RefusalNotes {
  /** When each chatter's (or channel's) reason was last stored, by `account:chatter:reason`. */
  readonly #noted = new Map<string, number>();

  /** Whether this refusal is to be stored now (and, if so, counts as stored). */
  due(accountId: number, chatterId: string, reason: CommandRefusal, now: number): boolean {
    const key = reason === "chat_budget" ? `${accountId}::${reason}` : `${accountId}:${chatterId}:${reason}`;
    const last = this.#noted.get(key);
    if (last !== undefined && now - last < REFUSAL_NOTE_WINDOW_MS) return false;
    if (last === undefined && this.#noted.size >= MAX_NOTED) this.#forgetBefore(now - REFUSAL_NOTE_WINDOW_MS);
    this.#noted.set(key, now);
    return true;
  }

  /** Notes remembered (bounded). */
  get size(): number {
    return this.#noted.size;
  }

  #forgetBefore(cutoff: number): void {
    for (const [key, at] of this.#noted) if (at < cutoff) this.#noted.delete(key);
    if (this.#noted.size >= MAX_NOTED) this.#noted.clear();
  }
}
