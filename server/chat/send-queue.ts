import { withoutCommandLead } from "../core/chat-lead.ts";
import { HelixError } from "../twitch/helix-client.ts";
import { chatLine, ORDINARY, PRIVILEGED, SendPacer } from "./send-limits.ts";

/** What one reply is about, for the activity feed when it cannot be delivered. */
export interface QueuedReply {
  text: string;
  replyTo: string;
  command: string;
  caller: string;
  /** Goes ahead of the waiting replies and is never skipped for a full queue (the raid shield's line). */
  urgent?: boolean;
}

export interface SendOutcome {
  isSent: boolean;
  dropReason: { code: string; message: string } | null;
}

export interface SendQueueOptions {
  /** Sends one line (token handling, and a refresh on 401, are the caller's). */
  send(text: string, replyTo: string): Promise<SendOutcome>;
  /** A reply that did not reach chat, with Twitch's or cuebot's reason. */
  onDropped(reply: QueuedReply, code: string, message: string): void;
  now(): number;
  /** Most replies waiting; a burst beyond it is dropped (reference §5.3). */
  capacity?: number;
  /** A reply older than this is no longer worth sending. */
  maxAgeMs?: number;
}

/**
 * One channel's outgoing chat: first in, first out, one send in flight, paced under Twitch's limits.
 * `push` never waits, so command handling is never blocked by chat limits. Every line cuebot sends
 * passes here, so here it loses a leading command character (core/chat-lead.ts), whoever wrote it.
 */
export class ChannelSendQueue {
  readonly #pacer = new SendPacer(ORDINARY);
  readonly #items: (QueuedReply & { at: number; retried: boolean })[] = [];
  #busy = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #closed = false;

  constructor(private readonly options: SendQueueOptions) {}

  /** Broadcaster, moderator or VIP senders may send faster and repeat themselves. */
  set privileged(value: boolean) {
    this.#pacer.limits = value ? PRIVILEGED : ORDINARY;
  }

  get size(): number {
    return this.#items.length;
  }

  push(reply: QueuedReply): void {
    if (this.#closed) return;
    const text = chatLine(withoutCommandLead(reply.text));
    if (text === "") {
      this.options.onDropped(
        reply,
        "nothing_to_say",
        "The line held nothing but command characters or invisible characters, which chat never opens with.",
      );
      return;
    }
    const capacity = this.options.capacity ?? 10;
    if (reply.urgent) {
      // Ahead of the replies, behind other urgent lines; the newest reply makes room when full.
      const spare = this.#items.length >= capacity ? this.#items.pop() : undefined;
      if (spare)
        this.options.onDropped(
          spare,
          "queue_full",
          `More than ${capacity} replies were waiting; this one was skipped.`,
        );
      const at = this.#items.findIndex((item) => !item.urgent);
      this.#items.splice(at === -1 ? this.#items.length : at, 0, {
        ...reply,
        text,
        at: this.options.now(),
        retried: false,
      });
      this.#pump();
      return;
    }
    if (this.#items.length >= capacity) {
      this.options.onDropped(
        reply,
        "queue_full",
        `More than ${capacity} replies were waiting; this one was skipped.`,
      );
      return;
    }
    this.#items.push({ ...reply, text, at: this.options.now(), retried: false });
    this.#pump();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#items.length = 0;
  }

  #later(ms: number): void {
    if (this.#timer || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#pump();
    }, ms);
  }

  #pump(): void {
    if (this.#busy || this.#closed || this.#timer) return;
    const now = this.options.now();
    const maxAge = this.options.maxAgeMs ?? 15_000;
    while (this.#items.length > 0 && now - this.#items[0]!.at > maxAge) {
      const stale = this.#items.shift()!;
      this.options.onDropped(
        stale,
        "too_late",
        "The reply waited too long behind chat limits and was skipped.",
      );
    }
    const item = this.#items[0];
    if (!item) return;
    const wait = this.#pacer.waitMs(now);
    if (wait > 0) {
      this.#later(wait);
      return;
    }
    this.#items.shift();
    if (this.#pacer.isDuplicate(item.text, now)) {
      this.options.onDropped(
        item,
        "duplicate",
        "The same line was sent less than 30 seconds ago; Twitch would drop it.",
      );
      this.#pump();
      return;
    }
    this.#busy = true;
    this.options
      .send(item.text, item.replyTo)
      .then((outcome) => {
        this.#pacer.record(item.text, this.options.now(), outcome.isSent);
        if (!outcome.isSent) {
          const reason = outcome.dropReason ?? {
            code: "dropped",
            message: "Twitch did not post the message.",
          };
          this.options.onDropped(item, reason.code, reason.message);
        }
      })
      .catch((error: unknown) => {
        if (error instanceof HelixError && error.status === 429 && !item.retried) {
          // Twitch's bucket is empty: wait for its reset, then try this reply again first.
          this.#items.unshift({ ...item, retried: true });
          const retryAt = error.retryAt ?? this.options.now() + 1000;
          this.#later(Math.max(100, retryAt - this.options.now()));
          return;
        }
        if (error instanceof HelixError && (error.status ?? 500) >= 500 && !item.retried) {
          this.#items.unshift({ ...item, retried: true });
          return;
        }
        this.options.onDropped(item, "send_failed", error instanceof Error ? error.message : String(error));
      })
      .finally(() => {
        this.#busy = false;
        this.#pump();
      });
  }
}
