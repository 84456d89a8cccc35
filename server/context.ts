import { join } from "node:path";
import {
  cacheChangesReader,
  type DatabaseHandle,
  dataVersionReader,
  openDatabase,
  walCommitSignal,
} from "../db/client.ts";
import { type EventSink, WriteBehindEventSink } from "../db/event-sink.ts";
import { migrate, type SchemaStatus } from "../db/migrate.ts";
import { loadOverlayState } from "../db/overlay.ts";
import { type DataStore, SqliteStore } from "../db/store.ts";
import type { Random } from "./bot/chance.ts";
import { CommandCooldowns, type Cooldowns, RedisCooldowns } from "./bot/cooldowns.ts";
import { ReadCache } from "./cache/read-cache.ts";
import { RoleCaches } from "./cache/role-cache.ts";
import type { DemoChat } from "./chat/demo-chat.ts";
import { type ChatRuntime, storedChatRuntime } from "./chat/runtime.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import { DATABASE_FILE } from "./data-dir.ts";
import { createGameService, type GameService } from "./game/service.ts";
import { AccountDirectory } from "./identity/directory.ts";
import { IdentityProviderClient } from "./identity/idp-client.ts";
import { loadOrCreateSecretKey, SecretBox } from "./identity/secrets.ts";
import { createRateLimits, type RateLimits } from "./limits/rate-limits.ts";
import { createLogger, type Logger } from "./log.ts";
import { OverlayHub } from "./overlay/hub.ts";
import type { SharedStores } from "./shared-stores.ts";
import { HelixApi, HelixClient } from "./twitch/helix-client.ts";

/**
 * Tells in-memory caches that another process (the CLI, another instance) changed what they hold, so
 * a role change or key rotation takes effect on the very next request (CONTRACT §3). Every request
 * checks first (app.ts), and an idle timer checks for work no request triggers (listen.ts). The check
 * reads the WAL-index header from the shared `-shm` mapping (a few nanoseconds) and asks SQLite's
 * data_version (~2 µs through a held statement) only when some connection committed since;
 * data_version moves only on other connections' commits, so our own writes never raise a false
 * alarm. Then the cache-changes counter (bumped by triggers on the cached tables only) says whether
 * the commit touched anything cached: another instance's analytics events flush nothing. (This
 * server's own writes to cached tables move the counter too, so the next outside commit after one
 * may flush once more than needed; those writes are rare and flushing is always safe.)
 */
export class ExternalChanges {
  readonly #listeners = new Set<() => void>();
  readonly #read: () => number;
  readonly #readChanges: () => number;
  /** Whether anyone committed since the last look (the WAL-index header moved); null: always ask. */
  readonly #committed: (() => boolean) | null;
  #version: number;
  #changes: number;

  constructor(database: DatabaseHandle) {
    this.#read = dataVersionReader(database.sqlite);
    this.#readChanges = cacheChangesReader(database.sqlite);
    this.#version = this.#read();
    this.#changes = this.#readChanges();
    this.#committed = walCommitSignal(database.path);
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Returns true when something changed since the last check (and notifies subscribers). */
  check(): boolean {
    // No commit by anyone since the last look: nothing can have changed (the common case, ~10 ns).
    if (this.#committed && !this.#committed()) return false;
    const version = this.#read();
    if (version === this.#version) return false;
    this.#version = version;
    const changes = this.#readChanges();
    if (changes === this.#changes) return false;
    this.#changes = changes;
    for (const listener of this.#listeners) listener();
    return true;
  }
}

export interface Context {
  config: Config;
  database: DatabaseHandle;
  /** The database's tables, through the query code in `db/`. */
  db: DataStore;
  secrets: SecretBox;
  clock: Clock;
  log: Logger;
  schema: SchemaStatus;
  externalChanges: ExternalChanges;
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
  /** Closes what the context opened, in reverse order; safe to call twice. */
  close(): void;
  /** Registers something to close with the context. */
  onClose(fn: () => void): void;
}

export interface ContextOptions {
  clock?: Clock;
  random?: Random;
  log?: Logger;
  /** Tests only: header naming the client address when there is no socket (`app.handle`). */
  testClientAddressHeader?: string;
  /** Redis (`serve --redis-url`): limits and overlay publishes shared with every other instance. */
  shared?: SharedStores;
}

/**
 * Builds everything a request handler or CLI command needs from one validated config. Nothing in
 * cuebot is a module-level singleton: tests build a fresh context each.
 */
export function createContext(config: Config, options: ContextOptions = {}): Context {
  const log = options.log ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const database = openDatabase(join(config.dataDir, DATABASE_FILE));
  const closers: (() => void)[] = [];
  try {
    const schema = migrate(database.sqlite);
    const { key } = loadOrCreateSecretKey(config.dataDir);
    const clock = options.clock ?? systemClock;
    const externalChanges = new ExternalChanges(database);
    const store = new SqliteStore(database.sqlite, database.db);
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
    const events = new WriteBehindEventSink(database.sqlite, store, {
      onDropped: (count, error) => log.warn("command events could not be stored", { count, error }),
    });
    let closed = false;
    const secrets = new SecretBox(key);
    const shared = options.shared;
    return {
      config,
      database,
      db: store,
      secrets,
      clock,
      log,
      schema,
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
        if (closed) return;
        closed = true;
        for (const fn of closers.reverse()) {
          try {
            fn();
          } catch (error) {
            log.warn("error while closing", { error });
          }
        }
        void events.flush();
        database.close();
      },
      onClose(fn) {
        closers.push(fn);
      },
    };
  } catch (error) {
    database.close();
    throw error;
  }
}
