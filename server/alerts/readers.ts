import { writeAlertState } from "../../db/alerts.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import type { ChatState } from "../../db/schema-enums.ts";
import { SeenMessages } from "../chat/dedupe.ts";
import { EventSubConnection, StopConnection } from "../chat/eventsub-connection.ts";
import type { EventSubFrame } from "../chat/eventsub-message.ts";
import { AuthGone, type SpeakerTokens } from "../chat/speaker-tokens.ts";
import type { Context } from "../runtime.ts";
import { HelixError } from "../twitch/helix-client.ts";
import { AlertFloodGuard } from "./flood.ts";
import { ALERT_TYPES, type AlertType } from "./model.ts";
import { type AlertTypeStatus, type LiveState, missingScopeReason, scopeGranted } from "./status.ts";
import { ALERT_SUBSCRIPTIONS, type AlertSubscription, STREAM_SUBSCRIPTIONS } from "./types.ts";

export type AlertNotification = Extract<EventSubFrame, { type: "notification" }>;
type Revocation = Extract<EventSubFrame, { type: "revocation" }>;

/** One streamer's alerts as the running manager holds them: their own EventSub socket. */
export interface AlertChannel {
  accountId: number;
  broadcasterId: string;
  state: ChatState;
  since: number;
  reason: string | null;
  /** Each alert type's subscription. */
  types: Map<AlertType, Omit<AlertTypeStatus, "type">>;
  /** The scopes granted when the socket subscribed (a new grant opens it afresh). */
  granted: readonly string[];
  /** The live state heard on this socket; forgotten when it drops or starts a new session. */
  live: LiveState | null;
  /** Notifications are delivered one at a time, in the order they arrived (ids then rise in order). */
  delivering: Promise<void>;
  /** Repeat follows and thanks lines held back in a flood. */
  flood: AlertFloodGuard;
  /** EventSub message ids already handled (Twitch delivers at least once). */
  seen: SeenMessages;
  connection: EventSubConnection;
}

export interface AlertReadersOptions {
  onNotification(channel: AlertChannel, frame: AlertNotification): void;
  /** One protocol "second" in ms (tests shorten it). */
  secondMs?: number;
}

const ALL_REFUSED = "cuebot needs your permission to receive alerts: allow it again.";

/**
 * Receiving alerts: for each streamer with alerts on, one EventSub WebSocket with the streamer's own
 * token (chat/eventsub-connection.ts), subscribed after every welcome to each alert type whose scope
 * was granted plus stream.online/offline. A type Twitch refuses (403) or revokes is `needs_consent`
 * and the others keep working; the account's state is that of native chat. States are stored in the
 * order they happened.
 */
export class AlertReaders {
  #writes: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(
    private readonly ctx: Context,
    private readonly tokens: SpeakerTokens,
    private readonly options: AlertReadersOptions,
  ) {}

  /** Settles once every state reported so far is stored (or failed to be). */
  get writes(): Promise<void> {
    return this.#writes;
  }

  /** Nothing more is reported (another instance may hold alerts now). */
  close(): void {
    this.#closed = true;
  }

  /** Stores an account's state after those reported before it. */
  store(accountId: number, state: ChatState, reason: string | null, at: number): void {
    this.#writes = this.#writes
      .then(() => writeAlertState(this.ctx.db, accountId, state, reason, at))
      .catch((error: unknown) => this.ctx.log.warn("could not store the alerts state", { error }));
  }

  /** A new channel for the account, connecting now. */
  open(accountId: number, broadcasterId: string, granted: readonly string[]): AlertChannel {
    const { ctx } = this;
    const channel: AlertChannel = {
      accountId,
      broadcasterId,
      state: "off",
      since: ctx.clock.now(),
      reason: null,
      types: new Map(ALERT_TYPES.map((t) => [t, { state: "connecting", reason: null }])),
      granted,
      live: null,
      delivering: Promise.resolve(),
      flood: new AlertFloodGuard(),
      seen: new SeenMessages(() => ctx.clock.now()),
      connection: new EventSubConnection({
        url: ctx.config.twitch.eventsubUrl,
        secondMs: this.options.secondMs,
        log: ctx.log,
        handlers: {
          onWelcome: (sessionId) => this.#subscribeAll(channel, sessionId),
          onFrame: (frame) => {
            if (frame.type === "revocation") this.#revoked(channel, frame);
            else this.options.onNotification(channel, frame);
          },
          onDown: (reason, willRetry) => {
            // A stream.offline may be missed while the socket is down: the live state is not known now.
            channel.live = null;
            if (channel.state === "needs_consent") return;
            this.setState(channel, willRetry ? "connecting" : "error", willRetry ? null : reason);
          },
        },
      }),
    };
    this.setState(channel, "connecting");
    channel.connection.start();
    return channel;
  }

  /** The channel's state changes (only when it differs), is stored and logged. */
  setState(channel: AlertChannel, state: ChatState, reason: string | null = null): void {
    if (this.#closed || (channel.state === state && channel.reason === reason)) return;
    channel.state = state;
    channel.reason = reason;
    channel.since = this.ctx.clock.now();
    this.store(channel.accountId, state, reason, channel.since);
    this.ctx.log.info("alerts state changed", {
      accountId: channel.accountId,
      state,
      ...(reason ? { reason } : {}),
    });
  }

  async #subscribeAll(channel: AlertChannel, sessionId: string): Promise<void> {
    // A new session (not a handover) may follow a gap in which the stream started or ended.
    channel.live = null;
    const granted = await grantedScopes(this.ctx.db, channel.accountId);
    channel.granted = granted;
    try {
      await Promise.all([
        ...ALERT_TYPES.map((type) => this.#subscribeType(channel, sessionId, type, granted)),
        ...STREAM_SUBSCRIPTIONS.map((sub) => this.#subscribeStream(channel, sessionId, sub)),
      ]);
    } catch (error) {
      const gone = error instanceof AuthGone ? error.message : authRefused(error) ? ALL_REFUSED : null;
      if (gone === null) throw error;
      this.setState(channel, "needs_consent", gone);
      throw new StopConnection(gone);
    }
    this.#settleAccountState(channel);
    if (channel.state === "needs_consent") throw new StopConnection(channel.reason ?? ALL_REFUSED);
  }

  /**
   * Subscribes again, on the running session, each type Twitch refused or revoked although its scope
   * is granted (the streamer allowed cuebot again): a type that works now is connected again.
   */
  async resubscribeRefused(channel: AlertChannel): Promise<void> {
    const sessionId = channel.connection.sessionId;
    if (sessionId === null) return;
    const granted = await grantedScopes(this.ctx.db, channel.accountId);
    const refused = ALERT_TYPES.filter((type) => {
      const status = channel.types.get(type);
      const failed = status?.state === "needs_consent" || status?.state === "error";
      return failed && scopeGranted(ALERT_SUBSCRIPTIONS[type], granted);
    });
    if (refused.length === 0) return;
    channel.granted = granted;
    await Promise.all(refused.map((type) => this.#subscribeType(channel, sessionId, type, granted)));
    if (channel.connection.sessionId === sessionId) this.#settleAccountState(channel);
  }

  async #subscribeType(
    channel: AlertChannel,
    sessionId: string,
    type: AlertType,
    granted: readonly string[],
  ): Promise<void> {
    const subscription = ALERT_SUBSCRIPTIONS[type];
    if (!scopeGranted(subscription, granted)) {
      channel.types.set(type, {
        state: "needs_consent",
        reason: missingScopeReason(subscription.scope as string),
      });
      return;
    }
    try {
      await this.#create(channel, sessionId, subscription);
      channel.types.set(type, { state: "connected", reason: null });
    } catch (error) {
      if (!(error instanceof HelixError) || error.status !== 403) throw error;
      channel.types.set(type, {
        state: "needs_consent",
        reason: `Twitch refused this alert (${subscription.type}): allow cuebot again.`,
      });
    }
  }

  /** stream.online/offline: a refusal only means the live state is not heard (timers ask Helix). */
  async #subscribeStream(channel: AlertChannel, sessionId: string, sub: AlertSubscription): Promise<void> {
    try {
      await this.#create(channel, sessionId, sub);
    } catch (error) {
      if (!(error instanceof HelixError) || error.status !== 403) throw error;
      this.ctx.log.info("Twitch refused a live-state subscription", {
        accountId: channel.accountId,
        type: sub.type,
      });
    }
  }

  /**
   * Creates one subscription. An existing one (409) is as good when it is on this session; one held by
   * another session (an earlier socket of this streamer, reference twitch-chat.md §2.2) would keep the
   * events from this socket: it is deleted and the subscription created again here.
   */
  async #create(channel: AlertChannel, sessionId: string, sub: AlertSubscription): Promise<void> {
    const helix = this.ctx.helixApi;
    if (!helix) throw new AuthGone("Twitch is not configured on this server.");
    const holder = {
      accountId: channel.accountId,
      speaker: { kind: "streamer" as const, userId: channel.broadcasterId },
    };
    const wanted = { type: sub.type, version: sub.version, condition: sub.condition(channel.broadcasterId) };
    const create = () =>
      this.tokens.withToken(holder, (token) => helix.subscribeEventSub(token, sessionId, wanted));
    try {
      await create();
    } catch (error) {
      if (!(error instanceof HelixError) || error.status !== 409) throw error;
      const moved = await this.tokens.withToken(holder, async (token) => {
        const existing = (await helix.eventSubSubscriptions(token, sub.type)).filter(
          (s) => s.status === "enabled" && sameCondition(s.condition, wanted.condition),
        );
        if (existing.some((s) => s.transport.session_id === sessionId)) return false;
        for (const other of existing) await helix.deleteEventSub(token, other.id);
        return existing.length > 0;
      });
      if (moved) await create();
    }
  }

  /** Connected while any type is; needs_consent when Twitch lets cuebot receive none. */
  #settleAccountState(channel: AlertChannel): void {
    const states = [...channel.types.values()];
    if (states.some((t) => t.state === "connected")) this.setState(channel, "connected");
    else this.setState(channel, "needs_consent", states[0]?.reason ?? ALL_REFUSED);
  }

  #revoked(channel: AlertChannel, frame: Revocation): void {
    const type = ALERT_TYPES.find((t) => ALERT_SUBSCRIPTIONS[t].type === frame.subscriptionType);
    this.ctx.log.info("Twitch revoked an alerts subscription", {
      accountId: channel.accountId,
      type: frame.subscriptionType,
      status: frame.status,
    });
    if (!type) return;
    channel.types.set(type, {
      state: "needs_consent",
      reason: `Twitch revoked this alert's subscription (${frame.status}): allow cuebot again.`,
    });
    this.#settleAccountState(channel);
    // Nothing left to receive: the socket closes, as when every type is refused on subscribing.
    if (channel.state === "needs_consent") channel.connection.stop();
  }
}

/** A 401 that a fresh token did not cure: the grant is gone. */
function authRefused(error: unknown): boolean {
  return error instanceof HelixError && error.status === 401;
}

/** Whether a listed subscription's condition is the one cuebot asks for (every key of it, same value). */
function sameCondition(listed: Record<string, string> | undefined, wanted: Record<string, string>): boolean {
  return Object.entries(wanted).every(([key, value]) => listed?.[key] === value);
}
