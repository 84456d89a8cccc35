import type { ShieldSettings } from "../vocabulary.ts";
import { sameTextKey } from "./text-fold.ts";

/** Most distinct texts one channel's watch keeps within its window (a flood of unique lines). */
const MAX_TEXTS = 5_000;

/** Who did something lately: chatter id → when, oldest first (Map keeps insertion order). */
type Recent = Map<string, number>;

/** Drops what is older than the window; how many remain. */
function prune(recent: Recent, since: number): number {
  for (const [who, at] of recent) {
    if (at >= since) break;
    recent.delete(who);
  }
  return recent.size;
}

/** Notes `who` at `now` (moved to the newest end). */
function note(recent: Recent, who: string, now: number): void {
  recent.delete(who);
  recent.set(who, now);
}

/**
 * The raid shield's trigger for one channel (CONTRACT §6): at least `chatters` distinct chatters
 * caught by a filter, or sending the same text, within `seconds`. Pure bookkeeping over the times
 * given; the live runtime acts on a trigger (moderation/shield.ts).
 */
export class ShieldWatch {
  readonly #caught: Recent = new Map();
  readonly #texts = new Map<string, Recent>();

  /** A chatter was caught; true when that makes enough distinct chatters within the window. */
  caught(chatterId: string, now: number, settings: ShieldSettings): boolean {
    note(this.#caught, chatterId, now);
    return prune(this.#caught, now - settings.seconds * 1000) >= settings.chatters;
  }

  /** A chatter sent a line; true when enough distinct chatters sent the same text within the window. */
  said(chatterId: string, text: string, now: number, settings: ShieldSettings): boolean {
    const key = sameTextKey(text);
    if (key === "") return false;
    const since = now - settings.seconds * 1000;
    let senders = this.#texts.get(key);
    if (!senders) {
      if (this.#texts.size >= MAX_TEXTS) this.#forgetOld(since);
      senders = new Map();
      this.#texts.set(key, senders);
    }
    note(senders, chatterId, now);
    return prune(senders, since) >= settings.chatters;
  }

  /** Forgets everything (the shield went on: it starts counting afresh). */
  reset(): void {
    this.#caught.clear();
    this.#texts.clear();
  }

  /** Texts nobody sent within the window go; if still full, the oldest-added half goes too. */
  #forgetOld(since: number): void {
    for (const [key, senders] of this.#texts) if (prune(senders, since) === 0) this.#texts.delete(key);
    if (this.#texts.size < MAX_TEXTS) return;
    let drop = Math.floor(this.#texts.size / 2);
    for (const key of this.#texts.keys()) {
      if (drop-- <= 0) break;
      this.#texts.delete(key);
    }
  }
}
