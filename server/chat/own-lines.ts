/**
 * What a channel's send queue sent, remembered a short while, so native chat knows its own lines when
 * EventSub echoes them. Who spoke cannot tell them apart when cuebot speaks as the streamer (no bot
 * account): the streamer's own `!addcom …` must be answered, cuebot's replies never (no loops, even
 * for a reply that starts with `!`). A line is known by the `message_id` Send Chat Message returned,
 * or, since the echo may arrive before the HTTP answer, by its text while the send is in flight or
 * just done. Each remembered line matches one echo.
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
  at: number;
  /** Helix's message id, once the send answered with one. */
  messageId: string | null;
  /** Settles when the send answered (or failed). */
  settled: Promise<void>;
  /** Matched by an echo already. */
  matched: boolean;
}

/** One send's part: `sent` with what Helix answered, or `failed`. */
export interface OwnSend {
  sent(messageId: string | null, isSent: boolean): void;
  failed(): void;
}

/** An echo as dispatch reads it: the chat message's id, its text and the reply's parent login. */
export interface EchoedLine {
  messageId: string;
  text: string;
  replyParentLogin: string | null;
}

export class OwnLines {
  #lines: OwnLine[] = [];
  /** Message ids of echoes already matched: a redelivered echo is ours too. */
  readonly #matchedIds = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** A line is about to be sent; what the send learns is told to the returned handle. */
  sending(text: string): OwnSend {
    this.#forget();
    let settle = () => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const line: OwnLine = { text: normalise(text), at: this.now(), messageId: null, settled, matched: false };
    this.#lines.push(line);
    if (this.#lines.length > MAX_LINES) this.#lines.shift();
    return {
      sent: (messageId, isSent) => {
        if (!isSent) this.#lines = this.#lines.filter((l) => l !== line);
        else if (messageId) line.messageId = messageId;
        settle();
      },
      // Twitch may have posted it anyway (a 5xx after delivery): the text stays remembered.
      failed: settle,
    };
  }

  /**
   * Whether a line the speaker's account said is one of ours. A line matching nothing waits for the
   * sends still in flight (their message ids may name it) before it is judged the streamer's own.
   */
  async isOwn(echo: EchoedLine): Promise<boolean> {
    if (this.#match(echo)) return true;
    const inFlight = this.#lines.filter((l) => l.messageId === null && !l.matched).map((l) => l.settled);
    if (inFlight.length === 0) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SETTLE_WAIT_MS);
    });
    await Promise.race([Promise.all(inFlight), timeout]);
    clearTimeout(timer);
    return this.#match(echo, true);
  }

  #match(echo: EchoedLine, idsOnly = false): boolean {
    this.#forget();
    if (this.#matchedIds.has(echo.messageId)) return true;
    const byId = this.#lines.find((l) => !l.matched && l.messageId === echo.messageId);
    const texts = idsOnly ? [] : textsOf(echo);
    const line =
      byId ?? this.#lines.find((l) => !l.matched && l.messageId === null && texts.includes(l.text));
    if (!line) return false;
    line.matched = true;
    this.#matchedIds.set(echo.messageId, this.now());
    return true;
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
