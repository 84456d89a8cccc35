/**
 * The simulated platform's seeded world: users and their relationships. Deterministic, so tests and
 * `serve --demo` always see the same channel, viewers and numbers.
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

export interface SimWorld {
  users: SimUser[];
}

function user(id: string, login: string, displayName: string, extra: Partial<SimUser> = {}): SimUser {
  return {
    id,
    login,
    display_name: displayName,
    type: "",
    broadcaster_type: "",
    description: `${displayName}'s channel (simulated)`,
    profile_image_url: `https://static-cdn.jtvnw.net/jtv_user_pictures/${login}-profile_image-300x300.png`,
    offline_image_url: "",
    view_count: 0,
    email: `${login}@example.test`,
    created_at: "2019-03-14T18:30:00Z",
    ...extra,
  };
}

/** The streamer demo mode logs in as, and the viewers around them. */
export const DEMO_STREAMER_LOGIN = "cuebotdemo";

export function seedWorld(): SimWorld {
  return {
    users: [
      user("100001", DEMO_STREAMER_LOGIN, "CuebotDemo", { broadcaster_type: "affiliate" }),
      user("100002", "otherstreamer", "OtherStreamer", { broadcaster_type: "partner" }),
      user("100003", "viewer_anna", "Viewer_Anna"),
      user("100004", "modbob", "ModBob"),
      user("100005", "vipcarla", "VipCarla"),
      user("100006", "subdave", "SubDave"),
      user("100007", "lurker_eve", "Lurker_Eve"),
      user("100008", "데모시청자", "데모시청자"),
    ],
  };
}
