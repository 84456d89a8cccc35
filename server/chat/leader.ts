import { answerWithin } from "../redis/bounded.ts";
import type { RedisStore } from "../redis/client.ts";
import { RedisLease } from "../redis/lease.ts";
import type { ChatContext } from "./context.ts";
import { type ChatManagerOptions, startChatManager } from "./manager.ts";
import type { ChatRuntime } from "./status.ts";

/**
 * How long the chat lease lasts without renewal. A standby takes over at most this long (plus one
 * poll) after the holder died: within EventSub's default keepalive window of 10 s.
 */
export const CHAT_LEASE_TTL_MS = 6000;
/** How long a chat message id is remembered cluster-wide, so no command is answered twice. */
const CLAIM_TTL_SECONDS = 600;

export interface ChatLeadership {
  /** Whether this instance holds native chat now. */
  leading(): boolean;
  /** Stops competing; a holder closes its connections and hands the lease over at once. */
  stop(): Promise<void>;
}

export interface ChatLeadershipOptions extends ChatManagerOptions {
  ttlMs?: number;
}

/**
 * Several instances (Redis): exactly one holds native chat — every account's EventSub connection and
 * sending — the holder of the `chat` lease (a RedisLease with fencing, scale-out.md §6). It renews
 * every third of the lease; the others poll to take it over. A holder that cannot renew before its
 * lease could have ended stops acting, and the runtime it ran is closed. Every instance reads chat
 * state from the shared database, so the dashboard shows it wherever the streamer is served. As a
 * second guard, each chat message is claimed in Redis before it is answered, so even a holder that
 * was paused past its lease never answers a command twice.
 */
export function startChatLeadership(
  ctx: ChatContext,
  redis: RedisStore,
  options: ChatLeadershipOptions = {},
): ChatLeadership {
  const ttlMs = options.ttlMs ?? CHAT_LEASE_TTL_MS;
  const everyMs = Math.max(10, Math.floor(ttlMs / 3));
  const lease = new RedisLease({
    client: redis.client,
    name: "chat",
    ttlMs,
    timeoutMs: redis.timeoutMs,
    keyPrefix: redis.keyPrefix,
  });
  let runtime: ChatRuntime | null = null;
  let validUntil = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const claimMessage = async (messageId: string): Promise<boolean> => {
    const key = `${redis.keyPrefix}chat:seen:${messageId}`;
    const set = redis.client.set(key, lease.owner, { NX: true, EX: CLAIM_TTL_SECONDS });
    return (await answerWithin(set, redis.timeoutMs)) === "OK";
  };

  /**
   * Stops acting as holder. `handOver`: another instance holds the lease and writes the state; when
   * Redis is away nobody can take over, so the stored state says why chat stopped.
   */
  const stepDown = async (why: string, handOver: boolean) => {
    const running = runtime;
    runtime = null;
    if (!running) return;
    ctx.chat.release(running);
    ctx.log.warn("this instance no longer holds native chat", { reason: why });
    await running.close(
      handOver
        ? { handOver: true }
        : {
            end: {
              state: "error",
              reason: "cuebot's shared store (Redis) is not answering; chat resumes when it is back.",
            },
          },
    );
  };

  const tick = async () => {
    try {
      if (runtime) {
        const until = await lease.renew();
        if (until === null) await stepDown("another instance holds the chat lease", true);
        else validUntil = until;
      } else {
        const held = await lease.acquire();
        if (held && stopped) {
          // Stopped while the lease was being taken: give it back at once.
          await lease.release().catch(() => false);
        } else if (held) {
          validUntil = held.validUntil;
          try {
            runtime = startChatManager(ctx, { ...options, claimMessage });
            ctx.chat.useLive(runtime);
            ctx.log.info("this instance holds native chat", { fencingToken: held.token });
          } catch (error) {
            ctx.log.error("native chat could not start; the lease is given back", { error });
            await lease.release().catch(() => false);
          }
        }
      }
    } catch (error) {
      // Redis is away: keep acting only while the lease cannot have ended yet.
      if (runtime && performance.now() + everyMs >= validUntil) {
        await stepDown(`the chat lease could not be renewed: ${(error as Error).message}`, false);
      }
    }
    if (!stopped) timer = setTimeout(() => void tick(), everyMs);
  };
  void tick();

  return {
    leading: () => runtime !== null,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      const running = runtime;
      runtime = null;
      if (running) ctx.chat.release(running);
      // The connections end and the lease is given back while the database and Redis are open
      // (serve awaits this before closing them): a successor takes over at its next poll.
      const closing = running?.close();
      const releasing = running ? lease.release().catch(() => false) : undefined;
      await Promise.all([closing, releasing]);
    },
  };
}
