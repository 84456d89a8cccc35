import type { Logger } from "../core/log.ts";
import { redactUrl } from "../core/store-urls.ts";
import { RedisAlertBus } from "./alert-bus.ts";
import { answerWithin } from "./bounded.ts";
import type { RedisStore } from "./client.ts";
import { connectRedis, type RedisClient } from "./client.ts";
import { RedisObsRelayBus } from "./obs-relay-bus.ts";
import { RedisOverlayBus } from "./overlay-bus.ts";

/** Every key and channel cuebot uses in Redis starts with this. */
export const REDIS_KEY_PREFIX = "cuebot:";
/**
 * Longest wait for Redis per limit check or publish. Redis answers in ~0.1 ms on a LAN; past this it
 * is taken for away and the request is answered 503 `store_unavailable` (server/http/errors.ts).
 */
export const REDIS_TIMEOUT_MS = 250;
/** How long `serve` waits for Redis at start before it gives up with a clear error. */
const FIRST_CONNECT_MS = 5000;
/** One log line per this many ms while Redis is away, not one per reconnect attempt. */
const ERROR_LOG_INTERVAL_MS = 60_000;

/**
 * What several instances share besides the database (CONTRACT §2, `--redis-url`): limits, overlay
 * publishes and leases live in Redis. Two connections: commands, and pub/sub (a subscribed
 * connection takes no other commands).
 */
export interface SharedStores {
  redis: RedisClient;
  subscriber: RedisClient;
  overlayBus: RedisOverlayBus;
  alertBus: RedisAlertBus;
  /** The overlay pages' OBS relay between instances (obs/relay.ts). */
  obsRelayBus: RedisObsRelayBus;
  keyPrefix: string;
  timeoutMs: number;
  /** The command connection with its key prefix and call timeout, as the shared pieces take it. */
  store: RedisStore;
  /** The Redis URL without its password, for logs. */
  redactedUrl: string;
  close(): Promise<void>;
}

export class SharedStoreError extends Error {}

/** Connects to Redis (both connections) and subscribes to the overlay, alert and OBS relay buses; throws SharedStoreError. */
export async function connectSharedStores(
  redisUrl: string,
  log: Logger,
  options: { busHeartbeatMs?: number } = {},
): Promise<SharedStores> {
  const redactedUrl = redactUrl(redisUrl);
  let lastLogged = 0;
  const onError = (error: Error) => {
    const now = Date.now();
    if (now - lastLogged < ERROR_LOG_INTERVAL_MS) return;
    lastLogged = now;
    log.warn("Redis is not answering; it is retried", { redis: redactedUrl, error: error.message });
  };
  const opened: RedisClient[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      opened.push(await connectRedis(redisUrl, { onError, firstConnectWithinMs: FIRST_CONNECT_MS }));
    }
    const [redis, subscriber] = opened as [RedisClient, RedisClient];
    const overlayBus = new RedisOverlayBus(redis, subscriber, {
      keyPrefix: REDIS_KEY_PREFIX,
      timeoutMs: REDIS_TIMEOUT_MS,
      heartbeatMs: options.busHeartbeatMs,
    });
    const alertBus = new RedisAlertBus(redis, subscriber, {
      keyPrefix: REDIS_KEY_PREFIX,
      timeoutMs: REDIS_TIMEOUT_MS,
      heartbeatMs: options.busHeartbeatMs,
    });
    const obsRelayBus = new RedisObsRelayBus(redis, subscriber, {
      keyPrefix: REDIS_KEY_PREFIX,
      timeoutMs: REDIS_TIMEOUT_MS,
      heartbeatMs: options.busHeartbeatMs,
    });
    const buses = [overlayBus, alertBus, obsRelayBus];
    await answerWithin(Promise.all(buses.map((bus) => bus.start())), FIRST_CONNECT_MS);
    let closing: Promise<void> | null = null;
    return {
      redis,
      subscriber,
      overlayBus,
      alertBus,
      obsRelayBus,
      keyPrefix: REDIS_KEY_PREFIX,
      timeoutMs: REDIS_TIMEOUT_MS,
      store: { client: redis, keyPrefix: REDIS_KEY_PREFIX, timeoutMs: REDIS_TIMEOUT_MS },
      redactedUrl,
      close() {
        // Safe to call twice (serve closes them, and so does the context on its way down).
        closing ??= (async () => {
          for (const bus of buses) bus.stop();
          // A graceful close waits for queued commands, which a client reconnecting to a Redis that is
          // away never sends (a subscription asked for meanwhile hung the stop): those are dropped.
          await Promise.all(
            opened.map((client) =>
              client.isReady ? client.close() : client.isOpen ? client.destroy() : undefined,
            ),
          );
        })();
        return closing;
      },
    };
  } catch (error) {
    for (const client of opened) client.destroy();
    throw new SharedStoreError(
      `cannot reach Redis at ${redactedUrl} (CUEBOT_REDIS_URL / --redis-url): ${(error as Error).message}`,
    );
  }
}
