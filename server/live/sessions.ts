import { HelixError } from "../twitch/helix-client.ts";
import type { LiveContext } from "./context.ts";
import { EventSubConnection, StopConnection } from "./eventsub-connection.ts";
import type { LiveFeed, LiveSubscription, SubscribeOutcome } from "./feed.ts";
import { FeedRoutes } from "./feed-routes.ts";
import { AuthGone, SpeakerTokens } from "./speaker-tokens.ts";
import { StreamStates } from "./stream-state.ts";

/** One Twitch user's EventSub session and the feeds of every feature read on it. */
interface Session {
  userId: string;
  connection: EventSubConnection;
  routes: FeedRoutes;
  /** The subscriptions each feed created on the current session (deleted when it leaves one that stays). */
  created: Map<LiveFeed, string[]>;
  /** Deletions under way: a subscription is created after them (a feed leaving and joining again). */
  deleting: Promise<void>;
  /** Per channel whose owner reads on this session (their own), the feed of its live state. */
  streamFeeds: Map<string, LiveFeed>;
}

export interface LiveSessionsOptions {
  /** One protocol "second" in ms (tests shorten it along with the simulator's). */
  secondMs?: number;
}

/**
 * Everything Twitch pushes, over one EventSub WebSocket per Twitch user whose token reads (CONTRACT §6
 * "One live connection per Twitch user"; Twitch allows three per user and 300 subscriptions per
 * session): a feature joins a feed per channel (live/feed.ts) and the session its reading user has,
 * shared with every other feature's, subscribes what the feed wants after each welcome (not after a
 * handover, which keeps them) and routes each notification to the feeds of its type and channel
 * (live/feed-routes.ts). A session with no feed left closes.
 */
export class LiveSessions {
  readonly #sessions = new Map<string, Session>();
  #closed = false;
  /** The reading users' tokens, held and refreshed for every feature (chat's sends use them too). */
  readonly tokens: SpeakerTokens;
  /** Whether each channel is live, for every feature (live/stream-state.ts). */
  readonly streams: StreamStates;

  constructor(
    private readonly ctx: LiveContext,
    private readonly options: LiveSessionsOptions = {},
  ) {
    this.tokens = new SpeakerTokens(ctx);
    this.streams = new StreamStates(
      () => ctx.clock.now(),
      (accountId, state) => ctx.live.hooks.streamChanged.emit(accountId, state),
    );
  }

  /**
   * Reads the feed on its user's session: subscribes now when the session is welcomed (settles once
   * done; rejects when subscribing failed otherwise than by a refusal), or when it is.
   */
  async join(feed: LiveFeed): Promise<void> {
    if (this.#closed) return;
    const session = this.#sessionFor(feed.holder.speaker.userId);
    session.routes.add(feed);
    this.#hearStream(session, feed);
    const sessionId = session.connection.sessionId;
    if (sessionId) await this.#subscribeFeed(session, feed, sessionId);
    else session.connection.start();
  }

  /** Whether the feed is read on a session now (not let go, its session not stopped). */
  joined(feed: LiveFeed): boolean {
    return this.#sessions.get(feed.holder.speaker.userId)?.routes.feeds.has(feed) ?? false;
  }

  /** Stops reading the feed: its subscriptions are deleted, or its session closes when it was the last. */
  leave(feed: LiveFeed): void {
    const { userId } = feed.holder.speaker;
    const session = this.#sessions.get(userId);
    if (!session?.routes.feeds.has(feed)) return;
    const left = [feed];
    const stream = session.streamFeeds.get(feed.broadcasterId);
    if (stream && stream !== feed && !ownerReads(session, feed.broadcasterId, [feed, stream])) {
      session.streamFeeds.delete(feed.broadcasterId);
      this.streams.forget(stream.holder.accountId);
      left.push(stream);
    }
    const created = left.map((f) => ({ feed: f, ids: session.created.get(f) ?? [] }));
    for (const f of left) {
      session.routes.remove(f);
      session.created.delete(f);
    }
    if (session.routes.feeds.size === 0) {
      session.connection.stop();
      this.#sessions.delete(userId);
      return;
    }
    for (const { feed: f, ids } of created)
      if (ids.length > 0) session.deleting = session.deleting.then(() => this.#delete(f, ids));
  }

  /** Subscribes again on the feed's running session (a grant widened); null when it has none now. */
  async subscribe(
    feed: LiveFeed,
    subscriptions: readonly LiveSubscription[],
  ): Promise<SubscribeOutcome[] | null> {
    const session = this.#sessions.get(feed.holder.speaker.userId);
    const sessionId = session?.connection.sessionId;
    if (!session?.routes.feeds.has(feed) || !sessionId) return null;
    return Promise.all(subscriptions.map((s) => this.#outcome(session, feed, sessionId, s)));
  }

  /** Every session closes (the runtime stops or hands over). */
  close(): void {
    this.#closed = true;
    for (const session of this.#sessions.values()) session.connection.stop();
    this.#sessions.clear();
  }

  /**
   * A channel's owner reading on their own session (chat as themselves, alerts) hears its live state
   * there too, once for every feature: no other session, or socket, is opened for it.
   */
  #hearStream(session: Session, feed: LiveFeed): void {
    const { broadcasterId } = feed;
    if (feed.holder.speaker.userId !== broadcasterId || session.streamFeeds.has(broadcasterId)) return;
    const stream = this.streams.feedFor(feed.holder, broadcasterId);
    session.streamFeeds.set(broadcasterId, stream);
    session.routes.add(stream);
    const sessionId = session.connection.sessionId;
    if (sessionId)
      this.#subscribeFeed(session, stream, sessionId).catch((error: unknown) =>
        this.ctx.log.info("could not subscribe to the stream's live state", { broadcasterId, error }),
      );
  }

  #sessionFor(userId: string): Session {
    const existing = this.#sessions.get(userId);
    if (existing) return existing;
    const { ctx } = this;
    const session: Session = {
      userId,
      routes: new FeedRoutes(() => ctx.clock.now()),
      created: new Map(),
      deleting: Promise.resolve(),
      streamFeeds: new Map(),
      connection: new EventSubConnection({
        url: ctx.config.twitch.eventsubUrl,
        secondMs: this.options.secondMs,
        log: ctx.log,
        handlers: {
          onWelcome: (sessionId) => this.#welcomed(session, sessionId),
          onFrame: (frame) => {
            if (frame.type === "notification") session.routes.deliver(frame);
            else
              for (const feed of session.routes.revokedFeeds(frame))
                if (!feed.revoked(frame)) this.leave(feed);
          },
          onDown: (reason, willRetry) => {
            for (const feed of [...session.routes.feeds]) feed.down(reason, willRetry);
            if (willRetry) return;
            if (this.#sessions.get(userId) === session) this.#sessions.delete(userId);
          },
        },
      }),
    };
    this.#sessions.set(userId, session);
    return session;
  }

  /** A new session: every feed subscribes what it wants; a failure (not a refusal) reconnects. */
  async #welcomed(session: Session, sessionId: string): Promise<void> {
    session.created.clear();
    const feeds = [...session.routes.feeds];
    const results = await Promise.allSettled(feeds.map((f) => this.#subscribeFeed(session, f, sessionId)));
    if (session.routes.feeds.size === 0) throw new StopConnection("nothing left to read on this connection");
    const failed = results.find((r) => r.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  async #subscribeFeed(session: Session, feed: LiveFeed, sessionId: string): Promise<void> {
    const wanted = await feed.wanted();
    const outcomes = await Promise.all(wanted.map((s) => this.#outcome(session, feed, sessionId, s)));
    if (session.routes.feeds.has(feed) && !feed.subscribed(outcomes)) this.leave(feed);
  }

  async #outcome(
    session: Session,
    feed: LiveFeed,
    sessionId: string,
    subscription: LiveSubscription,
  ): Promise<SubscribeOutcome> {
    try {
      const id = await this.#create(session, feed, sessionId, subscription);
      if (id !== "") session.created.set(feed, [...(session.created.get(feed) ?? []), id]);
      return { subscription, state: "connected" };
    } catch (error) {
      if (error instanceof AuthGone) return { subscription, state: "gone", reason: error.message };
      if (!(error instanceof HelixError)) throw error;
      if (error.status === 401) return { subscription, state: "gone", reason: null };
      if (error.status === 403) return { subscription, state: "refused" };
      throw error;
    }
  }

  /**
   * Creates one subscription and returns its id. An existing one (409) is as good when it is on this
   * session; one held by another session (an earlier socket of this user, or another instance's
   * before a handover, reference twitch-chat.md §2.2) would keep the events from this socket: it is
   * deleted and the subscription created again here.
   */
  async #create(
    session: Session,
    feed: LiveFeed,
    sessionId: string,
    subscription: LiveSubscription,
  ): Promise<string> {
    const helix = this.ctx.helixApi;
    if (!helix) throw new AuthGone("Twitch is not configured on this server.");
    await session.deleting;
    const create = () =>
      this.tokens.withToken(feed.holder, (token) => helix.subscribeEventSub(token, sessionId, subscription));
    try {
      return (await create()).id;
    } catch (error) {
      if (!(error instanceof HelixError) || error.status !== 409) throw error;
      const held = await this.tokens.withToken(feed.holder, async (token) => {
        const existing = (await helix.eventSubSubscriptions(token, subscription.type)).filter(
          (s) => s.status === "enabled" && sameCondition(s.condition, subscription.condition),
        );
        const here = existing.find((s) => s.transport.session_id === sessionId);
        if (here) return here.id;
        for (const other of existing) await helix.deleteEventSub(token, other.id);
        return existing.length > 0 ? null : "";
      });
      return held ?? (await create()).id;
    }
  }

  /** Deletes a departed feed's subscriptions from a session that stays (best effort: it reads nothing now). */
  async #delete(feed: LiveFeed, ids: readonly string[]): Promise<void> {
    const helix = this.ctx.helixApi;
    if (!helix) return;
    for (const id of ids) {
      try {
        await this.tokens.withToken(feed.holder, (token) => helix.deleteEventSub(token, id));
      } catch (error) {
        this.ctx.log.debug("could not delete a subscription no feed reads", { id, error });
      }
    }
  }
}

/** Whether the channel's owner still reads it on the session, with a feed other than `except`. */
function ownerReads(session: Session, broadcasterId: string, except: readonly LiveFeed[]): boolean {
  for (const feed of session.routes.feeds)
    if (
      feed.broadcasterId === broadcasterId &&
      feed.holder.speaker.userId === broadcasterId &&
      !except.includes(feed)
    )
      return true;
  return false;
}

/** Whether a listed subscription's condition is the one asked for (every key of it, same value). */
function sameCondition(
  listed: Readonly<Record<string, string>> | undefined,
  wanted: Readonly<Record<string, string>>,
): boolean {
  return Object.entries(wanted).every(([key, value]) => listed?.[key] === value);
}
