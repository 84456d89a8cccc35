/**
 * The simulated platform's seeded world: users, channels, streams, follows, moderators, VIPs,
 * subscriptions, chatters, clips and bans. Deterministic (no randomness, dates relative to a fixed
 * epoch), so tests and `serve --demo` always see the same channel, viewers and numbers.
 */

export interface SimUser {
  id: string;
  login: string;
  display_name: string;
  type: "" | "admin" | "global_mod" | "staff";
  broadcaster_type: "" | "affiliate" | "partner";
  description: string;
  profile_image_url: string;
  offline_image_url: string;
  view_count: number;
  email: string;
  created_at: string;
}

export interface SimChannel {
  broadcaster_id: string;
  broadcaster_language: string;
  game_id: string;
  game_name: string;
  title: string;
  delay: number;
  tags: string[];
  content_classification_labels: string[];
  is_branded_content: boolean;
}

export interface SimStream {
  id: string;
  user_id: string;
  game_id: string;
  game_name: string;
  title: string;
  tags: string[];
  viewer_count: number;
  /** RFC 3339. */
  started_at: string;
  language: string;
}

export interface SimFollow {
  broadcaster_id: string;
  user_id: string;
  /** RFC 3339. */
  followed_at: string;
}

export interface SimSubscription {
  broadcaster_id: string;
  user_id: string;
  tier: "1000" | "2000" | "3000";
  is_gift: boolean;
  gifter_id: string;
  plan_name: string;
}

export interface SimClip {
  id: string;
  broadcaster_id: string;
  creator_id: string;
  video_id: string;
  game_id: string;
  language: string;
  title: string;
  view_count: number;
  /** RFC 3339. */
  created_at: string;
  duration: number;
  vod_offset: number | null;
  is_featured: boolean;
}

export interface SimBan {
  broadcaster_id: string;
  user_id: string;
  moderator_id: string;
  reason: string;
  /** RFC 3339. */
  created_at: string;
  /** RFC 3339 for a timeout, null for a permanent ban. */
  expires_at: string | null;
}

export interface SimWorld {
  users: SimUser[];
  channels: SimChannel[];
  /** Live streams only; a channel missing here is offline. */
  streams: SimStream[];
  follows: SimFollow[];
  /** broadcaster id → moderator user ids. */
  moderators: Map<string, string[]>;
  /** broadcaster id → VIP user ids. */
  vips: Map<string, string[]>;
  subscriptions: SimSubscription[];
  /** broadcaster id → user ids currently in chat (in join order). */
  chatters: Map<string, string[]>;
  clips: SimClip[];
  bans: SimBan[];
}

/** Everything time-based is relative to this instant, so tests can put a ManualClock next to it. */
export const SIM_EPOCH = Date.UTC(2026, 10, 21, 12, 0, 0);

/** The streamer demo mode logs in as, and the viewers around them. */
export const DEMO_STREAMER_LOGIN = "cuebotdemo";

export const SIM_IDS = {
  demo: "100001",
  other: "100002",
  anna: "100003",
  bob: "100004",
  carla: "100005",
  dave: "100006",
  eve: "100007",
  korean: "100008",
  offline: "100009",
} as const;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const DAY = 24 * 60 * 60_000;

/**
 * A simulated avatar: an SVG data URL (initial on a colour from the login), so a demo page loads no
 * image from another origin and works offline. Real Twitch answers an https URL here.
 */
export function avatarDataUrl(login: string, displayName: string): string {
  let hash = 0;
  for (const ch of login) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) % 360;
  const initial = [...displayName][0]?.toUpperCase() ?? "?";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300"><rect width="300" height="300" fill="hsl(${hash} 55% 38%)"/><text x="150" y="150" dy=".35em" font-family="sans-serif" font-size="150" text-anchor="middle" fill="#fff">${initial}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function user(id: string, login: string, displayName: string, extra: Partial<SimUser> = {}): SimUser {
  return {
    id,
    login,
    display_name: displayName,
    type: "",
    broadcaster_type: "",
    description: `${displayName}'s channel (simulated)`,
    profile_image_url: avatarDataUrl(login, displayName),
    offline_image_url: "",
    view_count: 0,
    email: `${login}@example.test`,
    created_at: "2019-03-14T18:30:00Z",
    ...extra,
  };
}

function channel(broadcasterId: string, gameId: string, gameName: string, title: string): SimChannel {
  return {
    broadcaster_id: broadcasterId,
    broadcaster_language: "en",
    game_id: gameId,
    game_name: gameName,
    title,
    delay: 0,
    tags: ["English"],
    content_classification_labels: [],
    is_branded_content: false,
  };
}

/** Forty generated viewers (viewer01…viewer40) fill the chat so paging is exercised. */
const GENERATED_VIEWERS = Array.from({ length: 40 }, (_, i) => {
  const n = String(i + 1).padStart(2, "0");
  return user(String(200_000 + i + 1), `viewer${n}`, `Viewer${n}`);
});

/** `epoch` anchors streams, recent follows and clips (tests: SIM_EPOCH; demo mode: start-up time). */
export function seedWorld(epoch = SIM_EPOCH): SimWorld {
  const users = [
    user(SIM_IDS.demo, DEMO_STREAMER_LOGIN, "CuebotDemo", { broadcaster_type: "affiliate" }),
    user(SIM_IDS.other, "otherstreamer", "OtherStreamer", { broadcaster_type: "partner" }),
    user(SIM_IDS.anna, "viewer_anna", "Viewer_Anna"),
    user(SIM_IDS.bob, "modbob", "ModBob"),
    user(SIM_IDS.carla, "vipcarla", "VipCarla"),
    user(SIM_IDS.dave, "subdave", "SubDave"),
    user(SIM_IDS.eve, "lurker_eve", "Lurker_Eve"),
    user(SIM_IDS.korean, "데모시청자", "데모시청자"),
    user(SIM_IDS.offline, "sleepystreamer", "SleepyStreamer", { broadcaster_type: "affiliate" }),
    ...GENERATED_VIEWERS,
  ];

  const channels = [
    channel(SIM_IDS.demo, "509658", "Just Chatting", "Building cuebot live"),
    channel(SIM_IDS.other, "516575", "VALORANT", "Ranked grind to Immortal"),
    channel(SIM_IDS.offline, "27471", "Minecraft", "Cozy builds"),
    ...users.filter((u) => !hasOwnChannel(u.id)).map((u) => channel(u.id, "", "", "")),
  ];

  const streams: SimStream[] = [
    {
      id: "4000000001",
      user_id: SIM_IDS.demo,
      game_id: "509658",
      game_name: "Just Chatting",
      title: "Building cuebot live",
      tags: ["English"],
      viewer_count: 47,
      started_at: iso(epoch - 2 * 60 * 60_000 - 15 * 60_000),
      language: "en",
    },
    {
      id: "4000000002",
      user_id: SIM_IDS.other,
      game_id: "516575",
      game_name: "VALORANT",
      title: "Ranked grind to Immortal",
      tags: ["English", "FPS"],
      viewer_count: 1520,
      started_at: iso(epoch - 5 * 60 * 60_000),
      language: "en",
    },
  ];

  /** Follow dates chosen so calendar arithmetic (months, leap days, weeks) is exercised. */
  const follows: SimFollow[] = [
    { broadcaster_id: SIM_IDS.demo, user_id: SIM_IDS.anna, followed_at: "2024-01-15T10:00:00Z" },
    { broadcaster_id: SIM_IDS.demo, user_id: SIM_IDS.bob, followed_at: "2023-06-01T08:30:00Z" },
    { broadcaster_id: SIM_IDS.demo, user_id: SIM_IDS.carla, followed_at: "2026-11-07T12:00:00Z" },
    { broadcaster_id: SIM_IDS.demo, user_id: SIM_IDS.dave, followed_at: "2025-02-28T23:59:59Z" },
    { broadcaster_id: SIM_IDS.demo, user_id: SIM_IDS.korean, followed_at: "2026-11-21T11:00:00Z" },
    { broadcaster_id: SIM_IDS.other, user_id: SIM_IDS.anna, followed_at: "2022-03-01T00:00:00Z" },
    { broadcaster_id: SIM_IDS.other, user_id: SIM_IDS.demo, followed_at: "2021-07-04T18:00:00Z" },
    ...GENERATED_VIEWERS.map((v, i) => ({
      broadcaster_id: SIM_IDS.demo,
      user_id: v.id,
      followed_at: iso(epoch - (i + 1) * 9 * DAY),
    })),
  ];

  const subscriptions: SimSubscription[] = [
    {
      broadcaster_id: SIM_IDS.demo,
      user_id: SIM_IDS.demo,
      tier: "1000",
      is_gift: false,
      gifter_id: "",
      plan_name: "Channel Subscription (cuebotdemo)",
    },
    {
      broadcaster_id: SIM_IDS.demo,
      user_id: SIM_IDS.dave,
      tier: "1000",
      is_gift: false,
      gifter_id: "",
      plan_name: "Channel Subscription (cuebotdemo)",
    },
    {
      broadcaster_id: SIM_IDS.demo,
      user_id: "200003",
      tier: "2000",
      is_gift: true,
      gifter_id: SIM_IDS.anna,
      plan_name: "Channel Subscription (cuebotdemo): $9.99 Sub",
    },
  ];

  const clipTitles = [
    "That clutch though",
    "Chat goes wild",
    "Cat walks on keyboard",
    "First try!",
    "The bug that fixed itself",
    "Speedrun of the setup",
    "Raid incoming",
    "Hype train level 5",
  ];
  /** 25 clips over the last ~60 days, view counts all distinct so ordering is unambiguous. */
  const clips: SimClip[] = Array.from({ length: 25 }, (_, i) => ({
    id: `SimClip${String(i + 1).padStart(2, "0")}-CuebotDemo`,
    broadcaster_id: SIM_IDS.demo,
    creator_id: [SIM_IDS.anna, SIM_IDS.bob, SIM_IDS.carla, SIM_IDS.dave][i % 4]!,
    video_id: "",
    game_id: "509658",
    language: "en",
    title: clipTitles[i % clipTitles.length]!,
    view_count: 1000 - i * 37,
    created_at: iso(epoch - (i * 2.5 + 0.5) * DAY),
    duration: 20 + (i % 5) * 5.5,
    vod_offset: null,
    is_featured: i % 7 === 0,
  }));

  return {
    users,
    channels,
    streams,
    follows,
    moderators: new Map([[SIM_IDS.demo, [SIM_IDS.bob]]]),
    vips: new Map([[SIM_IDS.demo, [SIM_IDS.carla]]]),
    subscriptions,
    chatters: new Map([
      [
        SIM_IDS.demo,
        [
          SIM_IDS.demo,
          SIM_IDS.anna,
          SIM_IDS.bob,
          SIM_IDS.carla,
          SIM_IDS.dave,
          SIM_IDS.eve,
          SIM_IDS.korean,
          ...GENERATED_VIEWERS.map((v) => v.id),
        ],
      ],
      [SIM_IDS.other, [SIM_IDS.other, SIM_IDS.anna]],
    ]),
    clips,
    bans: [],
  };
}

function hasOwnChannel(id: string): boolean {
  return id === SIM_IDS.demo || id === SIM_IDS.other || id === SIM_IDS.offline;
}
