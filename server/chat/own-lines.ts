/**
 * What a channel's send queue sent, remembered a short while, so native chat knows its own lines when
 * EventSub echoes them. Who spoke cannot tell them apart when cuebot speaks as the streamer (no bot
 * account): the streamer's own `!addcom …` must be answered, cuebot's replies never (no loops, even
 * for a reply that starts with `!`). A line is known by the `message_id` Send Chat Message returned;
 * since the echo may arrive before the HTTP answer, an echo during a send waits for it to answer, and
 * only a send that returned no id (or never answered) is known by its text. A send that certainly did
 * not post (dropped, a 4xx) is forgotten at once. Each remembered line matches one echo.
 */

/** How long a sent line waits for its echo. */
export const OWN_LINE_MS = 30_000;
/** Lines remembered at most (a queue sends a few a second at the privileged pace). */
const MAX_LINES = 200;
/** The longest an unknown line of the speaker waits for a send in flight to tell its message id. */
const SETTLE_WAIT_MS = 5_000;
/**
 * How often lines past the window are swept out. Every look-up skips them anyway (by `at`), so the
 * sweep only bounds memory; a channel speaking once a second no longer scans its lines on every echo.
 */
const SWEEP_EVERY_MS = 1_000;

/** Twitch trims a line and folds its whitespace; the echo's text is compared the same way. */
const normalise = (text: string) => {
  const trimmed = text.trim();
  // Most lines have no run of whitespace and no tab or newline: nothing to fold.
  return /\s\s|[^\S ]/u.test(trimmed) ? trimmed.replace(/\s+/gu, " ") : trimmed;
};

interface OwnLine {
  text: string;
  /** The message it replies to ("" for none): a retry of the same reply is the same line. */
  replyTo: string;
  at: number;
  /** Helix's message id, once the send answered with one. */
  messageId: string | null;
  /** The send answered, or failed in a way that may have posted it. */
  done: boolean;
  /** Failed, yet Twitch may have posted it (a timeout, a 5xx): a retry takes it over. */
  maybePosted: boolean;
  /** Echoes waiting for the send to answer (or fail); made only when one waits. */
  waiters: (() => void)[] | null;
  /** Matched by an echo already. */
  matched: boolean;
}

/** One send's part: `sent` with what Helix answered, or `failed`. */
export interface OwnSend {
  sent(messageId: string | null, isSent: boolean): void;
  /** The send failed; `mayHavePosted` unless Twitch certainly did not post it (a 4xx, a 429). */
  failed(mayHavePosted: boolean): void;
}

/** An echo as dispatch reads it: the chat message's id, its text and the reply's parent login. */
export interface EchoedLine {
  messageId: string;
  text: string;
  replyParentLogin: string | null;
}

/** The judgement before the sends in flight answered: wait for them. */
const WAIT = "wait";

/** A line still to be matched: sent within the window and not matched by an echo yet. */
const open = (line: OwnLine, since: number) => !line.matched && line.at >= since;

/** A line no look-up can find again: past the window, or matched and known by its id. */
const spent = (line: OwnLine, since: number) => line.at < since || (line.matched && line.messageId !== null);

export class OwnLines {
  readonly #lines: OwnLine[] = [];
  /** Message ids of echoes already matched (when): a redelivered echo is ours too. */
  readonly #matchedIds = new Map<string, number>();
  #sweptAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number) {}

  /** A line is about to be sent (`replyTo` "" for none); what the send learns is told to the handle. */
  sending(text: string, replyTo = ""): OwnSend {
    const now = this.#sweep();
    const since = now - OWN_LINE_MS;
    const normal = normalise(text);
    // A retry of a send that failed after Twitch may have posted it: one line, not two.
    const retried = this.#lines.find(
      (l) => l.maybePosted && open(l, since) && l.text === normal && l.replyTo === replyTo,
    );
    const line = retried ?? this.#add(normal, replyTo, now);
    line.at = now;
    line.done = false;
    line.maybePosted = false;
    line.waiters = null;
    return {
      sent: (messageId, isSent) => {
        if (!isSent) this.#drop(line);
        else {
          line.messageId = messageId || null;
          line.done = true;
        }
        // Matched by text after a long wait: its own echo, when it comes, is known by its id all the same.
        if (isSent && messageId && line.matched) this.#matchedIds.set(messageId, this.now());
        settle(line);
      },
      failed: (mayHavePosted) => {
        if (!mayHavePosted) this.#drop(line);
        else {
          line.done = true;
          line.maybePosted = true;
        }
        settle(line);
      },
    };
  }

  /**
   * Whether a line the speaker's account said is one of ours. While sends are in flight the echo is
   * judged once they answered: by message id when Helix returned one (the streamer typing the same
   * text meanwhile is theirs), by text when the send returned none or never answered.
   */
  async isOwn(echo: EchoedLine): Promise<boolean> {
    const first = this.#judge(echo, false);
    if (first !== WAIT) return first;
    await this.#inFlightSettled();
    return this.#judge(echo, true) === true;
  }

  /** Resolves once every send in flight answered (or failed), or after SETTLE_WAIT_MS. */
  #inFlightSettled(): Promise<void> {
    const since = this.now() - OWN_LINE_MS;
    return new Promise<void>((resolve) => {
      let left = 0;
      const timer = setTimeout(resolve, SETTLE_WAIT_MS);
      const answered = () => {
        if (--left > 0) return;
        clearTimeout(timer);
        resolve();
      };
      for (const line of this.#lines) {
        if (line.done || !open(line, since)) continue;
        left++;
        line.waiters ??= [];
        line.waiters.push(answered);
      }
      if (left === 0) answered();
    });
  }

  /** Ours, not ours, or (before `waited`) wait for the sends in flight. */
  #judge(echo: EchoedLine, waited: boolean): boolean | typeof WAIT {
    const now = this.#sweep();
    const since = now - OWN_LINE_MS;
    if ((this.#matchedIds.get(echo.messageId) ?? since - 1) >= since) return true;
    const lines = this.#lines;
    const byId = lines.find((l) => l.messageId === echo.messageId && open(l, since));
    if (byId) return this.#claim(byId, echo, now);
    // Worked out only when a line is known by its text alone (most echoes are matched by id).
    let texts: string[] | null = null;
    const sentAs = (line: OwnLine) => {
      texts ??= textsOf(echo);
      return texts.includes(line.text);
    };
    const byText = (done: boolean) =>
      lines.find((l) => l.messageId === null && l.done === done && open(l, since) && sentAs(l));
    // A send that answered without an id (or may have posted before failing): its text is all there is.
    const withoutId = byText(true);
    if (withoutId) return this.#claim(withoutId, echo, now);
    if (!lines.some((l) => !l.done && open(l, since))) return false;
    if (!waited) return WAIT;
    // Still unanswered after the wait: judged by text, so no reply of ours is ever answered.
    const unanswered = byText(false);
    return unanswered ? this.#claim(unanswered, echo, now) : false;
  }

  #claim(line: OwnLine, echo: EchoedLine, now: number): true {
    line.matched = true;
    this.#matchedIds.set(echo.messageId, now);
    return true;
  }

  #add(text: string, replyTo: string, now: number): OwnLine {
    const line: OwnLine = {
      text,
      replyTo,
      at: now,
      messageId: null,
      done: false,
      maybePosted: false,
      waiters: null,
      matched: false,
    };
    this.#lines.push(line);
    if (this.#lines.length > MAX_LINES) {
      // The cap counts only lines still remembered, as if swept just now.
      this.#sweepLines(now - OWN_LINE_MS);
      if (this.#lines.length > MAX_LINES) this.#lines.shift();
    }
    return line;
  }

  #drop(line: OwnLine): void {
    const index = this.#lines.indexOf(line);
    if (index >= 0) this.#lines.splice(index, 1);
  }

  /** Now; lines and ids past the window swept out at most once a second. */
  #sweep(): number {
    const now = this.now();
    if (now - this.#sweptAt < SWEEP_EVERY_MS && now >= this.#sweptAt) return now;
    this.#sweptAt = now;
    const since = now - OWN_LINE_MS;
    this.#sweepLines(since);
    for (const [id, at] of this.#matchedIds) if (at < since) this.#matchedIds.delete(id);
    return now;
  }

  #sweepLines(since: number): void {
    const lines = this.#lines;
    let kept = 0;
    for (const line of lines) if (!spent(line, since)) lines[kept++] = line;
    lines.length = kept;
  }
}

/** The line's send answered (or failed): the echoes waiting for it are told. */
function settle(line: OwnLine): void {
  const waiters = line.waiters;
  line.waiters = null;
  if (waiters) for (const waiter of waiters) waiter();
}

/** The echo's text as sent: as it came, and without the `@parent ` a reply may carry first. */
function textsOf(echo: EchoedLine): string[] {
  const text = normalise(echo.text);
  const parent = echo.replyParentLogin;
  if (!parent || !text.toLowerCase().startsWith(`@${parent.toLowerCase()} `)) return [text];
  return [text, text.slice(parent.length + 2)];
}
