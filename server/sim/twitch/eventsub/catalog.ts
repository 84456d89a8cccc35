/**
 * The EventSub subscription types the simulator accepts, with what Twitch asks of each (its
 * "EventSub subscription types" page, dev.twitch.tv/docs/eventsub/eventsub-subscription-types, and
 * reference/alerts.md §0–§1): the version, the condition's keys, the scopes (any one of them) and who
 * may subscribe. Pure: the world's answers (moderators, bans) come in as functions.
 */

export const CHAT_MESSAGE_TYPE = "channel.chat.message";

/** What moderators do to chat, as a chat reader sees it (reference/moderation.md §5). */
export const CHAT_EVENT_TYPES = {
  messageDelete: "channel.chat.message_delete",
  clearUserMessages: "channel.chat.clear_user_messages",
  clear: "channel.chat.clear",
  settingsUpdate: "channel.chat_settings.update",
} as const;

/** What deciding a subscription's authorization needs from the world. */
export interface AuthorizationFacts {
  /** The token's user. */
  userId: string;
  scopes: readonly string[];
  isModerator(broadcasterId: string, userId: string): boolean;
  isBanned(broadcasterId: string, userId: string): boolean;
}

export interface SubscriptionKind {
  version: string;
  /** Condition keys every subscription must give (non-empty strings). */
  required: readonly string[];
  /** Condition keys it may give. */
  optional: readonly string[];
  /** The token must hold one of these; empty: no scope. */
  scopes: readonly string[];
  /** The subscription's cost for this token user, or null when the user may not subscribe (403). */
  cost(condition: Readonly<Record<string, string>>, facts: AuthorizationFacts): number | null;
  /** Whether an event delivered for `broadcasterId` reaches a subscription with this condition. */
  matches(condition: Readonly<Record<string, string>>, broadcasterId: string, event: object): boolean;
}

const SUBSCRIPTIONS_READ = ["channel:read:subscriptions"];
const REDEMPTIONS_READ = ["channel:read:redemptions", "channel:manage:redemptions"];

/** Only the broadcaster's own token may subscribe: free. */
const ownChannel = (condition: Readonly<Record<string, string>>, facts: AuthorizationFacts) =>
  condition.broadcaster_user_id === facts.userId ? 0 : null;

/** No authorization: anyone may subscribe; free for the channel's own token, else 1 (Twitch's rule). */
const anyChannel = (named: string | undefined, facts: AuthorizationFacts) => (named === facts.userId ? 0 : 1);

const sameBroadcaster = (condition: Readonly<Record<string, string>>, broadcasterId: string) =>
  condition.broadcaster_user_id === broadcasterId;

function broadcasterKind(scopes: readonly string[]): SubscriptionKind {
  return {
    version: "1",
    required: ["broadcaster_user_id"],
    optional: [],
    scopes,
    cost: ownChannel,
    matches: sameBroadcaster,
  };
}

const field = (event: object, key: string): unknown => (event as Record<string, unknown>)[key];

/** A chat reader's subscription: `user:read:chat` from the reader, who must not be banned there. */
const chatReaderKind: SubscriptionKind = {
  version: "1",
  required: ["broadcaster_user_id", "user_id"],
  optional: [],
  scopes: ["user:read:chat"],
  cost: (c, facts) =>
    c.user_id === facts.userId && !facts.isBanned(c.broadcaster_user_id ?? "", c.user_id) ? 0 : null,
  matches: sameBroadcaster,
};

export const SUBSCRIPTION_KINDS: Readonly<Record<string, SubscriptionKind>> = {
  [CHAT_MESSAGE_TYPE]: chatReaderKind,
  [CHAT_EVENT_TYPES.messageDelete]: chatReaderKind,
  [CHAT_EVENT_TYPES.clearUserMessages]: chatReaderKind,
  [CHAT_EVENT_TYPES.clear]: chatReaderKind,
  [CHAT_EVENT_TYPES.settingsUpdate]: chatReaderKind,
  "channel.follow": {
    version: "2",
    required: ["broadcaster_user_id", "moderator_user_id"],
    optional: [],
    scopes: ["moderator:read:followers"],
    cost(c, facts) {
      const broadcaster = c.broadcaster_user_id ?? "";
      if (c.moderator_user_id !== facts.userId) return null;
      return broadcaster === facts.userId || facts.isModerator(broadcaster, facts.userId) ? 0 : null;
    },
    matches: sameBroadcaster,
  },
  "channel.subscribe": broadcasterKind(SUBSCRIPTIONS_READ),
  "channel.subscription.message": broadcasterKind(SUBSCRIPTIONS_READ),
  "channel.subscription.gift": broadcasterKind(SUBSCRIPTIONS_READ),
  "channel.cheer": broadcasterKind(["bits:read"]),
  "channel.raid": {
    version: "1",
    required: [],
    optional: ["from_broadcaster_user_id", "to_broadcaster_user_id"],
    scopes: [],
    cost: (c, facts) => anyChannel(c.to_broadcaster_user_id ?? c.from_broadcaster_user_id, facts),
    matches: (c, _, event) =>
      c.to_broadcaster_user_id !== undefined
        ? c.to_broadcaster_user_id === field(event, "to_broadcaster_user_id")
        : c.from_broadcaster_user_id === field(event, "from_broadcaster_user_id"),
  },
  "channel.channel_points_custom_reward_redemption.add": {
    ...broadcasterKind(REDEMPTIONS_READ),
    optional: ["reward_id"],
    matches: (c, broadcasterId, event) =>
      sameBroadcaster(c, broadcasterId) &&
      (c.reward_id === undefined || c.reward_id === (field(event, "reward") as { id?: unknown } | null)?.id),
  },
  "stream.online": { ...broadcasterKind([]), cost: (c, facts) => anyChannel(c.broadcaster_user_id, facts) },
  "stream.offline": { ...broadcasterKind([]), cost: (c, facts) => anyChannel(c.broadcaster_user_id, facts) },
};

export const kindOf = (type: string): SubscriptionKind | undefined =>
  Object.hasOwn(SUBSCRIPTION_KINDS, type) ? SUBSCRIPTION_KINDS[type] : undefined;

/**
 * The condition as stored, or an error message (400): only the kind's keys, each a non-empty string,
 * the required ones present; a raid names exactly one of its two broadcasters.
 */
export function readCondition(kind: SubscriptionKind, input: unknown): Record<string, string> | string {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return "The condition field is missing.";
  const condition: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!kind.required.includes(key) && !kind.optional.includes(key))
      return `The condition field ${key} is not supported.`;
    if (typeof value !== "string" || value === "") return `The condition field ${key} is not valid.`;
    condition[key] = value;
  }
  const missing = kind.required.filter((key) => condition[key] === undefined);
  if (missing.length > 0) return `The condition field is missing ${missing.join(" or ")}.`;
  if (kind.required.length === 0 && Object.keys(condition).length !== 1) {
    return `The condition must have exactly one of ${kind.optional.join(" or ")}.`;
  }
  return condition;
}

/** The user ids a condition names (each must be a real user). */
export const namedUsers = (condition: Readonly<Record<string, string>>) =>
  Object.entries(condition)
    .filter(([key]) => key.endsWith("user_id"))
    .map(([, id]) => id);
