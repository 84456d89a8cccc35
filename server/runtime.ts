import { loadOverlayState } from "../db/overlay.ts";
import { ActionsHandle } from "./actions/handle.ts";
import { AlertsHandle } from "./alerts/status.ts";
import type { Random } from "./bot/chance.ts";
import { CommandCooldowns, type Cooldowns } from "./bot/cooldowns.ts";
import { ReadCache } from "./cache/read-cache.ts";
import { RoleCaches } from "./cache/role-cache.ts";
import type { DemoChat } from "./chat/demo-chat.ts";
import { ChatHandle } from "./chat/status.ts";
import type { Clock } from "./core/clock.ts";
import { type Config, publicUrlFor } from "./core/config.ts";
import { type CoreContext, createCore, openCore } from "./core/context.ts";
import type { Logger } from "./core/log.ts";
import { ChatBotCache } from "./custom/cache.ts";
import { ChatLines } from "./custom/chat-lines.ts";
import { createGameService, type GameService, type GameServiceOptions } from "./game/service.ts";
import type { IdentityProviderClient } from "./identity/idp-client.ts";
import { SetupLink } from "./identity/setup.ts";
import { TwitchApp } from "./identity/twitch-app.ts";
import { createRateLimits, type RateLimits } from "./limits/rate-limits.ts";
import { LiveHandle } from "./live/handle.ts";
import { MemoryModerationBook, type ModerationBook } from "./moderation/book.ts";
import { ModerationHandle } from "./moderation/context.ts";
import { ObsHandle } from "./obs/context.ts";
import type { DemoObs } from "./obs/demo-program.ts";
import { ObsRelay } from "./obs/relay.ts";
import { recentOverlayAlerts } from "./overlay/alert-catch-up.ts";
import { AlertHub } from "./overlay/alert-hub.ts";
import { OverlayHub } from "./overlay/hub.ts";
import { RedisActionRelay } from "./redis/action-relay.ts";
import { RedisCooldowns } from "./redis/cooldowns.ts";
import { sharedGameOn } from "./redis/game-cache.ts";
import { createSharedRateLimits } from "./redis/limits/rate-limits.ts";
import { RedisModerationBook } from "./redis/moderation-book.ts";
import type { SharedStores } from "./redis/shared-stores.ts";
import type { HelixApi } from "./twitch/helix-api.ts";
import type { HelixClient } from "./twitch/helix-client.ts";

/**
 * Where users reach this server: the configured public URL, else http://localhost:<port>. With port 0
 * the port is known once the server listens, and listen.ts says which (before any request is
 * read); nothing else changes it.
 */
export class PublicAddress {
  #url: string;

  constructor(private readonly config: Config) {
    this.#url = publicUrlFor(config, config.port);
  }

  get url(): string {
    return this.#url;
  }

  /** The server listens on `port` (server/listen.ts). */
  listeningOn(port: number): void {
    this.#url = publicUrlFor(this.config, port);
  }
}

/**
 * The server's runtime on top of the core (core/context.ts): limits, caches, clients, overlays, chat.
 * Every field is set when it is built (createContext, openContext) and never replaced; the pieces that
 * start later (chat, listening, the setup page) change state inside the objects they own (ChatHandle,
 * PublicAddress, TwitchApp).
 */
export interface Context extends Readonly<CoreContext> {
  /** Per-account quotas, per-IP limits, failed-authentication counting and client addresses. */
  readonly limits: RateLimits;
  /** Role-aware caches of upstream answers; flushed when the CLI changes something. */
  readonly caches: RoleCaches;
  /** The Twitch application and the owner: from the config, or from the setup page while running. */
  readonly twitchApp: TwitchApp;
  /** `twitchApp.identityProvider`: the OAuth client, or null when no provider credentials are configured. */
  readonly identityProvider: IdentityProviderClient | null;
  /** `twitchApp.helix`: the Helix client (it needs the application's Client-Id), or null without one. */
  readonly helix: HelixClient | null;
  /** `twitchApp.helixApi`: typed Helix calls for features, over `helix`. */
  readonly helixApi: HelixApi | null;
  /** `twitchApp.owner`: the install owner's login, created as Partner (CONTRACT §4). */
  readonly owner: string | null;
  /**
   * The one-time setup link's token while Twitch is not configured (identity/setup.ts); null in the
   * demo and when Twitch was configured at start.
   */
  readonly setupLink: SetupLink | null;
  /** Live overlay connections, told about every publish. */
  readonly overlays: OverlayHub;
  /** Live alert streams of the overlays, told about every alert (server/overlay/alert-hub.ts). */
  readonly alerts: AlertHub;
  /** Command settings read on every bot request, from memory (cleared by every write). */
  readonly settingsCache: ReadCache<object>;
  /** Per-channel chat-command cooldowns (in Redis when instances share it). */
  readonly cooldowns: Cooldowns;
  /**
   * Each channel's custom commands and regulars, read on every chat line, from memory: whoever writes
   * them (custom/service.ts, the dashboard's routes) calls `clear()`; other processes' writes clear it
   * through the change feed.
   */
  readonly chatBot: ChatBotCache;
  /** Chat lines seen per channel (custom/chat-lines.ts): chat/dispatch.ts notes them, timers read them. */
  readonly chatLines: ChatLines;
  /** The source of chance for dice, coins, the magic 8-ball and roulette (seeded in tests). */
  readonly random: Random;
  /** Game-statistics provider client with its caches and per-minute budget. */
  readonly game: GameService;
  /**
   * Native chat: live once `serve` starts it (chat/manager.ts) or while this instance holds the chat
   * lease (chat/leader.ts); otherwise, and outside `serve`, the stored state only.
   */
  readonly chat: ChatHandle;
  /**
   * Stream alerts' connections (alerts/manager.ts), live where native chat runs (started beside it),
   * else the stored state.
   */
  readonly alertsStatus: AlertsHandle;
  /** Chat moderation's live runtime where native chat runs (moderation/live.ts), told of changes. */
  readonly moderation: ModerationHandle;
  /** What moderation remembers of chatters: offences, permits, warnings (in Redis when instances share it). */
  readonly moderationBook: ModerationBook;
  /** The accounts' OBS connections where the live layer runs (obs/live.ts), told of changes. */
  readonly obs: ObsHandle;
  /**
   * Actions (actions/handle.ts): their runs (one at a time each, then the cooldown), on the instance
   * holding the live layer (a run asked elsewhere goes there); told of writes.
   */
  readonly actions: ActionsHandle;
  /**
   * The live layer (live/handle.ts): whether a channel is live as heard over EventSub, where native
   * chat runs; nothing elsewhere.
   */
  readonly live: LiveHandle;
  /** `serve --demo` only: the simulated chat the dashboard's demo panel types into. */
  readonly demoChat: DemoChat | null;
  /** `serve --demo` only: the simulated OBS the demo account connects to, its program shown in the dashboard. */
  readonly demoObs: DemoObs | null;
  /** Redis shared with other instances (`--redis-url`), or null: everything in this process. */
  readonly shared: SharedStores | null;
  /** Where users reach this server; listen.ts tells it the port it got. */
  readonly publicAddress: PublicAddress;
  /** `publicAddress.url`: the public URL, with the real port once the server listens. */
  readonly publicUrl: string;
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
  /** `serve --demo`: the simulated chat (server/demo.ts). */
  demoChat?: DemoChat;
  /** `serve --demo`: the simulated OBS (server/demo.ts). */
  demoObs?: DemoObs;
  /** Tests only: the game provider client's options (a shorter timeout). */
  game?: GameServiceOptions;
}

/**
 * Builds everything a request handler needs from one validated config, on the embedded database.
 * Nothing in cuebot is a module-level singleton: tests build a fresh context each.
 */
export function createContext(config: Config, options: ContextOptions = {}): Context {
  const core = createCore(config, coreOptions(options));
  try {
    return assembleRuntime(core, options);
  } catch (error) {
    void core.close();
    throw error;
  }
}

/** The context on whichever database the config names: PostgreSQL with `--database-url`, else embedded. */
export async function openContext(config: Config, options: ContextOptions = {}): Promise<Context> {
  const core = await openCore(config, coreOptions(options));
  try {
    return assembleRuntime(core, options);
  } catch (error) {
    await core.close();
    throw error;
  }
}

function coreOptions(options: ContextOptions) {
  // Serving: PostgreSQL lets several instances share it, but without Redis each would keep its own
  // quotas and cooldowns, breaking the promise that a key's quota holds wherever its requests land.
  // So an instance without Redis serves a database alone, and those with Redis only beside each other.
  return {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.serving ? { serving: { withRedis: options.shared !== undefined } } : {}),
  };
}

/** The limits in this process, or with `--redis-url` in Redis, shared by every instance. */
function rateLimitsFor(core: CoreContext, options: ContextOptions): RateLimits {
  const limitOptions = {
    clock: core.clock,
    log: core.log,
    trustProxy: core.config.trustProxy,
    testAddressHeader: options.testClientAddressHeader,
  };
  return options.shared
    ? createSharedRateLimits(options.shared.store, limitOptions)
    : createRateLimits(limitOptions);
}

function assembleRuntime(core: CoreContext, options: ContextOptions): Context {
  const { config, clock, log, db: store, externalChanges } = core;
  const twitchApp = new TwitchApp(config, () => clock.now());
  const caches = new RoleCaches({ clock });
  externalChanges.subscribe(() => caches.flush());
  const settingsCache = new ReadCache<object>();
  externalChanges.subscribe(() => settingsCache.clear());
  const chatBot = new ChatBotCache(store);
  externalChanges.subscribe(() => chatBot.clear());
  const shared = options.shared;
  const publicAddress = new PublicAddress(config);
  const relay = new ObsRelay(core, shared?.obsRelayBus ?? null);
  // At shutdown the steps still waiting for a page end at once, rather than at their 10 s timers.
  core.onClose(() => relay.close());
  const obs = new ObsHandle(relay);
  const ctx: Context = {
    ...core,
    limits: rateLimitsFor(core, options),
    caches,
    twitchApp,
    get identityProvider() {
      return twitchApp.identityProvider;
    },
    get helix() {
      return twitchApp.helix;
    },
    get helixApi() {
      return twitchApp.helixApi;
    },
    get owner() {
      return twitchApp.owner;
    },
    setupLink: twitchApp.configured || config.demo ? null : new SetupLink(),
    settingsCache,
    chatBot,
    chatLines: new ChatLines(),
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
    alerts: new AlertHub(
      shared
        ? {
            bus: shared.alertBus,
            recent: (accountId) => recentOverlayAlerts(store, accountId, 0, clock.now()),
            onBusError: (error) =>
              log.warn("an alert reached only this instance's overlays: Redis is away", { error }),
          }
        : {},
    ),
    shared: shared ?? null,
    random: options.random ?? Math.random,
    game: createGameService(
      {
        config,
        clock,
        log,
        ...(shared ? { sharedGame: sharedGameOn(shared.store) } : {}),
      },
      options.game,
    ),
    chat: new ChatHandle({ db: store, secrets: core.secrets, accounts: core.accounts }),
    alertsStatus: new AlertsHandle({ db: store }),
    moderation: new ModerationHandle(),
    obs,
    actions: new ActionsHandle(
      { db: store, clock, log, obs },
      shared
        ? new RedisActionRelay(shared.redis, shared.subscriber, {
            keyPrefix: shared.keyPrefix,
            timeoutMs: shared.timeoutMs,
          })
        : null,
    ),
    moderationBook: shared ? new RedisModerationBook(shared.store) : new MemoryModerationBook(),
    live: new LiveHandle(),
    demoChat: options.demoChat ?? null,
    demoObs: options.demoObs ?? null,
    publicAddress,
    get publicUrl() {
      return publicAddress.url;
    },
  };
  return ctx;
}
