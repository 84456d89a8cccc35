import {
  type EventSubSubscriptionInfo,
  type HelixClient,
  HelixError,
  type HelixUser,
} from "./helix-client.ts";

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

  /** Ban User without a duration: a permanent ban (reference/moderation.md §2.2). */
  async ban(
    token: string,
    query: { broadcasterId: string; moderatorId: string; userId: string; reason: string },
  ): Promise<HelixBan> {
    const body = await this.client.call<{ data: HelixBan[] }>("/moderation/bans", {
      token,
      method: "POST",
      query: { broadcaster_id: query.broadcasterId, moderator_id: query.moderatorId },
      body: { data: { user_id: query.userId, reason: query.reason } },
    });
    const ban = body.data[0];
    if (!ban) throw new HelixError(502, "Twitch confirmed the ban without details");
    return ban;
  }

  /** Unban User: lifts a ban or a timeout (§2.3). */
  async unban(
    token: string,
    query: { broadcasterId: string; moderatorId: string; userId: string },
  ): Promise<void> {
    await this.client.call<null>("/moderation/bans", {
      token,
      method: "DELETE",
      query: { broadcaster_id: query.broadcasterId, moderator_id: query.moderatorId, user_id: query.userId },
    });
  }

  /**
   * Delete Chat Messages for one message (§2.1). The id is required here: without it Twitch would
   * clear the whole chat.
   */
  async deleteChatMessage(
    token: string,
    query: { broadcasterId: string; moderatorId: string; messageId: string },
  ): Promise<void> {
    if (query.messageId === "") throw new HelixError(400, "A message id is needed to delete one message");
    await this.client.call<null>("/moderation/chat", {
      token,
      method: "DELETE",
      query: {
        broadcaster_id: query.broadcasterId,
        moderator_id: query.moderatorId,
        message_id: query.messageId,
      },
    });
  }

  /** Get Chat Settings: whether followers-only chat is on now (§2.4; any token will do). */
  async followersOnly(token: string, broadcasterId: string): Promise<boolean> {
    const body = await this.client.call<{ data: { follower_mode?: boolean }[] }>("/chat/settings", {
      token,
      query: { broadcaster_id: broadcasterId },
    });
    return body.data[0]?.follower_mode === true;
  }

  /** Update Chat Settings: followers-only chat on (any follower) or off (§2.4). */
  async setFollowersOnly(
    token: string,
    query: { broadcasterId: string; moderatorId: string; on: boolean },
  ): Promise<void> {
    await this.client.call<unknown>("/chat/settings", {
      token,
      method: "PATCH",
      query: { broadcaster_id: query.broadcasterId, moderator_id: query.moderatorId },
      body: query.on ? { follower_mode: true, follower_mode_duration: 0 } : { follower_mode: false },
    });
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
