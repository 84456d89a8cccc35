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

/** Twitch trims a line and folds its whitespace; the echo's text is compared the same way. */
const normalise = (text: string) => text.trim().replace(/\s+/gu, " ");

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
  /** Settles when the send answered (or failed). */
  settled: Promise<void>;
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

export class OwnLines {
  #lines: OwnLine[] = [];
  /** Message ids of echoes already matched: a redelivered echo is ours too. */
  readonly #matchedIds = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** A line is about to be sent (`replyTo` "" for none); what the send learns is told to the handle. */
  sending(text: string, replyTo = ""): OwnSend {
    this.#forget();
    const normal = normalise(text);
    // A retry of a send that failed after Twitch may have posted it: one line, not two.
    const retried = this.#lines.find(
      (l) => l.maybePosted && !l.matched && l.text === normal && l.replyTo === replyTo,
    );
    const line = retried ?? this.#add(normal, replyTo);
    let settle = () => {};
    line.settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    Object.assign(line, { at: this.now(), done: false, maybePosted: false });
    const drop = () => {
      this.#lines = this.#lines.filter((l) => l !== line);
    };
    return {
      sent: (messageId, isSent) => {
        if (!isSent) drop();
        else Object.assign(line, { messageId: messageId || null, done: true });
        // Matched by text after a long wait: its own echo, when it comes, is known by its id all the same.
        if (isSent && messageId && line.matched) this.#matchedIds.set(messageId, this.now());
        settle();
      },
      failed: (mayHavePosted) => {
        if (!mayHavePosted) drop();
        else Object.assign(line, { done: true, maybePosted: true });
        settle();
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
    const inFlight = this.#lines.filter((l) => !l.done && !l.matched).map((l) => l.settled);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SETTLE_WAIT_MS);
    });
    await Promise.race([Promise.all(inFlight), timeout]);
    clearTimeout(timer);
    return this.#judge(echo, true) === true;
  }

  /** Ours, not ours, or (before `waited`) wait for the sends in flight. */
  #judge(echo: EchoedLine, waited: boolean): boolean | typeof WAIT {
    this.#forget();
    if (this.#matchedIds.has(echo.messageId)) return true;
    const byId = this.#lines.find((l) => !l.matched && l.messageId === echo.messageId);
    if (byId) return this.#claim(byId, echo);
    const texts = textsOf(echo);
    const byText = (done: boolean) =>
      this.#lines.find(
        (l) => !l.matched && l.messageId === null && l.done === done && texts.includes(l.text),
      );
    // A send that answered without an id (or may have posted before failing): its text is all there is.
    const withoutId = byText(true);
    if (withoutId) return this.#claim(withoutId, echo);
    if (!this.#lines.some((l) => !l.done && !l.matched)) return false;
    if (!waited) return WAIT;
    // Still unanswered after the wait: judged by text, so no reply of ours is ever answered.
    const unanswered = byText(false);
    return unanswered ? this.#claim(unanswered, echo) : false;
  }

  #claim(line: OwnLine, echo: EchoedLine): true {
    line.matched = true;
    this.#matchedIds.set(echo.messageId, this.now());
    return true;
  }

  #add(text: string, replyTo: string): OwnLine {
    const line: OwnLine = {
      text,
      replyTo,
      at: this.now(),
      messageId: null,
      done: false,
      maybePosted: false,
      settled: Promise.resolve(),
      matched: false,
    };
    this.#lines.push(line);
    if (this.#lines.length > MAX_LINES) this.#lines.shift();
    return line;
  }

  #forget(): void {
    const since = this.now() - OWN_LINE_MS;
    this.#lines = this.#lines.filter((l) => l.at >= since && !(l.matched && l.messageId !== null));
    for (const [id, at] of this.#matchedIds) if (at < since) this.#matchedIds.delete(id);
  }
}

/** The echo's text as sent: as it came, and without the `@parent ` a reply may carry first. */
function textsOf(echo: EchoedLine): string[] {
  const text = normalise(echo.text);
  const parent = echo.replyParentLogin;
  if (!parent || !text.toLowerCase().startsWith(`@${parent.toLowerCase()} `)) return [text];
  return [text, text.slice(parent.length + 2)];
}
