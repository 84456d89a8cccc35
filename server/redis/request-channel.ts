import { answerWithin } from "./bounded.ts";
import type { RedisClient } from "./client.ts";

/**
 * A question one instance asks the instance that serves it, and its answer, over Redis pub/sub (for
 * what only one instance can do: an action's run where the account's OBS connection and chat are
 * held). The server listens on `<prefix>ask:<name>` while it serves; each asker on its own
 * `<prefix>answer:<name>:<instance>`. Pub/sub keeps nothing: a question no instance hears is known
 * at once (PUBLISH reached no one: `ask` answers null, so the asker does it itself), one whose answer
 * does not come in time is an error (the server may still be at it: never done twice).
 */

export interface RequestChannelOptions<Q, A> {
  /** Every channel's prefix (`cuebot:`). */
  keyPrefix: string;
  /** What is asked, in the channels' names (`action-run`). */
  name: string;
  /** Longest wait for Redis per publish or subscribe. */
  timeoutMs: number;
  /** A question and an answer from the channel, checked field by field, or null (then ignored). */
  parseQuestion(value: unknown): Q | null;
  parseAnswer(value: unknown): A | null;
}

/** A question that reached the server but got no answer in time. */
export class NoAnswer extends Error {}

interface Waiting<A> {
  resolve(answer: A): void;
  timer: ReturnType<typeof setTimeout>;
}

export class RedisRequestChannel<Q, A> {
  readonly #instance = crypto.randomUUID();
  readonly #waiting = new Map<string, Waiting<A>>();
  #answersHeard: Promise<void> | null = null;

  constructor(
    private readonly client: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly options: RequestChannelOptions<Q, A>,
  ) {}

  get #askChannel(): string {
    return `${this.options.keyPrefix}ask:${this.options.name}`;
  }

  #answerChannel(instance: string): string {
    return `${this.options.keyPrefix}answer:${this.options.name}:${instance}`;
  }

  /**
   * Asks the serving instance; its answer within `waitMs`, null when no instance serves (nothing was
   * asked). Rejects with NoAnswer when the answer does not come in time, and when Redis is away.
   */
  async ask(question: Q, waitMs: number): Promise<A | null> {
    const { timeoutMs } = this.options;
    this.#answersHeard ??= this.subscriber.subscribe(this.#answerChannel(this.#instance), this.#onAnswer);
    await answerWithin(this.#answersHeard, timeoutMs);
    const id = crypto.randomUUID();
    const answered = new Promise<A>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new NoAnswer(`no answer within ${waitMs / 1000} s`));
      }, waitMs);
      this.#waiting.set(id, { resolve, timer });
    });
    answered.catch(() => {});
    const text = JSON.stringify({ id, from: this.#instance, q: question });
    const heard = await answerWithin(this.client.publish(this.#askChannel, text), timeoutMs).catch(
      (error: unknown) => {
        this.#forget(id);
        throw error;
      },
    );
    if (heard === 0) {
      this.#forget(id);
      return null;
    }
    return answered;
  }

  /** Answers questions with `answer` until the returned stop is called. */
  serve(answer: (question: Q) => Promise<A>): () => void {
    // A question that fails here is the asker's NoAnswer.
    const listener = (text: string) => void this.#answerOne(text, answer).catch(() => {});
    const subscribed = this.subscriber.subscribe(this.#askChannel, listener);
    subscribed.catch(() => {});
    return () => {
      void subscribed.then(() => this.subscriber.unsubscribe(this.#askChannel, listener)).catch(() => {});
    };
  }

  async #answerOne(text: string, answer: (question: Q) => Promise<A>): Promise<void> {
    const asked = readJson(text) as { id?: unknown; from?: unknown; q?: unknown } | null;
    const question = this.options.parseQuestion(asked?.q);
    if (!question || typeof asked?.id !== "string" || typeof asked.from !== "string") return;
    const reply = JSON.stringify({ id: asked.id, a: await answer(question) });
    await answerWithin(this.client.publish(this.#answerChannel(asked.from), reply), this.options.timeoutMs);
  }

  readonly #onAnswer = (text: string) => {
    const reply = readJson(text) as { id?: unknown; a?: unknown } | null;
    const waiting = typeof reply?.id === "string" ? this.#waiting.get(reply.id) : undefined;
    const answer = this.options.parseAnswer(reply?.a);
    if (!waiting || answer === null || typeof reply?.id !== "string") return;
    this.#forget(reply.id);
    waiting.resolve(answer);
  };

  #forget(id: string): void {
    const waiting = this.#waiting.get(id);
    if (waiting) clearTimeout(waiting.timer);
    this.#waiting.delete(id);
  }
}

function readJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
