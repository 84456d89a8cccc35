/**
 * How fast cuebot may speak in one channel: Twitch's limits (reference/twitch-chat.md §5) with about
 * 10 % to spare, since Twitch's refill timing is hidden. Pure: the queue asks, then records.
 */
export interface SendLimits {
  perWindow: number;
  windowMs: number;
  /** Least time between two sends in the channel. */
  minGapMs: number;
  /** An identical line within this long would be dropped by Twitch (0: exempt). */
  duplicateMs: number;
}

/** Broadcaster, moderator or VIP: 100 per 30 s, no duplicate rule. */
export const PRIVILEGED: SendLimits = { perWindow: 90, windowMs: 30_000, minGapMs: 0, duplicateMs: 0 };
/** Anyone else: 20 per 30 s, one per second per channel, no identical line within 30 s. */
export const ORDINARY: SendLimits = { perWindow: 18, windowMs: 30_000, minGapMs: 1100, duplicateMs: 30_000 };

/** Longest chat line Twitch takes is 500 characters (counted as code points to be safe). */
export const MAX_LINE = 480;

/** One line for chat: no newlines, at most MAX_LINE code points (cut with an ellipsis). */
export function chatLine(text: string): string {
  const flat = (/[\r\n]/.test(text) ? text.replace(/\s*[\r\n]+\s*/g, " ") : text).trim();
  // A line of at most MAX_LINE UTF-16 units holds at most as many code points: no need to count them.
  if (flat.length <= MAX_LINE) return flat;
  const points = [...flat];
  return points.length <= MAX_LINE ? flat : `${points.slice(0, MAX_LINE - 1).join("")}…`;
}

const sameText = (text: string) => text.trim().replace(/\s+/g, " ");

export class SendPacer {
  #limits: SendLimits;
  readonly #sentAt: number[] = [];
  /** The last line delivered, as queued (compared folded, only where the duplicate rule applies). */
  #last: { text: string; at: number } | null = null;

  constructor(limits: SendLimits) {
    this.#limits = limits;
  }

  get limits(): SendLimits {
    return this.#limits;
  }

  set limits(limits: SendLimits) {
    this.#limits = limits;
  }

  /** How long until the next send may go (0 = now). */
  waitMs(now: number): number {
    const { perWindow, windowMs, minGapMs } = this.#limits;
    while (this.#sentAt.length > 0 && now - this.#sentAt[0]! >= windowMs) this.#sentAt.shift();
    let wait = 0;
    if (this.#sentAt.length >= perWindow)
      wait = this.#sentAt[this.#sentAt.length - perWindow]! + windowMs - now;
    const last = this.#sentAt.at(-1);
    if (last !== undefined && minGapMs > 0) wait = Math.max(wait, last + minGapMs - now);
    return Math.max(0, wait);
  }

  /** Whether Twitch would drop this line as a repeat of the last one delivered. */
  isDuplicate(text: string, now: number): boolean {
    const { duplicateMs } = this.#limits;
    return (
      duplicateMs > 0 &&
      this.#last !== null &&
      now - this.#last.at < duplicateMs &&
      sameText(this.#last.text) === sameText(text)
    );
  }

  /** A send went out (dropped ones count against the window too). */
  record(text: string, now: number, delivered: boolean): void {
    this.#sentAt.push(now);
    if (delivered) this.#last = { text, at: now };
  }
}
