import { randomUUID } from "node:crypto";
import type { Clock } from "../core/clock.ts";
import { CHAT_MESSAGE_TYPE, type EventSubSim } from "./eventsub.ts";
import { type HelixCall, type HelixRoute, helixError, json, readJsonObject } from "./helix.ts";
import type { SimUser, SimWorld } from "./world.ts";

/**
 * A channel's chat as the simulator keeps it: lines typed by (injected) users, Send Chat Message with
 * Twitch's limits and drop reasons (reference/twitch-chat.md §4, §5, §7.3), and every accepted
 * message echoed to EventSub subscribers as `channel.chat.message` (§7.1).
 */

export interface SimChatLine {
  messageId: string;
  at: number;
  channelLogin: string;
  userId: string;
  userLogin: string;
  userName: string;
  text: string;
  replyParentMessageId: string | null;
  source: "injected" | "sent";
}

export interface SimSendAttempt {
  at: number;
  status: number;
  broadcasterId: string;
  senderId: string;
  text: string;
  replyParentMessageId: string | null;
  isSent: boolean;
  dropReason: { code: string; message: string } | null;
}

export interface SimBadge {
  set_id: string;
  id: string;
  info: string;
}

export interface SayInput {
  channel: string;
  user: string;
  text: string;
  badges?: SimBadge[];
  replyParentMessageId?: string;
  sourceChannel?: string;
}

/** One `message.fragments[]` entry; the parts a type does not use are null (reference §3.2). */
interface Fragment {
  type: "text" | "mention" | "cheermote";
  text: string;
  cheermote: { prefix: string; bits: number; tier: number } | null;
  emote: null;
  mention: { user_id: string; user_name: string; user_login: string } | null;
}

export interface RoomModes {
  slowSeconds: number;
  followersOnly: boolean;
  subscribersOnly: boolean;
  emoteOnly: boolean;
}

export type ChatRole = "moderator" | "vip" | "none";

export interface SimChatKnobs {
  /** The next sends answer `is_sent: false` with this reason (until set back to null). */
  forceDrop: { code: string; message: string } | null;
}

const WINDOW_MS = 30_000;
const PRIVILEGED_LIMIT = 100;
const NORMAL_LIMIT = 20;
const MAX_CODE_POINTS = 500;
const MAX_LINES = 500;
/** Send Chat Message's own bucket (it does not drain the normal Helix one). */
const CHAT_BUCKET = 800;

const DROP_TEXT: Record<string, string> = {
  msg_ratelimit: "Your message was not sent because you are sending messages too quickly.",
  msg_duplicate:
    "Your message was not sent because it is identical to the previous one you sent, less than 30 seconds ago.",
  msg_slowmode: "This room is in slow mode and you are sending messages too quickly.",
  msg_followersonly: "This room is in followers-only mode.",
  msg_subsonly: "This room is in subscribers-only mode.",
  msg_emoteonly: "This room is in emote-only mode.",
};

const normalise = (text: string) => text.trim().replace(/\s+/g, " ");

export function createSimChat(env: { world: SimWorld; clock: Clock; eventsub: EventSubSim }) {
  const { world, clock, eventsub } = env;
  const knobs: SimChatKnobs = { forceDrop: null };
  const lines = new Map<string, SimChatLine[]>();
  const attempts: SimSendAttempt[] = [];
  /** "broadcaster:sender" → times of its send attempts in the window (drops count too). */
  const windows = new Map<string, number[]>();
  /** "broadcaster:sender" → its last delivered text and when. */
  const lastDelivered = new Map<string, { text: string; at: number }>();
  const modes = new Map<string, RoomModes>();
  let bucket = { remaining: CHAT_BUCKET, resetAt: clock.now() + 60_000 };

  const byLogin = (login: string) =>
    world.users.find((u) => u.login === login.replace(/^@/, "").toLowerCase());
  const byId = (id: string) => world.users.find((u) => u.id === id);

  /** An unknown chatter is created on the fly, as anyone may type in chat. */
  function chatter(login: string): SimUser {
    const existing = byLogin(login);
    if (existing) return existing;
    const clean = login.replace(/^@/, "").toLowerCase();
    const user: SimUser = {
      id: String(200_000 + world.users.length),
      login: clean,
      display_name: clean,
      type: "",
      broadcaster_type: "",
      description: "",
      profile_image_url: "",
      offline_image_url: "",
      view_count: 0,
      email: "",
      created_at: new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z"),
    };
    world.users.push(user);
    return user;
  }

  const roleOf = (broadcasterId: string, userId: string): "broadcaster" | ChatRole => {
    if (broadcasterId === userId) return "broadcaster";
    if ((world.moderators.get(broadcasterId) ?? []).includes(userId)) return "moderator";
    if ((world.vips.get(broadcasterId) ?? []).includes(userId)) return "vip";
    return "none";
  };

  /**
   * The role's badge, then the subscriber badge for a subscribed chatter (version by tier, as Twitch's
   * default badge set numbers them; `info` is the months, which the world does not keep: "1").
   */
  const badgesOf = (broadcasterId: string, userId: string): SimBadge[] => {
    const role = roleOf(broadcasterId, userId);
    const badges: SimBadge[] = role === "none" ? [] : [{ set_id: role, id: "1", info: "" }];
    const sub = world.subscriptions.find((s) => s.broadcaster_id === broadcasterId && s.user_id === userId);
    if (sub && role !== "broadcaster") {
      badges.push({ set_id: "subscriber", id: sub.tier === "1000" ? "0" : sub.tier, info: "1" });
    }
    return badges;
  };

  /** The event's `cheer`: the bits of its cheermotes, or null when it has none (reference §3.2). */
  const cheerOf = (parts: Fragment[]) => {
    const bits = parts.reduce((sum, f) => sum + (f.cheermote?.bits ?? 0), 0);
    return bits > 0 ? { bits } : null;
  };

  /**
   * Fragments as Twitch splits them: mentions and cheers apart from plain text. Only a chatter can
   * cheer; a message sent through the API (`cheers` false) keeps "Cheer100" as text.
   */
  function fragments(text: string, cheers: boolean): Fragment[] {
    const out: Fragment[] = [];
    let plain = "";
    const flush = () => {
      if (plain) out.push({ type: "text", text: plain, cheermote: null, emote: null, mention: null });
      plain = "";
    };
    for (const part of text.split(/(\s+)/)) {
      const mention = /^@([a-zA-Z0-9_]{1,25})$/.exec(part);
      const cheer = cheers ? /^Cheer(\d{1,6})$/.exec(part) : null;
      const mentioned = mention ? byLogin(mention[1]!) : undefined;
      if (mentioned) {
        flush();
        out.push({
          type: "mention",
          text: part,
          cheermote: null,
          emote: null,
          mention: { user_id: mentioned.id, user_name: mentioned.display_name, user_login: mentioned.login },
        });
      } else if (cheer) {
        flush();
        const bits = Number(cheer[1]);
        out.push({
          type: "cheermote",
          text: part,
          cheermote: {
            prefix: "cheer",
            bits,
            tier: bits >= 10_000 ? 10_000 : bits >= 1000 ? 1000 : bits >= 100 ? 100 : 1,
          },
          emote: null,
          mention: null,
        });
      } else plain += part;
    }
    flush();
    return out;
  }

  function record(line: SimChatLine): void {
    const list = lines.get(line.channelLogin) ?? [];
    list.push(line);
    if (list.length > MAX_LINES) list.shift();
    lines.set(line.channelLogin, list);
  }

  function deliver(
    channel: SimUser,
    user: SimUser,
    text: string,
    options: {
      badges?: SimBadge[];
      replyParentMessageId?: string | null;
      source: "injected" | "sent";
      at?: number;
      sourceChannel?: SimUser;
    },
  ): string {
    const messageId = randomUUID();
    const parts = fragments(text, options.source === "injected");
    const parent = options.replyParentMessageId
      ? (lines.get(channel.login) ?? []).find((l) => l.messageId === options.replyParentMessageId)
      : undefined;
    const event = {
      broadcaster_user_id: channel.id,
      broadcaster_user_login: channel.login,
      broadcaster_user_name: channel.display_name,
      chatter_user_id: user.id,
      chatter_user_login: user.login,
      chatter_user_name: user.display_name,
      message_id: messageId,
      message: { text, fragments: parts },
      message_type: "text",
      badges: options.badges ?? badgesOf(channel.id, user.id),
      cheer: cheerOf(parts),
      color: "#1E90FF",
      reply: parent
        ? {
            parent_message_id: parent.messageId,
            parent_message_body: parent.text,
            parent_user_id: parent.userId,
            parent_user_login: parent.userLogin,
            parent_user_name: parent.userName,
            thread_message_id: parent.messageId,
            thread_user_id: parent.userId,
            thread_user_login: parent.userLogin,
            thread_user_name: parent.userName,
          }
        : null,
      channel_points_custom_reward_id: null,
      source_broadcaster_user_id: options.sourceChannel?.id ?? null,
      source_broadcaster_user_login: options.sourceChannel?.login ?? null,
      source_broadcaster_user_name: options.sourceChannel?.display_name ?? null,
      source_message_id: options.sourceChannel ? randomUUID() : null,
      source_badges: options.sourceChannel ? [] : null,
      is_source_only: options.sourceChannel ? false : null,
    };
    record({
      messageId,
      at: clock.now(),
      channelLogin: channel.login,
      userId: user.id,
      userLogin: user.login,
      userName: user.display_name,
      text,
      replyParentMessageId: options.replyParentMessageId ?? null,
      source: options.source,
    });
    eventsub.notify(CHAT_MESSAGE_TYPE, channel.id, event, options.at);
    return messageId;
  }

  function say(input: SayInput, at?: number): string {
    const channel = byLogin(input.channel);
    if (!channel) throw new Error(`no simulated channel ${input.channel}`);
    const user = chatter(input.user);
    const sourceChannel = input.sourceChannel ? byLogin(input.sourceChannel) : undefined;
    return deliver(channel, user, input.text, {
      badges: input.badges,
      replyParentMessageId: input.replyParentMessageId ?? null,
      source: "injected",
      at,
      sourceChannel,
    });
  }

  const isBanned = (broadcasterId: string, userId: string) =>
    world.bans.some(
      (b) =>
        b.broadcaster_id === broadcasterId &&
        b.user_id === userId &&
        (b.expires_at === null || Date.parse(b.expires_at) > clock.now()),
    );

  /** The drop reason Twitch would give, or null when the message goes out. */
  function dropReason(broadcasterId: string, senderId: string, text: string): string | null {
    const now = clock.now();
    const key = `${broadcasterId}:${senderId}`;
    const times = (windows.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
    times.push(now);
    windows.set(key, times);
    const role = roleOf(broadcasterId, senderId);
    const privileged = role !== "none";
    const earlier = times.slice(0, -1);
    if (privileged) {
      if (earlier.length >= PRIVILEGED_LIMIT) return "msg_ratelimit";
    } else {
      if (earlier.length >= NORMAL_LIMIT) return "msg_ratelimit";
      const previous = earlier.at(-1);
      if (previous !== undefined && now - previous < 1000) return "msg_ratelimit";
      const last = lastDelivered.get(key);
      if (last && last.text === normalise(text) && now - last.at < WINDOW_MS) return "msg_duplicate";
    }
    const exempt = role === "broadcaster" || role === "moderator";
    const room = modes.get(broadcasterId);
    if (room && !exempt) {
      const last = lastDelivered.get(key);
      if (room.slowSeconds > 0 && last && now - last.at < room.slowSeconds * 1000) return "msg_slowmode";
      if (
        room.followersOnly &&
        !world.follows.some((f) => f.broadcaster_id === broadcasterId && f.user_id === senderId)
      ) {
        return "msg_followersonly";
      }
      if (
        room.subscribersOnly &&
        !world.subscriptions.some((s) => s.broadcaster_id === broadcasterId && s.user_id === senderId)
      ) {
        return "msg_subsonly";
      }
      if (room.emoteOnly) return "msg_emoteonly";
    }
    return null;
  }

  function bucketHeaders(): Record<string, string> {
    if (clock.now() >= bucket.resetAt) bucket = { remaining: CHAT_BUCKET, resetAt: clock.now() + 60_000 };
    return {
      "Ratelimit-Limit": String(CHAT_BUCKET),
      "Ratelimit-Remaining": String(Math.max(0, bucket.remaining)),
      "Ratelimit-Reset": String(Math.ceil(bucket.resetAt / 1000)),
    };
  }

  async function sendMessage(call: HelixCall): Promise<Response> {
    const now = clock.now();
    const headers = bucketHeaders();
    if (bucket.remaining <= 0) return helixError(429, "Too Many Requests", headers);
    bucket.remaining -= 1;
    headers["Ratelimit-Remaining"] = String(bucket.remaining);
    const body = await readJsonObject(call.request);
    if (!body) return helixError(400, "The body of the request is not valid JSON.", headers);
    // The IDs are documented in the body; twurple sends them in the query, which Twitch accepts too.
    const broadcasterId = body.broadcaster_id ?? call.query.get("broadcaster_id") ?? undefined;
    const senderId = body.sender_id ?? call.query.get("sender_id") ?? undefined;
    const text = body.message;
    const parent = body.reply_parent_message_id;
    const attempt = (status: number, isSent: boolean, reason: string | null) =>
      attempts.push({
        at: now,
        status,
        broadcasterId: String(broadcasterId ?? ""),
        senderId: String(senderId ?? ""),
        text: typeof text === "string" ? text : "",
        replyParentMessageId: typeof parent === "string" ? parent : null,
        isSent,
        dropReason: reason ? { code: reason, message: DROP_TEXT[reason] ?? reason } : null,
      });
    if (typeof broadcasterId !== "string" || broadcasterId === "") {
      attempt(400, false, null);
      return helixError(400, 'Missing required parameter "broadcaster_id"', headers);
    }
    if (typeof senderId !== "string" || senderId === "") {
      attempt(400, false, null);
      return helixError(400, 'Missing required parameter "sender_id"', headers);
    }
    if (typeof text !== "string" || text.trim() === "") {
      attempt(400, false, null);
      return helixError(400, 'Missing required parameter "message"', headers);
    }
    if (senderId !== call.caller.userId) {
      attempt(401, false, null);
      return helixError(
        401,
        "The sender_id in the body must match the user ID in the user access token.",
        headers,
      );
    }
    if (body.for_source_only !== undefined) {
      attempt(400, false, null);
      return helixError(400, "for_source_only may only be set with an app access token.", headers);
    }
    const channel = byId(broadcasterId);
    if (!channel) {
      attempt(400, false, null);
      return helixError(400, "The broadcaster_id is not valid.", headers);
    }
    if (
      parent !== undefined &&
      (typeof parent !== "string" || !(lines.get(channel.login) ?? []).some((l) => l.messageId === parent))
    ) {
      attempt(400, false, null);
      return helixError(400, "The reply_parent_message_id is not a message in this channel.", headers);
    }
    if ([...text].length > MAX_CODE_POINTS) {
      attempt(422, false, null);
      return helixError(422, "The message is too large.", headers);
    }
    if (isBanned(broadcasterId, senderId)) {
      attempt(403, false, null);
      return helixError(
        403,
        "The sender is not permitted to send chat messages to the broadcaster's chat room.",
        headers,
      );
    }
    const reason = knobs.forceDrop?.code ?? dropReason(broadcasterId, senderId, text);
    if (reason) {
      const message = knobs.forceDrop?.message ?? DROP_TEXT[reason] ?? reason;
      attempts.push({
        at: now,
        status: 200,
        broadcasterId,
        senderId,
        text,
        replyParentMessageId: typeof parent === "string" ? parent : null,
        isSent: false,
        dropReason: { code: reason, message },
      });
      return json(
        200,
        { data: [{ message_id: "", is_sent: false, drop_reason: { code: reason, message } }] },
        headers,
      );
    }
    attempt(200, true, null);
    lastDelivered.set(`${broadcasterId}:${senderId}`, { text: normalise(text), at: now });
    const sender = byId(senderId) ?? chatter(senderId);
    const messageId = deliver(channel, sender, text, {
      replyParentMessageId: typeof parent === "string" ? parent : null,
      source: "sent",
    });
    return json(200, { data: [{ message_id: messageId, is_sent: true, drop_reason: null }] }, headers);
  }

  const routes: [string, HelixRoute][] = [
    ["POST /chat/messages", { userToken: true, scopes: ["user:write:chat"], handle: sendMessage }],
  ];

  /** `/_sim/chat/*`: the inject hook over HTTP, for the demo and browser tests (reference §7.4). */
  async function handleSimHttp(request: Request, url: URL): Promise<Response | null> {
    if (url.pathname === "/_sim/chat/say" && request.method === "POST") {
      const body = (await readJsonObject(request)) as SayInput | null;
      if (!body) return json(400, { error: "body must be a JSON object" });
      if (
        typeof body.channel !== "string" ||
        typeof body.user !== "string" ||
        typeof body.text !== "string"
      ) {
        return json(400, { error: "channel, user and text are required strings" });
      }
      try {
        return json(200, { message_id: say(body) });
      } catch (error) {
        return json(404, { error: (error as Error).message });
      }
    }
    if (url.pathname === "/_sim/chat/lines" && request.method === "GET") {
      return json(200, { data: lines.get((url.searchParams.get("channel") ?? "").toLowerCase()) ?? [] });
    }
    return null;
  }

  return {
    knobs,
    routes,
    handleSimHttp,
    isBanned,
    say: (input: SayInput) => say(input),
    sayStale: (input: SayInput) => say(input, clock.now() - 11 * 60_000),
    lines: (channel: string) => [...(lines.get(channel.replace(/^@/, "").toLowerCase()) ?? [])],
    sent: () => [...attempts],
    setRole(channel: string, user: string, role: ChatRole): void {
      const c = byLogin(channel);
      if (!c) throw new Error(`no simulated channel ${channel}`);
      const u = chatter(user);
      for (const map of [world.moderators, world.vips]) {
        map.set(
          c.id,
          (map.get(c.id) ?? []).filter((id) => id !== u.id),
        );
      }
      if (role === "moderator") world.moderators.get(c.id)?.push(u.id);
      if (role === "vip") world.vips.get(c.id)?.push(u.id);
    },
    setRoomMode(channel: string, changes: Partial<RoomModes>): void {
      const c = byLogin(channel);
      if (!c) throw new Error(`no simulated channel ${channel}`);
      const current = modes.get(c.id) ?? {
        slowSeconds: 0,
        followersOnly: false,
        subscribersOnly: false,
        emoteOnly: false,
      };
      modes.set(c.id, { ...current, ...changes });
    },
    redeliver: (messageId: string) => eventsub.redeliverChat(messageId),
    reconnect: eventsub.reconnect,
    revoke: eventsub.revoke,
    close: eventsub.close,
    dropKeepalives: eventsub.dropKeepalives,
    sessions: eventsub.sessions,
    subscriptions: eventsub.subscriptions,
  };
}

export type SimChat = ReturnType<typeof createSimChat>;
