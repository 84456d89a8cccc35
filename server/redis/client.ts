import { createClient, type RedisClientType } from "redis";

type None = Record<never, never>;
/** node-redis's client as cuebot creates it: RESP3, no extra modules, functions or scripts. */
export type RedisClient = RedisClientType<None, None, None, 3, None>;

export interface RedisClientOptions {
  /** Every failure of the connection (each reconnect attempt too); throttle before logging. */
  onError(error: Error): void;
  /** Longest wait for a TCP/TLS connection, ms. */
  connectTimeoutMs?: number;
  /** False for a one-off probe (`cuebot doctor`): the first failure rejects instead of retrying. */
  reconnect?: boolean;
  /**
   * The first connection must be up within this many ms, else the client is closed and the promise
   * rejects (a server starting against an absent Redis says so instead of waiting forever).
   */
  firstConnectWithinMs?: number;
}

/**
 * A connected node-redis client for `redis://`, `rediss://` or `redis+unix://` URLs. Commands issued
 * while the connection is down fail at once (no offline queue: a limiter must not wait for Redis to
 * come back), and the client reconnects by itself, backing off from 25 ms to 1 s.
 */
export async function connectRedis(url: string, options: RedisClientOptions): Promise<RedisClient> {
  const parsed = new URL(url);
  const socketPath = parsed.protocol === "redis+unix:" ? decodeURIComponent(parsed.pathname) : undefined;
  const reconnectStrategy =
    options.reconnect === false ? false : (retries: number) => Math.min(25 * 2 ** retries, 1000);
  const connectTimeout = options.connectTimeoutMs ?? 2000;
  const client = createClient({
    ...(socketPath
      ? {
          socket: { path: socketPath, reconnectStrategy, connectTimeout },
          username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
          password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
        }
      : { url, socket: { reconnectStrategy, connectTimeout } }),
    disableOfflineQueue: true,
    // A frozen server must not collect an unbounded backlog of abandoned commands.
    commandsQueueMaxLength: 10_000,
    // Probes an idle connection, so a server that vanished silently is noticed and reconnected.
    pingInterval: 5000,
  });
  // Without a listener, node-redis turns a connection error into an uncaught exception.
  client.on("error", (error: Error) => options.onError(error));
  const connecting = client.connect();
  if (options.firstConnectWithinMs === undefined) {
    await connecting;
    return client;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      connecting,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no connection within ${options.firstConnectWithinMs} ms`)),
          options.firstConnectWithinMs,
        );
      }),
    ]);
  } catch (error) {
    connecting.catch(() => {});
    client.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/**
 * What every Redis-backed piece needs (limits, cooldowns, the game provider's cache and budget): the
 * command connection, the prefix of every key it writes, and how long one call may take before the
 * store counts as away (StoreUnavailableError).
 */
export interface RedisStore {
  client: RedisClient;
  keyPrefix: string;
  timeoutMs: number;
}
