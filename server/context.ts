import type { DatabaseHandle } from "../db/client.ts";
import type { EventSink } from "../db/event-sink.ts";
import type { SchemaStatus } from "../db/migrate.ts";
import { loadOverlayState } from "../db/overlay.ts";
import type { DataStore } from "../db/store.ts";
import type { Random } from "./bot/chance.ts";
import { CommandCooldowns, type Cooldowns, RedisCooldowns } from "./bot/cooldowns.ts";
import { ReadCache } from "./cache/read-cache.ts";
import { RoleCaches } from "./cache/role-cache.ts";
import type { DemoChat } from "./chat/demo-chat.ts";
import { type ChatRuntime, storedChatRuntime } from "./chat/runtime.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import { createGameService, type GameService } from "./game/service.ts";
import { AccountDirectory } from "./identity/directory.ts";
import { IdentityProviderClient } from "./identity/idp-client.ts";
import { loadOrCreateSecretKey, SecretBox } from "./identity/secrets.ts";
import { createRateLimits, type RateLimits } from "./limits/rate-limits.ts";
import { createLogger, type Logger } from "./log.ts";
import { OverlayHub } from "./overlay/hub.ts";
import { openPostgresStorage } from "./postgres-storage.ts";
import type { SharedStores } from "./shared-stores.ts";
import { type ChangeFeed, openEmbeddedStorage, type Storage } from "./storage.ts";
import { HelixApi, HelixClient } from "./twitch/helix-client.ts";

export { ExternalChanges } from "./storage.ts";

export interface Context {
  config: Config;
  /** The embedded database's handle (WAL checkpoints, backups); null when the data is on PostgreSQL. */
  database: DatabaseHandle | null;
  /** The database's tables, through the query code in `db/`. */
  db: DataStore;
  secrets: SecretBox;
  clock: Clock;
  log: Logger;
  schema: SchemaStatus;
  externalChanges: ChangeFeed;
  /** Cached account lookups by API key, overlay token and id. */
  accounts: AccountDirectory;
  /** Per-account quotas, per-IP limits, failed-authentication counting and client addresses. */
  limits: RateLimits;
  /** Role-aware caches of upstream answers; flushed when the CLI changes something. */
  caches: RoleCaches;
  /** The OAuth client, or null when no provider credentials are configured. */
  identityProvider: IdentityProviderClient | null;
  /** The Helix client (it needs the application's Client-Id), or null without provider credentials. */
  helix: HelixClient | null;
  /** Typed Helix calls for features, over `helix`. */
  helixApi: HelixApi | null;
  /** Live overlay connections, told about every publish. */
  overlays: OverlayHub;
  /** Command calls for analytics and the activity feed, written behind (flush before reading them). */
  events: EventSink;
  /** Command settings read on every bot request, from memory (cleared by every write). */
  settingsCache: ReadCache<object>;
  /** Per-channel chat-command cooldowns (in Redis when instances share it). */
  cooldowns: Cooldowns;
  /** The source of chance for dice, coins, the magic 8-ball and roulette (seeded in tests). */
  random: Random;
  /** Game-statistics provider client with its caches and per-minute budget. */
  game: GameService;
  /** Native chat connections (live under `serve`; outside it, the stored state only). */
  chat: ChatRuntime;
  /** `serve --demo` only: the simulated chat the dashboard's demo panel types into. */
  demoChat: DemoChat | null;
  /** Redis shared with other instances (`--redis-url`), or null: everything in this process. */
  shared: SharedStores | null;
  /** The public URL (known once the server listens when it is derived from the port). */
  publicUrl: string;
  /**
   * Closes what the context opened, in reverse order, and the database last (once the buffered
   * analytics events are written); safe to call twice. Everything is closed once the Promise settles.
   */
  close(): Promise<void>;
  /** Registers something to close with the context (awaited before the next, and before the database). */
  onClose(fn: () => void | Promise<void>): void;
}

export interface ContextOptions {
  clock?: Clock;
  random?: Random;
  log?: Logger;
  /** Tests only: header naming the client address when there is no socket (`app.handle`). */
  testClientAddressHeader?: string;
  /** `serve`: this context serves requests (on PostgreSQL, claimed against instances it cannot share with). */
  serving?: boolean;
  /** Redis (`serve --redis-url`): limits and overlay publishes shared with every other instance. */
  shared?: SharedStores;
}

/**
 * Builds everything a request handler or CLI command needs from one validated config, on the
 * embedded database. Nothing in cuebot is a module-level singleton: tests build a fresh context each.
 */
export function createContext(config: Config, options: ContextOptions = {}): Context {
  const log = options.log ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const storage = openEmbeddedStorage(config, log);
  try {
    const { key } = loadOrCreateSecretKey(config.dataDir);
    return assembleContext(config, { ...options, log }, storage, key);
  } catch (error) {
    void storage.close();
    throw error;
  }
}

/** The context on whichever database the config names: PostgreSQL with `--database-url`, else embedded. */
export async function openContext(config: Config, options: ContextOptions = {}): Promise<Context> {
  if (!config.databaseUrl) return createContext(config, options);
  const log = options.log ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const { key } = loadOrCreateSecretKey(config.dataDir);
  // Serving: PostgreSQL lets several instances share it, but without Redis each would keep its own
  // quotas and cooldowns, breaking the promise that a key's quota holds wherever its requests land.
  // So an instance without Redis serves a database alone, and those with Redis only beside each other.
  const storage = await openPostgresStorage(config.databaseUrl, key, log, {
    ...(options.serving ? { serving: { withRedis: options.shared !== undefined } } : {}),
  });
  try {
    return assembleContext(config, { ...options, log }, storage, key);
  } catch (error) {
    await storage.close();
    throw error;
  }
}

function assembleContext(
  config: Config,
  options: ContextOptions & { log: Logger },
  storage: Storage,
  key: Buffer,
): Context {
  const { log } = options;
  const { db: store, externalChanges, events } = storage;
  const closers: (() => void | Promise<void>)[] = [];
  const clock = options.clock ?? systemClock;
  const accounts = new AccountDirectory(
    store,
    () => clock.now(),
    (error) => log.warn("could not note when a key or token was last used", { error }),
  );
  externalChanges.subscribe(() => accounts.invalidate());
  const helix = config.twitch.clientId
    ? new HelixClient({
        baseUrl: config.twitch.apiUrl,
        clientId: config.twitch.clientId,
        now: () => clock.now(),
      })
    : null;
  const caches = new RoleCaches({ clock });
  externalChanges.subscribe(() => caches.flush());
  const settingsCache = new ReadCache<object>();
  externalChanges.subscribe(() => settingsCache.clear());
  let closing: Promise<void> | null = null;
  const secrets = new SecretBox(key);
  const shared = options.shared;
  return {
    config,
    database: storage.database,
    db: store,
    secrets,
    clock,
    log,
    schema: storage.schema,
    externalChanges,
    accounts,
    limits: createRateLimits({
      clock,
      log,
      trustProxy: config.trustProxy,
      testAddressHeader: options.testClientAddressHeader,
      shared: shared?.store,
    }),
    caches,
    identityProvider:
      config.twitch.clientId && config.twitch.clientSecret
        ? new IdentityProviderClient({
            baseUrl: config.twitch.authUrl,
            clientId: config.twitch.clientId,
            clientSecret: config.twitch.clientSecret,
          })
        : null,
    events,
    settingsCache,
    cooldowns: shared ? new RedisCooldowns(shared.store) : new CommandCooldowns(),
    overlays: new OverlayHub(
      shared
        ? {
            bus: shared.overlayBus,
            load: (accountId) => loadOverlayState(store, accountId),
            onBusError: (error) =>
              log.warn("an overlay publish reached only this instance's overlays: Redis is away", {
                error,
              }),
          }
        : {},
    ),
    shared: shared ?? null,
    random: options.random ?? Math.random,
    helix,
    helixApi: helix ? new HelixApi(helix) : null,
    game: createGameService({
      config,
      clock,
      log,
      ...(shared ? { sharedGame: shared.store } : {}),
    }),
    chat: storedChatRuntime({ db: store, secrets, accounts }),
    demoChat: null,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    close() {
      closing ??= (async () => {
        // One after another, in reverse order, each finished before the next (chat stores its final
        // state, Redis hands back the chat lease) and all of them before the database closes.
        for (const fn of closers.reverse()) {
          try {
            await fn();
          } catch (error) {
            log.warn("error while closing", { error });
          }
        }
        await storage.close();
      })();
      return closing;
    },
    onClose(fn) {
      closers.push(fn);
    },
  };
}
