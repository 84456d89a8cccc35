import { LRUCache } from "lru-cache";
import { type KeepAliveFetch, keepAliveFetch } from "./keep-alive-fetch.ts";

/**
 * The Helix client: Client-Id + Bearer on every call, a 5 s ceiling per request, one retry on 503
 * (reference/twitch.md §2.0), and failures as `HelixError` with the status to branch on (Twitch
 * says not to depend on message strings).
 */

export interface HelixUser {
  id: string;
  login: string;
  display_name: string;
  type: string;
  broadcaster_type: string;
  description: string;
  profile_image_url: string;
  offline_image_url: string;
  created_at: string;
  email?: string;
}

export class HelixError extends Error {
  constructor(
    /** HTTP status from Helix, or null when it could not be reached or timed out. */
    readonly status: number | null,
    message: string,
    /** For a 429: when Twitch's bucket refills (Unix ms, from `Ratelimit-Reset`), if it said. */
    readonly retryAt: number | null = null,
  ) {
    super(message);
  }
}

/** One EventSub subscription as Get EventSub Subscriptions lists it (the fields cuebot reads). */
export interface EventSubSubscriptionInfo {
  id: string;
  status: string;
  type: string;
  condition: Record<string, string>;
  transport: { method: string; session_id?: string };
}

export interface HelixRequest {
  token: string;
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  query?: Record<string, string | number | boolean | (string | number)[] | undefined>;
  body?: unknown;
  /** Endpoints with a rate-limit bucket of their own (Send Chat Message) name it, so it is tracked apart. */
  bucket?: string;
}

export interface HelixClientOptions {
  baseUrl: string;
  clientId: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Unix ms; compared with Twitch's `Ratelimit-Reset` (the injected clock in tests). */
  now?: () => number;
}

export class HelixClient {
  /** An injected fetch (tests), whose calls get a deadline signal; else the keep-alive client's. */
  readonly #fetch: ((url: URL, init: RequestInit) => Promise<Response>) | null;
  /** Keeps each call's deadline on its one timer: no timer, controller or listener per call. */
  readonly #keepAlive: KeepAliveFetch;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  /**
   * Tokens whose bucket Twitch said is empty (a 429, or `Ratelimit-Remaining: 0`), until its
   * `Ratelimit-Reset`: calls fail fast instead of hammering Twitch (reference §2.0). Buckets are per
   * client and user, so per token is the right key.
   */
  #exhaustedUntil: LRUCache<string, number> | null = null;

  /**
   * Made the first time Twitch says a bucket is used up: an LRUCache allocates arrays for all of its
   * `max` entries when it is built (~280 KB here), which a server whose limits are never reached does
   * not need.
   */
  #exhausted(): LRUCache<string, number> {
    this.#exhaustedUntil ??= new LRUCache<string, number>({ max: 10_000 });
    return this.#exhaustedUntil;
  }

  constructor(private readonly options: HelixClientOptions) {
    // Helix calls stay on the event loop's thread (keep-alive-fetch.ts): cheaper than Bun's fetch.
    this.#fetch = options.fetch ?? null;
    this.#keepAlive = keepAliveFetch();
    this.#timeoutMs = options.timeoutMs ?? 5000;
    this.#now = options.now ?? Date.now;
  }

  /** Returns the parsed JSON body (or null for 204); throws HelixError on any non-2xx. */
  async call<T>(path: string, request: HelixRequest): Promise<T> {
    const url = new URL(`${this.options.baseUrl}${path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value === undefined) continue;
      // Helix lists are repeated parameters (id=1&id=2), never comma-separated.
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(item));
    }
    const init: RequestInit = {
      method: request.method ?? "GET",
      headers: {
        "Client-Id": this.options.clientId,
        Authorization: `Bearer ${request.token}`,
        ...(request.body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    };
    const bucket = request.bucket ? `${request.token} ${request.bucket}` : request.token;
    const until = this.#exhaustedUntil?.get(bucket);
    if (until !== undefined && until > this.#now()) {
      throw new HelixError(
        429,
        "Twitch's rate limit for this channel is used up; it refills within a minute",
        until,
      );
    }
    let { response, text } = await this.#attempt(url, init);
    if (response.status === 503) ({ response, text } = await this.#attempt(url, init));
    this.#noteRateLimit(bucket, response);
    if (response.status === 204) return null as T;
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!response.ok) {
      const message =
        parsed && typeof parsed === "object" && typeof (parsed as { message?: unknown }).message === "string"
          ? (parsed as { message: string }).message
          : "";
      const reset = Number(response.headers.get("ratelimit-reset"));
      throw new HelixError(
        response.status,
        message || `Helix answered ${response.status}`,
        response.status === 429 && reset > 0 ? reset * 1000 : null,
      );
    }
    return parsed as T;
  }

  #noteRateLimit(token: string, response: Response): void {
    const remaining = response.headers.get("ratelimit-remaining");
    const reset = Number(response.headers.get("ratelimit-reset"));
    if ((response.status === 429 || remaining === "0") && Number.isFinite(reset) && reset > 0) {
      this.#exhausted().set(token, reset * 1000);
    } else {
      this.#exhaustedUntil?.delete(token);
    }
  }

  /**
   * One request within its own deadline, the body included. The keep-alive client keeps deadlines
   * on one timer of its own (a controller, a timer and an abort listener per call were about 4 % of
   * native chat's CPU at 1,000 replies a second); an injected fetch gets a signal whose timer is
   * cleared when the call ends (AbortSignal.timeout left one behind every call for its whole 5 s).
   */
  async #attempt(url: URL, init: RequestInit): Promise<{ response: Response; text: string }> {
    try {
      if (this.#fetch) return await this.#signalled(this.#fetch, url, init);
      const response = await this.#keepAlive(url, { ...init, timeoutMs: this.#timeoutMs });
      // The keep-alive client's answer is whole when it resolves: its body is read at once.
      return { response, text: await bodyOf(response) };
    } catch (error) {
      const timedOut = (error as Error).name === "TimeoutError";
      throw new HelixError(null, timedOut ? "Twitch did not answer in time" : "Twitch could not be reached");
    }
  }

  /** Through an injected fetch: a signal aborts it at the deadline. */
  async #signalled(
    fetch: (url: URL, init: RequestInit) => Promise<Response>,
    url: URL,
    init: RequestInit,
  ): Promise<{ response: Response; text: string }> {
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException("Twitch did not answer in time", "TimeoutError")),
      this.#timeoutMs,
    );
    try {
      const response = await fetch(url, { ...init, signal: deadline.signal });
      return { response, text: await bodyOf(response) };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Get Users: with no ids or logins, the token's own user. */
  async getUsers(token: string, filter: { id?: string[]; login?: string[] } = {}): Promise<HelixUser[]> {
    const body = await this.call<{ data: HelixUser[] }>("/users", {
      token,
      query: { id: filter.id, login: filter.login },
    });
    return body.data;
  }
}

/** A response's text ("" for a 204). */
function bodyOf(response: Response): Promise<string> | string {
  return response.status === 204 ? "" : response.text();
}

export interface HelixPage<T> {
  data: T[];
  pagination?: { cursor?: string };
  total?: number;
}

export interface HelixChannel {
  broadcaster_id: string;
  broadcaster_login: string;
  broadcaster_name: string;
  game_id: string;
  game_name: string;
  title: string;
  tags: string[];
}

export interface HelixStream {
  id: string;
  user_id: string;
  user_login: string;
  user_name: string;
  game_id: string;
  game_name: string;
  type: string;
  title: string;
  viewer_count: number;
  started_at: string;
  thumbnail_url: string;
}

export interface HelixFollower {
  user_id: string;
  user_login: string;
  user_name: string;
  followed_at: string;
}

export interface HelixClip {
  id: string;
  url: string;
  embed_url: string;
  broadcaster_id: string;
  broadcaster_name: string;
  creator_id: string;
  creator_name: string;
  title: string;
  view_count: number;
  created_at: string;
  thumbnail_url: string;
  duration: number;
}

export interface HelixChatter {
  user_id: string;
  user_login: string;
  user_name: string;
}

export interface HelixUserRef {
  user_id: string;
  user_login: string;
  user_name: string;
}

export interface HelixBan {
  broadcaster_id: string;
  moderator_id: string;
  user_id: string;
  created_at: string;
  end_time: string | null;
}

/** The calls cuebot's chat commands and dashboard make, each mapped 1:1 to a Helix endpoint. */
export class HelixApi {
  constructor(private readonly client: HelixClient) {}

  users(token: string, filter: { id?: string[]; login?: string[] } = {}): Promise<HelixUser[]> {
    return this.client.getUsers(token, filter);
  }

  async channels(token: string, broadcasterIds: string[]): Promise<HelixChannel[]> {
    return (
      await this.client.call<HelixPage<HelixChannel>>("/channels", {
        token,
        query: { broadcaster_id: broadcasterIds },
      })
    ).data;
  }

  async streams(token: string, userIds: string[]): Promise<HelixStream[]> {
    return (
      await this.client.call<HelixPage<HelixStream>>("/streams", {
        token,
        query: { user_id: userIds, type: "live" },
      })
    ).data;
  }

  /** The follow record of one user, or null when they do not follow (reference §2.2). */
  async follower(token: string, broadcasterId: string, userId: string): Promise<HelixFollower | null> {
    const page = await this.client.call<HelixPage<HelixFollower>>("/channels/followers", {
      token,
      query: { broadcaster_id: broadcasterId, user_id: userId },
    });
    return page.data[0] ?? null;
  }

  /** Create Clip answers 202 at once; the clip becomes visible within ~15 s. */
  async createClip(token: string, broadcasterId: string): Promise<{ id: string; edit_url: string }> {
    const body = await this.client.call<{ data: { id: string; edit_url: string }[] }>("/clips", {
      token,
      method: "POST",
      query: { broadcaster_id: broadcasterId },
    });
    const clip = body.data[0];
    if (!clip) throw new HelixError(502, "Twitch accepted the clip but sent no id");
    return clip;
  }

  clips(
    token: string,
    query: { broadcasterId: string; first: number; after?: string; startedAt?: string; endedAt?: string },
  ): Promise<HelixPage<HelixClip>> {
    return this.client.call<HelixPage<HelixClip>>("/clips", {
      token,
      query: {
        broadcaster_id: query.broadcasterId,
        first: query.first,
        after: query.after,
        started_at: query.startedAt,
        ended_at: query.endedAt,
      },
    });
  }

  chatters(
    token: string,
    query: { broadcasterId: string; moderatorId: string; first: number; after?: string },
  ) {
    return this.client.call<HelixPage<HelixChatter>>("/chat/chatters", {
      token,
      query: {
        broadcaster_id: query.broadcasterId,
        moderator_id: query.moderatorId,
        first: query.first,
        after: query.after,
      },
    });
  }

  async shoutout(token: string, fromId: string, toId: string, moderatorId: string): Promise<void> {
    await this.client.call<null>("/chat/shoutouts", {
      token,
      method: "POST",
      query: { from_broadcaster_id: fromId, to_broadcaster_id: toId, moderator_id: moderatorId },
    });
  }

  async timeout(
    token: string,
    query: { broadcasterId: string; moderatorId: string; userId: string; seconds: number; reason: string },
  ): Promise<HelixBan> {
    const body = await this.client.call<{ data: HelixBan[] }>("/moderation/bans", {
      token,
      method: "POST",
      query: { broadcaster_id: query.broadcasterId, moderator_id: query.moderatorId },
      body: { data: { user_id: query.userId, duration: query.seconds, reason: query.reason } },
    });
    const ban = body.data[0];
    if (!ban) throw new HelixError(502, "Twitch confirmed the timeout without details");
    return ban;
  }

  /** Every page of a broadcaster-scoped role list (moderators, VIPs, subscribers). */
  async #allUserIds(path: string, token: string, broadcasterId: string): Promise<Set<string>> {
    const ids = new Set<string>();
    let after: string | undefined;
    for (let page = 0; page < 50; page++) {
      const body = await this.client.call<HelixPage<HelixUserRef>>(path, {
        token,
        query: { broadcaster_id: broadcasterId, first: 100, after },
      });
      for (const item of body.data) ids.add(item.user_id);
      after = body.pagination?.cursor;
      if (!after || body.data.length === 0) break;
    }
    return ids;
  }

  /** Get Moderated Channels: the broadcaster ids where the token's user (`userId`) is a moderator. */
  async moderatedChannelIds(token: string, userId: string): Promise<Set<string>> {
    const ids = new Set<string>();
    let after: string | undefined;
    for (let page = 0; page < 50; page++) {
      const body = await this.client.call<HelixPage<{ broadcaster_id: string }>>("/moderation/channels", {
        token,
        query: { user_id: userId, first: 100, after },
      });
      for (const item of body.data) ids.add(item.broadcaster_id);
      after = body.pagination?.cursor;
      if (!after || body.data.length === 0) break;
    }
    return ids;
  }

  moderatorIds(token: string, broadcasterId: string): Promise<Set<string>> {
    return this.#allUserIds("/moderation/moderators", token, broadcasterId);
  }

  vipIds(token: string, broadcasterId: string): Promise<Set<string>> {
    return this.#allUserIds("/channels/vips", token, broadcasterId);
  }

  subscriberIds(token: string, broadcasterId: string): Promise<Set<string>> {
    return this.#allUserIds("/subscriptions", token, broadcasterId);
  }

  /** Create EventSub Subscription for `channel.chat.message` on a WebSocket session (202). */
  subscribeChat(
    token: string,
    sessionId: string,
    condition: { broadcasterId: string; userId: string },
  ): Promise<{ id: string }> {
    return this.subscribeEventSub(token, sessionId, {
      type: "channel.chat.message",
      version: "1",
      condition: { broadcaster_user_id: condition.broadcasterId, user_id: condition.userId },
    });
  }

  /** Create EventSub Subscription of any type on a WebSocket session (202; 403 without its scope). */
  async subscribeEventSub(
    token: string,
    sessionId: string,
    subscription: { type: string; version: string; condition: Record<string, string> },
  ): Promise<{ id: string }> {
    const body = await this.client.call<{ data: { id: string }[] }>("/eventsub/subscriptions", {
      token,
      method: "POST",
      body: { ...subscription, transport: { method: "websocket", session_id: sessionId } },
    });
    return { id: body.data[0]?.id ?? "" };
  }

  /** Get EventSub Subscriptions of one type, the token's user's (first page: 100 is more than cuebot makes). */
  async eventSubSubscriptions(token: string, type: string): Promise<EventSubSubscriptionInfo[]> {
    const body = await this.client.call<{ data: EventSubSubscriptionInfo[] }>("/eventsub/subscriptions", {
      token,
      query: { type },
    });
    return body.data ?? [];
  }

  /** Delete EventSub Subscription (204). */
  async deleteEventSub(token: string, id: string): Promise<void> {
    await this.client.call<null>("/eventsub/subscriptions", { token, method: "DELETE", query: { id } });
  }

  /** Send Chat Message: 200 does not mean posted (`is_sent: false` carries the drop reason). */
  async sendChatMessage(
    token: string,
    message: { broadcasterId: string; senderId: string; text: string; replyParentMessageId?: string },
  ): Promise<ChatSendResult> {
    const body = await this.client.call<{ data: ChatSendResult[] }>("/chat/messages", {
      token,
      method: "POST",
      bucket: "chat",
      body: {
        broadcaster_id: message.broadcasterId,
        sender_id: message.senderId,
        message: message.text,
        ...(message.replyParentMessageId ? { reply_parent_message_id: message.replyParentMessageId } : {}),
      },
    });
    const result = body.data[0];
    if (!result) throw new HelixError(500, "Twitch answered Send Chat Message without a result");
    return result;
  }
}

export interface ChatSendResult {
  message_id: string;
  is_sent: boolean;
  drop_reason: { code: string; message: string } | null;
}
