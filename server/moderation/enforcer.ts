import type { TokenHolder } from "../live/feed.ts";
import { HelixError } from "../twitch/helix-client.ts";

/**
 * Moderation's Helix calls (delete, timeout, ban, followers-only) for every channel one account acts
 * in, apart from chat's send queue, so they never wait behind replies (CONTRACT §6). Calls run a few
 * at a time per acting account, timeouts, bans and chat settings ahead of deletions, within a share
 * of Twitch's per-user bucket (800 points a minute, reference/moderation.md §4) that leaves the rest
 * to replies and lookups: under a flood the oldest deletions wait, and a deletion that waited longer
 * than a minute is dropped (the chatter's timeout clears their lines anyway).
 */

/** A moderation call on its way: what it is, for whom, and how to make it with a token. */
export interface EnforcementCall {
  /** Timeouts, bans and chat settings go first; deletions after. */
  urgent: boolean;
  holder: TokenHolder;
  run(token: string): Promise<void>;
  /** Twitch's refusal, or a failure to reach it (never thrown further). */
  failed(error: HelixError): void;
}

/** Makes a call with the holder's token (a 401 refreshes it once: live/speaker-tokens.ts `withToken`). */
export type WithToken = (holder: TokenHolder, call: (token: string) => Promise<void>) => Promise<void>;

/** Calls in flight at once per acting account. */
const CONCURRENCY = 4;
/** Calls per acting account per minute: 600 of Twitch's 800, the rest left to chat and lookups. */
export const CALLS_PER_MINUTE = 600;
/** A waiting deletion older than this is dropped. */
const STALE_MS = 60_000;

interface Waiting extends EnforcementCall {
  at: number;
}

/** One acting account's calls: waiting (urgent first), in flight, and when each of the last minute's began. */
class ActorQueue {
  readonly urgent: Waiting[] = [];
  readonly ordinary: Waiting[] = [];
  inFlight = 0;
  readonly began: number[] = [];
  timer: ReturnType<typeof setTimeout> | null = null;
}

export class Enforcer {
  readonly #actors = new Map<string, ActorQueue>();
  #closed = false;

  constructor(
    private readonly withToken: WithToken,
    private readonly now: () => number,
  ) {}

  /** Queues a call; it runs at once when the acting account has room. */
  enqueue(call: EnforcementCall): void {
    if (this.#closed) return;
    const key = call.holder.speaker.userId;
    let actor = this.#actors.get(key);
    if (!actor) {
      actor = new ActorQueue();
      this.#actors.set(key, actor);
    }
    (call.urgent ? actor.urgent : actor.ordinary).push({ ...call, at: this.now() });
    this.#pump(key, actor);
  }

  close(): void {
    this.#closed = true;
    for (const actor of this.#actors.values()) if (actor.timer) clearTimeout(actor.timer);
    this.#actors.clear();
  }

  #pump(key: string, actor: ActorQueue): void {
    const now = this.now();
    while (actor.began.length > 0 && now - (actor.began[0] ?? 0) >= 60_000) actor.began.shift();
    while (actor.ordinary.length > 0 && now - (actor.ordinary[0]?.at ?? now) > STALE_MS)
      actor.ordinary.shift();
    while (actor.inFlight < CONCURRENCY && (actor.urgent.length > 0 || actor.ordinary.length > 0)) {
      if (actor.began.length >= CALLS_PER_MINUTE) {
        this.#later(key, actor, 60_000 - (now - (actor.began[0] ?? now)));
        return;
      }
      const call = actor.urgent.shift() ?? actor.ordinary.shift();
      if (!call) return;
      actor.began.push(now);
      actor.inFlight++;
      void this.#run(call).finally(() => {
        actor.inFlight--;
        this.#pump(key, actor);
      });
    }
  }

  #later(key: string, actor: ActorQueue, ms: number): void {
    if (actor.timer || this.#closed) return;
    actor.timer = setTimeout(
      () => {
        actor.timer = null;
        this.#pump(key, actor);
      },
      Math.max(10, ms),
    );
  }

  async #run(call: EnforcementCall): Promise<void> {
    try {
      await this.withToken(call.holder, (token) => call.run(token));
    } catch (error) {
      call.failed(
        error instanceof HelixError
          ? error
          : new HelixError(null, error instanceof Error ? error.message : String(error)),
      );
    }
  }
}
