import { writeAlertState } from "../../db/alerts.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import type { ChatState } from "../../db/schema-enums.ts";
import { ConnectionStates } from "../live/connection-states.ts";
import type {
  LiveFeed,
  LiveSubscription,
  NotificationFrame,
  RevocationFrame,
  SubscribeOutcome,
} from "../live/feed.ts";
import type { LiveSessions } from "../live/sessions.ts";
import type { AlertsContext } from "./context.ts";
import { AlertFloodGuard } from "./flood.ts";
import { ALERT_TYPES, type AlertType } from "./model.ts";
import { type AlertTypeStatus, missingScopeReason, scopeGranted } from "./status.ts";
import { ALERT_SUBSCRIPTIONS, type AlertSubscription } from "./types.ts";

export type AlertNotification = NotificationFrame;

/** One streamer's alerts as the running manager holds them: a feed on the streamer's live session. */
export interface AlertChannel {
  accountId: number;
  broadcasterId: string;
  state: ChatState;
  since: number;
  reason: string | null;
  /** Each alert type's subscription. */
  types: Map<AlertType, Omit<AlertTypeStatus, "type">>;
  /** The scopes granted when the feed subscribed (a new grant opens it afresh). */
  granted: readonly string[];
  /** Notifications are delivered one at a time, in the order they arrived (ids then rise in order). */
  delivering: Promise<void>;
  /** Repeat follows and thanks lines held back in a flood. */
  flood: AlertFloodGuard;
  /** The channel's feed on the streamer's live session (live/sessions.ts), shared with their chat. */
  feed: LiveFeed;
}

export interface AlertReadersOptions {
  onNotification(channel: AlertChannel, frame: AlertNotification): void;
}

const ALL_REFUSED = "cuebot needs your permission to receive alerts: allow it again.";

/** The alert type an EventSub subscription type stands for (undefined: the live state's). */
const TYPE_OF = new Map<string, AlertType>(ALERT_TYPES.map((t) => [ALERT_SUBSCRIPTIONS[t].type, t]));

/** Every subscription type an alerts feed receives. */
const FEED_TYPES = ALERT_TYPES.map((t) => ALERT_SUBSCRIPTIONS[t].type);

/**
 * Receiving alerts: for each streamer with alerts on, a feed on the streamer's live session (the
 * same socket as their chat when they speak as themselves, live/sessions.ts), subscribed after every
 * welcome to each alert type whose scope was granted (the stream's online/offline is the live
 * layer's, live/stream-state.ts). A type Twitch
 * refuses (403) or revokes is `needs_consent` and the others keep working; the account's state is
 * that of native chat. States are stored in the order they happened.
 */
export class AlertReaders extends ConnectionStates {
  constructor(
    ctx: Pick<AlertsContext, "db" | "log" | "clock">,
    private readonly live: LiveSessions,
    private readonly options: AlertReadersOptions,
  ) {
    super(ctx, { name: "alerts", write: writeAlertState });
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
      delivering: Promise.resolve(),
      flood: new AlertFloodGuard(),
      feed: {
        holder: { accountId, speaker: { kind: "streamer", userId: broadcasterId } },
        broadcasterId,
        types: FEED_TYPES,
        wanted: () => this.#wanted(channel),
        subscribed: (outcomes) => this.#subscribed(channel, outcomes),
        notification: (frame) => this.options.onNotification(channel, frame),
        revoked: (frame) => this.#revoked(channel, frame),
        down: (reason, willRetry) => {
          if (channel.state === "needs_consent") return;
          this.setState(channel, willRetry ? "connecting" : "error", willRetry ? null : reason);
        },
      },
    };
    this.setState(channel, "connecting");
    this.live.join(channel.feed).catch((error: unknown) => {
      this.setState(channel, "error", `Subscribing to alerts failed: ${(error as Error).message}`);
    });
    return channel;
  }

  /** Whether the channel's feed is read now (not let go, its session not stopped). */
  running(channel: AlertChannel): boolean {
    return this.live.joined(channel.feed);
  }

  /** The channel's feed is read no more (alerts off, or opened afresh). */
  remove(channel: AlertChannel): void {
    this.live.leave(channel.feed);
  }

  /** What to subscribe on a new session: each type whose scope is granted (the others need consent). */
  async #wanted(channel: AlertChannel): Promise<LiveSubscription[]> {
    const granted = await grantedScopes(this.ctx.db, channel.accountId);
    channel.granted = granted;
    const wanted: LiveSubscription[] = [];
    for (const type of ALERT_TYPES) {
      const subscription = ALERT_SUBSCRIPTIONS[type];
      if (scopeGranted(subscription, granted)) wanted.push(this.#subscription(channel, subscription));
      else
        channel.types.set(type, {
          state: "needs_consent",
          reason: missingScopeReason(subscription.scope as string),
        });
    }
    return wanted;
  }

  #subscription(channel: AlertChannel, sub: AlertSubscription): LiveSubscription {
    return { type: sub.type, version: sub.version, condition: sub.condition(channel.broadcasterId) };
  }

  /**
   * Each type's outcome: connected, or refused (that type alone needs consent). A grant gone lets the
   * feed go.
   */
  #subscribed(channel: AlertChannel, outcomes: readonly SubscribeOutcome[]): boolean {
    const gone = outcomes.find((o) => o.state === "gone");
    if (gone?.state === "gone") {
      this.setState(channel, "needs_consent", gone.reason ?? ALL_REFUSED);
      return false;
    }
    for (const { subscription, state } of outcomes) {
      const type = TYPE_OF.get(subscription.type);
      if (!type) continue;
      channel.types.set(
        type,
        state === "connected"
          ? { state, reason: null }
          : {
              state: "needs_consent",
              reason: `Twitch refused this alert (${subscription.type}): allow cuebot again.`,
            },
      );
    }
    return this.#settleAccountState(channel);
  }

  /**
   * Subscribes again, on the running session, each type Twitch refused or revoked although its scope
   * is granted (the streamer allowed cuebot again): a type that works now is connected again.
   */
  async resubscribeRefused(channel: AlertChannel): Promise<void> {
    if (!this.live.joined(channel.feed)) return;
    const granted = await grantedScopes(this.ctx.db, channel.accountId);
    const refused = ALERT_TYPES.filter((type) => {
      const status = channel.types.get(type);
      const failed = status?.state === "needs_consent" || status?.state === "error";
      return failed && scopeGranted(ALERT_SUBSCRIPTIONS[type], granted);
    });
    if (refused.length === 0) return;
    channel.granted = granted;
    const wanted = refused.map((type) => this.#subscription(channel, ALERT_SUBSCRIPTIONS[type]));
    const outcomes = await this.live.subscribe(channel.feed, wanted);
    if (outcomes && !this.#subscribed(channel, outcomes)) this.live.leave(channel.feed);
  }

  /** Connected while any type is; needs_consent when Twitch lets cuebot receive none. True: connected. */
  #settleAccountState(channel: AlertChannel): boolean {
    const states = [...channel.types.values()];
    if (states.some((t) => t.state === "connected")) this.setState(channel, "connected");
    else this.setState(channel, "needs_consent", states[0]?.reason ?? ALL_REFUSED);
    return channel.state !== "needs_consent";
  }

  /** One type revoked needs consent alone; with nothing left to receive, the feed is let go. */
  #revoked(channel: AlertChannel, frame: RevocationFrame): boolean {
    const type = TYPE_OF.get(frame.subscriptionType);
    this.ctx.log.info("Twitch revoked an alerts subscription", {
      accountId: channel.accountId,
      type: frame.subscriptionType,
      status: frame.status,
    });
    if (!type) return true;
    channel.types.set(type, {
      state: "needs_consent",
      reason: `Twitch revoked this alert's subscription (${frame.status}): allow cuebot again.`,
    });
    return this.#settleAccountState(channel);
  }
}
