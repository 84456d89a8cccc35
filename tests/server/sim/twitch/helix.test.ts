import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { ManualClock } from "../../../../server/core/clock.ts";
import type { TwitchSimulator } from "../../../../server/sim/twitch/server.ts";
import { SIM_EPOCH, SIM_IDS } from "../../../../server/sim/twitch/world.ts";
import { HelixClient, HelixError } from "../../../../server/twitch/helix-client.ts";
import {
  callHelix,
  type HelixAnswer,
  type HelixQuery,
  startClockedSimulator,
} from "../../../helpers/helix.ts";
import { HELIX_OPENAPI, OpenApiValidator } from "../../../helpers/openapi.ts";

/**
 * The simulator's Helix endpoints against real Twitch's contract: reference/twitch.md §2 for the
 * semantics, the Helix OpenAPI for the bodies. Every test gets a fresh simulator on a ManualClock
 * at the seeded world's epoch, so state (bans, clips, cooldowns) never leaks between tests.
 */

const helix = new OpenApiValidator(HELIX_OPENAPI);
let sim: TwitchSimulator;
let clock: ManualClock;

beforeEach(() => {
  ({ sim, clock } = startClockedSimulator());
});
afterEach(async () => {
  await sim.stop();
});

const tokenFor = (login: string, scopes: string[]) => sim.issueUserToken(login, scopes).accessToken;

interface Page<T = Record<string, unknown>> {
  data: T[];
  pagination: { cursor?: string };
  total?: number;
  points?: number;
}

const get = <T = Page>(path: string, token: string, query?: HelixQuery) =>
  callHelix<T>(sim, token, "GET", path, { query });
const post = <T = unknown>(path: string, token: string, query?: HelixQuery, body?: unknown) =>
  callHelix<T>(sim, token, "POST", path, { query, body });
const del = <T = unknown>(path: string, token: string, query?: HelixQuery) =>
  callHelix<T>(sim, token, "DELETE", path, { query });

/** Asserts a Helix error: the status and the `{error, status, message}` body (reference §2.0). */
function expectError(answer: HelixAnswer<unknown>, status: number, message?: string | RegExp): void {
  expect(answer.status).toBe(status);
  const body = answer.body as { error: string; status: number; message: string };
  expect(Object.keys(body).sort()).toEqual(["error", "message", "status"]);
  expect(body.status).toBe(status);
  expect(typeof body.error).toBe("string");
  expect(body.error.length).toBeGreaterThan(0);
  if (typeof message === "string") expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
}

/** Walks every page with `after`; returns the items and checks the last page says `pagination: {}`. */
async function walk<T>(
  path: string,
  token: string,
  query: HelixQuery,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let after: string | undefined;
  for (let pages = 1; pages < 100; pages++) {
    const res = await get<Page<T>>(path, token, { ...query, after });
    expect(res.status).toBe(200);
    items.push(...res.body.data);
    after = res.body.pagination.cursor;
    if (!after) {
      expect(res.body.pagination).toEqual({});
      return { items, pages };
    }
  }
  throw new Error("pagination never ended");
}

const DEMO = SIM_IDS.demo;
const HOUR = 60 * 60_000;

describe("conventions shared by every endpoint", () => {
  test("the simulator serves exactly the Helix routes cuebot calls", () => {
    expect(sim.helixRoutes().sort()).toEqual(
      [
        "DELETE /eventsub/subscriptions",
        "DELETE /moderation/bans",
        "DELETE /moderation/chat",
        "GET /chat/settings",
        "PATCH /chat/settings",
        "GET /channels",
        "GET /channels/followers",
        "GET /channels/vips",
        "GET /chat/chatters",
        "GET /clips",
        "GET /eventsub/subscriptions",
        "GET /moderation/banned",
        "GET /moderation/channels",
        "GET /moderation/moderators",
        "GET /streams",
        "GET /subscriptions",
        "GET /users",
        "POST /chat/messages",
        "POST /chat/shoutouts",
        "POST /clips",
        "POST /eventsub/subscriptions",
        "POST /moderation/bans",
      ].sort(),
    );
  });

  const scoped: [string, string, string, HelixQuery][] = [
    ["POST", "/clips", "clips:edit", { broadcaster_id: DEMO }],
    ["GET", "/chat/chatters", "moderator:read:chatters", { broadcaster_id: DEMO, moderator_id: DEMO }],
    [
      "POST",
      "/chat/shoutouts",
      "moderator:manage:shoutouts",
      { from_broadcaster_id: DEMO, to_broadcaster_id: SIM_IDS.other, moderator_id: DEMO },
    ],
    [
      "POST",
      "/moderation/bans",
      "moderator:manage:banned_users",
      { broadcaster_id: DEMO, moderator_id: DEMO },
    ],
    [
      "DELETE",
      "/moderation/bans",
      "moderator:manage:banned_users",
      { broadcaster_id: DEMO, moderator_id: DEMO, user_id: SIM_IDS.eve },
    ],
    [
      "DELETE",
      "/moderation/chat",
      "moderator:manage:chat_messages",
      { broadcaster_id: DEMO, moderator_id: DEMO },
    ],
    [
      "PATCH",
      "/chat/settings",
      "moderator:manage:chat_settings",
      { broadcaster_id: DEMO, moderator_id: DEMO },
    ],
    ["GET", "/moderation/banned", "moderation:read", { broadcaster_id: DEMO }],
    ["GET", "/moderation/moderators", "moderation:read", { broadcaster_id: DEMO }],
    ["GET", "/channels/vips", "channel:read:vips", { broadcaster_id: DEMO }],
    ["GET", "/subscriptions", "channel:read:subscriptions", { broadcaster_id: DEMO }],
  ];

  test("a missing scope is 401 'Missing scope: <scope>'", async () => {
    const token = tokenFor("cuebotdemo", ["user:read:email"]);
    for (const [method, path, scope, query] of scoped) {
      const res = await callHelix(sim, token, method, path, { query });
      expectError(res, 401, `Missing scope: ${scope}`);
    }
  });

  test("user-token endpoints refuse an app access token with 401", async () => {
    const form = new URLSearchParams({
      client_id: sim.client.id,
      client_secret: sim.client.secret,
      grant_type: "client_credentials",
    });
    const app = (await (
      await fetch(`${sim.authUrl}/oauth2/token`, { method: "POST", body: form })
    ).json()) as {
      access_token: string;
    };
    for (const [method, path, , query] of scoped) {
      expectError(await callHelix(sim, app.access_token, method, path, { query }), 401);
    }
    // App tokens are fine where Twitch allows them.
    expect((await get("/clips", app.access_token, { broadcaster_id: DEMO })).status).toBe(200);
    expect((await get("/streams", app.access_token)).status).toBe(200);
    expect((await get("/channels", app.access_token, { broadcaster_id: DEMO })).status).toBe(200);
  });

  test("`first` outside the documented range is 400; the bound itself is accepted", async () => {
    const owner = tokenFor("cuebotdemo", [
      "moderator:read:followers",
      "moderator:read:chatters",
      "moderation:read",
      "channel:read:vips",
      "channel:read:subscriptions",
    ]);
    const cases: [string, HelixQuery, number][] = [
      ["/channels/followers", { broadcaster_id: DEMO }, 100],
      ["/clips", { broadcaster_id: DEMO }, 100],
      ["/streams", {}, 100],
      ["/chat/chatters", { broadcaster_id: DEMO, moderator_id: DEMO }, 1000],
      ["/moderation/banned", { broadcaster_id: DEMO }, 100],
      ["/moderation/moderators", { broadcaster_id: DEMO }, 100],
      ["/channels/vips", { broadcaster_id: DEMO }, 100],
      ["/subscriptions", { broadcaster_id: DEMO }, 100],
    ];
    for (const [path, query, max] of cases) {
      for (const bad of [0, max + 1, "ten", -1]) {
        expectError(await get(path, owner, { ...query, first: bad }), 400, /first/);
      }
      expect((await get(path, owner, { ...query, first: max })).status).toBe(200);
      expect((await get(path, owner, { ...query, first: 1 })).status).toBe(200);
    }
  });

  test("a garbled cursor is 400", async () => {
    const owner = tokenFor("cuebotdemo", ["moderator:read:chatters"]);
    const res = await get("/chat/chatters", owner, {
      broadcaster_id: DEMO,
      moderator_id: DEMO,
      after: "%%%",
    });
    expectError(res, 400);
  });

  test("Ratelimit-* headers ride on 200, 204, 4xx and 429 answers", async () => {
    const owner = tokenFor("cuebotdemo", ["moderator:manage:shoutouts"]);
    const answers = [
      await get("/users", owner),
      await post("/chat/shoutouts", owner, {
        from_broadcaster_id: DEMO,
        to_broadcaster_id: SIM_IDS.other,
        moderator_id: DEMO,
      }),
      await get("/channels", owner),
      await get("/nope", owner),
      await get("/users", "invalid-token"),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 204, 400, 404, 401]);
    for (const a of answers) {
      expect(a.headers.get("ratelimit-limit")).toBe("800");
      expect(a.headers.get("ratelimit-remaining")).toMatch(/^\d+$/);
      expect(Number(a.headers.get("ratelimit-reset"))).toBe(Math.ceil((SIM_EPOCH + 60_000) / 1000));
    }
    expect(Number(answers[3]!.headers.get("ratelimit-remaining"))).toBe(796);
  });

  test("an empty bucket answers 429 until the clock reaches Ratelimit-Reset", async () => {
    const owner = tokenFor("cuebotdemo", []);
    sim.knobs.rateLimit.remaining = 2;
    expect((await get("/users", owner)).status).toBe(200);
    const last = await get("/users", owner);
    expect(last.status).toBe(200);
    expect(last.headers.get("ratelimit-remaining")).toBe("0");
    const limited = await get("/users", owner);
    expectError(limited, 429);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    const reset = Number(limited.headers.get("ratelimit-reset")) * 1000;
    clock.set(reset);
    const again = await get("/users", owner);
    expect(again.status).toBe(200);
    expect(again.headers.get("ratelimit-remaining")).toBe("799");
    expect(Number(again.headers.get("ratelimit-reset")) * 1000).toBe(reset + 60_000);
  });
});

describe("knobs", () => {
  test("failNext makes the next N calls of one route fail with a realistic body", async () => {
    const token = tokenFor("cuebotdemo", ["clips:edit"]);
    sim.knobs.failNext.set("POST /clips", { status: 503, times: 2 });
    expect(await post("/clips", token, { broadcaster_id: DEMO })).toMatchObject({
      status: 503,
      body: { error: "Service Unavailable", status: 503, message: "" },
    });
    // Other routes are untouched.
    expect((await get("/clips", token, { broadcaster_id: DEMO })).status).toBe(200);
    expect((await post("/clips", token, { broadcaster_id: DEMO })).status).toBe(503);
    expect((await post("/clips", token, { broadcaster_id: DEMO })).status).toBe(202);
    expect(sim.knobs.failNext.has("POST /clips")).toBe(false);

    sim.knobs.failNext.set("POST /moderation/bans", { status: 409 });
    const banner = tokenFor("cuebotdemo", ["moderator:manage:banned_users"]);
    const conflict = await post(
      "/moderation/bans",
      banner,
      { broadcaster_id: DEMO, moderator_id: DEMO },
      { data: { user_id: SIM_IDS.eve } },
    );
    expectError(conflict, 409, /ban state/);
    expect(sim.world.bans).toEqual([]);
    sim.knobs.failNext.set("GET /users", { status: 429, message: "slow down" });
    expectError(await get("/users", token), 429, "slow down");
  });

  test("cuebot's client retries a 503 once, so one injected failure is invisible to it", async () => {
    const token = tokenFor("cuebotdemo", []);
    const client = new HelixClient({ baseUrl: sim.helixUrl, clientId: sim.client.id });
    sim.knobs.failNext.set("GET /users", { status: 503 });
    expect((await client.getUsers(token))[0]?.login).toBe("cuebotdemo");
    expect(sim.calls.get("GET /helix/users")).toBe(2);
    sim.knobs.failNext.set("GET /users", { status: 500 });
    const error = await client.getUsers(token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HelixError);
    expect((error as HelixError).status).toBe(500);
  });

  test("routeLatencyMs delays one route enough to make a client time out", async () => {
    const token = tokenFor("cuebotdemo", []);
    const client = new HelixClient({ baseUrl: sim.helixUrl, clientId: sim.client.id, timeoutMs: 100 });
    sim.knobs.routeLatencyMs.set("GET /users", 400);
    const error = await client.getUsers(token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HelixError);
    expect((error as HelixError).status).toBeNull();
    const started = performance.now();
    expect((await get("/streams", token)).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(300);
  });

  test("setLive starts and ends streams; Get Streams and Create Clip follow", async () => {
    const token = tokenFor("sleepystreamer", ["clips:edit"]);
    const sleepy = SIM_IDS.offline;
    expect((await get<Page>("/streams", token, { user_id: sleepy })).body.data).toEqual([]);
    expectError(await post("/clips", token, { broadcaster_id: sleepy }), 404);
    clock.advance(HOUR);
    sim.setLive(sleepy, true, { viewer_count: 12 });
    const live = await get<Page>("/streams", token, { user_id: sleepy });
    expect(live.body.data).toHaveLength(1);
    expect(live.body.data[0]).toMatchObject({
      user_login: "sleepystreamer",
      game_name: "Minecraft",
      title: "Cozy builds",
      viewer_count: 12,
      started_at: "2026-11-21T13:00:00Z",
      type: "live",
    });
    expect(helix.check("/streams", "get", "200", live.body)).toEqual([]);
    expect((await post("/clips", token, { broadcaster_id: sleepy })).status).toBe(202);
    sim.setLive(sleepy, false);
    expect((await get<Page>("/streams", token, { user_id: sleepy })).body.data).toEqual([]);
    expect(() => sim.setLive("999999999", true)).toThrow();
  });
});

describe("GET /channels", () => {
  test("returns each known broadcaster once, online or not, and validates", async () => {
    const token = tokenFor("viewer_anna", []);
    const res = await get<Page>("/channels", token, {
      broadcaster_id: [DEMO, SIM_IDS.offline, DEMO, "424242424"],
    });
    expect(res.status).toBe(200);
    expect(helix.check("/channels", "get", "200", res.body)).toEqual([]);
    expect(res.body.data.map((c) => c.broadcaster_login)).toEqual(["cuebotdemo", "sleepystreamer"]);
    expect(res.body.data[1]).toMatchObject({ title: "Cozy builds", game_name: "Minecraft" });
  });

  test("broadcaster_id is required and limited to 100", async () => {
    const token = tokenFor("viewer_anna", []);
    expectError(await get("/channels", token), 400);
    const many = Array.from({ length: 101 }, (_, i) => String(300_000 + i));
    expectError(await get("/channels", token, { broadcaster_id: many }), 400);
  });
});

describe("GET /streams", () => {
  test("only live channels, most viewers first, validating", async () => {
    const token = tokenFor("viewer_anna", []);
    const res = await get<Page>("/streams", token);
    expect(res.status).toBe(200);
    expect(helix.check("/streams", "get", "200", res.body)).toEqual([]);
    expect(res.body.data.map((s) => s.user_login)).toEqual(["otherstreamer", "cuebotdemo"]);
    expect(res.body.pagination).toEqual({});
    expect(res.body.data[1]).toMatchObject({
      id: "4000000001",
      type: "live",
      viewer_count: 47,
      started_at: "2026-11-21T09:45:00Z",
      tag_ids: [],
      is_mature: false,
    });
    expect(res.body.data[1]!.thumbnail_url).toContain("{width}x{height}");
  });

  test("user_id and user_login are repeated filters; an offline broadcaster yields nothing", async () => {
    const token = tokenFor("viewer_anna", []);
    const mixed = await get<Page>("/streams", token, {
      user_id: [SIM_IDS.offline],
      user_login: ["CuebotDemo", "otherstreamer"],
      type: "live",
    });
    expect(mixed.body.data.map((s) => s.user_id).sort()).toEqual([DEMO, SIM_IDS.other]);
    const offline = await get<Page>("/streams", token, { user_login: "sleepystreamer" });
    expect(offline.body).toEqual({ data: [], pagination: {} });
  });

  test("pages forward with after and back with before; a bad type is 400", async () => {
    const token = tokenFor("viewer_anna", []);
    const first = await get<Page>("/streams", token, { first: 1 });
    expect(first.body.data.map((s) => s.user_login)).toEqual(["otherstreamer"]);
    const cursor = first.body.pagination.cursor!;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = await get<Page>("/streams", token, { first: 1, after: cursor });
    expect(second.body.data.map((s) => s.user_login)).toEqual(["cuebotdemo"]);
    expect(second.body.pagination).toEqual({});
    const back = await get<Page>("/streams", token, { first: 1, before: cursor });
    expect(back.body.data).toEqual([]);
    expectError(await get("/streams", token, { type: "vod" }), 400);
  });
});

describe("GET /channels/followers", () => {
  interface Follower {
    user_id: string;
    user_login: string;
    user_name: string;
    followed_at: string;
  }

  test("the broadcaster sees followers newest first, 20 by default, with total; validates", async () => {
    const token = tokenFor("cuebotdemo", ["moderator:read:followers"]);
    const res = await get<Page<Follower>>("/channels/followers", token, { broadcaster_id: DEMO });
    expect(res.status).toBe(200);
    expect(helix.check("/channels/followers", "get", "200", res.body)).toEqual([]);
    expect(res.body.total).toBe(45);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.data[0]).toEqual({
      user_id: SIM_IDS.korean,
      user_login: "데모시청자",
      user_name: "데모시청자",
      followed_at: "2026-11-21T11:00:00Z",
    });
    const times = res.body.data.map((f) => Date.parse(f.followed_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(res.body.pagination.cursor).toBeString();
    const { items, pages } = await walk<Follower>("/channels/followers", token, {
      broadcaster_id: DEMO,
      first: 20,
    });
    expect(pages).toBe(3);
    expect(new Set(items.map((f) => f.user_id)).size).toBe(45);
  });

  test("a moderator is trusted like the broadcaster, including the user_id check", async () => {
    const token = tokenFor("modbob", ["moderator:read:followers"]);
    const follows = await get<Page<Follower>>("/channels/followers", token, {
      broadcaster_id: DEMO,
      user_id: SIM_IDS.dave,
    });
    expect(helix.check("/channels/followers", "get", "200", follows.body)).toEqual([]);
    expect(follows.body.data.map((f) => f.followed_at)).toEqual(["2025-02-28T23:59:59Z"]);
    expect(follows.body.pagination).toEqual({});
    // Not following: empty data, the channel's total and `pagination: {}` (the reference's Example 2).
    const not = await get("/channels/followers", token, { broadcaster_id: DEMO, user_id: SIM_IDS.eve });
    expect(not.body).toEqual({ total: 45, data: [], pagination: {} });
  });

  test("anyone else gets total only, and 401 when asking about one user", async () => {
    const viewer = tokenFor("viewer_anna", ["moderator:read:followers"]);
    const totalOnly = await get("/channels/followers", viewer, { broadcaster_id: DEMO });
    expect(totalOnly.status).toBe(200);
    expect(totalOnly.body).toEqual({ total: 45, data: [], pagination: {} });
    expect(helix.check("/channels/followers", "get", "200", totalOnly.body)).toEqual([]);
    expectError(
      await get("/channels/followers", viewer, { broadcaster_id: DEMO, user_id: SIM_IDS.dave }),
      401,
    );
    // The broadcaster without the scope is untrusted too (the endpoint's description).
    const unscoped = tokenFor("cuebotdemo", []);
    expect((await get("/channels/followers", unscoped, { broadcaster_id: DEMO })).body).toEqual({
      total: 45,
      data: [],
      pagination: {},
    });
    expectError(
      await get("/channels/followers", unscoped, { broadcaster_id: DEMO, user_id: SIM_IDS.dave }),
      401,
    );
  });

  test("broadcaster_id is required and must exist", async () => {
    const token = tokenFor("cuebotdemo", ["moderator:read:followers"]);
    expectError(await get("/channels/followers", token), 400);
    expectError(await get("/channels/followers", token, { broadcaster_id: "999999999" }), 400);
  });
});

describe("POST /clips", () => {
  test("202 {data:[{id, edit_url}]}; the clip then shows up in Get Clips", async () => {
    const token = tokenFor("viewer_anna", ["clips:edit"]);
    clock.advance(90_000);
    const res = await post<{ data: { id: string; edit_url: string }[] }>("/clips", token, {
      broadcaster_id: DEMO,
    });
    expect(res.status).toBe(202);
    expect(helix.check("/clips", "post", "202", res.body)).toEqual([]);
    const { id, edit_url } = res.body.data[0]!;
    expect(edit_url).toBe(`https://www.twitch.tv/cuebotdemo/clip/${id}`);
    const found = await get<Page>("/clips", token, { id });
    expect(helix.check("/clips", "get", "200", found.body)).toEqual([]);
    expect(found.body.data).toHaveLength(1);
    expect(found.body.data[0]).toMatchObject({
      id,
      broadcaster_id: DEMO,
      broadcaster_name: "CuebotDemo",
      creator_id: SIM_IDS.anna,
      creator_name: "Viewer_Anna",
      title: "Building cuebot live", // no title given: the stream's
      duration: 30,
      view_count: 0,
      created_at: "2026-11-21T12:01:30Z",
      vod_offset: null,
    });
    expect(sim.world.clips.some((c) => c.id === id)).toBe(true);
  });

  test("title and duration (5–60, 0.1 precision) are optional and checked", async () => {
    const token = tokenFor("cuebotdemo", ["clips:edit"]);
    const made = await post<{ data: { id: string }[] }>("/clips", token, {
      broadcaster_id: DEMO,
      title: "Nice one",
      duration: 12.5,
    });
    expect(made.status).toBe(202);
    const clip = sim.world.clips.find((c) => c.id === made.body.data[0]!.id);
    expect(clip).toMatchObject({ title: "Nice one", duration: 12.5 });
    for (const duration of [5, 60]) {
      expect((await post("/clips", token, { broadcaster_id: DEMO, duration })).status).toBe(202);
    }
    for (const duration of [4.9, 60.1, 12.34, "long", "1e1000"]) {
      expectError(await post("/clips", token, { broadcaster_id: DEMO, duration }), 400);
    }
  });

  test("offline broadcaster → 404 (not twitch-cli's 400); missing/unknown broadcaster → 400", async () => {
    const token = tokenFor("cuebotdemo", ["clips:edit"]);
    expectError(await post("/clips", token, { broadcaster_id: SIM_IDS.offline }), 404);
    expectError(await post("/clips", token), 400);
    expectError(await post("/clips", token, { broadcaster_id: "999999999" }), 400);
  });

  test("a caller banned or timed out in the channel gets 403", async () => {
    sim.world.bans.push({
      broadcaster_id: DEMO,
      user_id: SIM_IDS.eve,
      moderator_id: DEMO,
      reason: "",
      created_at: "2026-11-21T11:59:00Z",
      expires_at: "2026-11-21T12:05:00Z",
    });
    const token = tokenFor("lurker_eve", ["clips:edit"]);
    expectError(await post("/clips", token, { broadcaster_id: DEMO }), 403);
    clock.advance(5 * 60_000); // the timeout ends
    expect((await post("/clips", token, { broadcaster_id: DEMO })).status).toBe(202);
  });
});

describe("GET /clips", () => {
  interface Clip {
    id: string;
    view_count: number;
    created_at: string;
    is_featured: boolean;
    url: string;
    embed_url: string;
    thumbnail_url: string;
    broadcaster_name: string;
    creator_name: string;
    vod_offset: number | null;
  }

  test("by broadcaster: most viewed first, 20 by default, every field; validates", async () => {
    const token = tokenFor("viewer_anna", []);
    const res = await get<Page<Clip>>("/clips", token, { broadcaster_id: DEMO });
    expect(res.status).toBe(200);
    expect(helix.check("/clips", "get", "200", res.body)).toEqual([]);
    expect(res.body.data).toHaveLength(20);
    const views = res.body.data.map((c) => c.view_count);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    expect(res.body.data[0]).toMatchObject({
      id: "SimClip01-CuebotDemo",
      url: "https://clips.twitch.tv/SimClip01-CuebotDemo",
      embed_url: "https://clips.twitch.tv/embed?clip=SimClip01-CuebotDemo",
      broadcaster_name: "CuebotDemo",
      creator_name: "Viewer_Anna",
      vod_offset: null,
    });
    expect(res.body.data[0]!.thumbnail_url).toStartWith("https://");
    const { items } = await walk<Clip>("/clips", token, { broadcaster_id: DEMO });
    expect(items).toHaveLength(25);
    // Ordered by views, not by the world's insertion order.
    sim.world.clips.push({ ...sim.world.clips[24]!, id: "ViralLast-CuebotDemo", view_count: 99_999 });
    const top = await get<Page<Clip>>("/clips", token, { broadcaster_id: DEMO, first: 1 });
    expect(top.body.data.map((c) => c.id)).toEqual(["ViralLast-CuebotDemo"]);
  });

  test("before walks back to the previous page", async () => {
    const token = tokenFor("viewer_anna", []);
    const p1 = await get<Page<Clip>>("/clips", token, { broadcaster_id: DEMO, first: 10 });
    const p2 = await get<Page<Clip>>("/clips", token, {
      broadcaster_id: DEMO,
      first: 10,
      after: p1.body.pagination.cursor,
    });
    expect(p2.body.data[0]!.id).toBe("SimClip11-CuebotDemo");
    const back = await get<Page<Clip>>("/clips", token, {
      broadcaster_id: DEMO,
      first: 10,
      before: p2.body.pagination.cursor,
    });
    expect(back.body.data.map((c) => c.id)).toEqual(p1.body.data.map((c) => c.id));
    expect(back.body.pagination).toEqual({});
    expectError(
      await get("/clips", token, { broadcaster_id: DEMO, after: p1.body.pagination.cursor, before: "x" }),
      400,
    );
  });

  test("by id: in the order asked, duplicates and unknown ids dropped", async () => {
    const token = tokenFor("viewer_anna", []);
    const res = await get<Page<Clip>>("/clips", token, {
      id: ["SimClip05-CuebotDemo", "nope", "SimClip02-CuebotDemo", "SimClip05-CuebotDemo"],
    });
    expect(res.body.data.map((c) => c.id)).toEqual(["SimClip05-CuebotDemo", "SimClip02-CuebotDemo"]);
    expect(res.body.pagination).toEqual({});
  });

  test("exactly one of broadcaster_id, game_id, id", async () => {
    const token = tokenFor("viewer_anna", []);
    expectError(await get("/clips", token), 400);
    expectError(await get("/clips", token, { broadcaster_id: DEMO, game_id: "509658" }), 400);
    expectError(await get("/clips", token, { id: "SimClip01-CuebotDemo", broadcaster_id: DEMO }), 400);
    const byGame = await get<Page<Clip>>("/clips", token, { game_id: "509658", first: 100 });
    expect(byGame.body.data).toHaveLength(25);
    expectError(await get("/clips", token, { game_id: "31337" }), 404);
  });

  test("started_at opens a one-week window unless ended_at closes it; ended_at alone is 400", async () => {
    const token = tokenFor("viewer_anna", []);
    const weekAgo = new Date(SIM_EPOCH - 7 * 24 * HOUR).toISOString();
    const week = await get<Page<Clip>>("/clips", token, { broadcaster_id: DEMO, started_at: weekAgo });
    expect(week.body.data.map((c) => c.id)).toEqual([
      "SimClip01-CuebotDemo",
      "SimClip02-CuebotDemo",
      "SimClip03-CuebotDemo",
    ]);
    const narrow = await get<Page<Clip>>("/clips", token, {
      broadcaster_id: DEMO,
      started_at: weekAgo,
      ended_at: "2026-11-20T00:00:00Z",
    });
    expect(narrow.body.data.map((c) => c.id)).toEqual(["SimClip02-CuebotDemo", "SimClip03-CuebotDemo"]);
    const offset = await get<Page<Clip>>("/clips", token, {
      broadcaster_id: DEMO,
      started_at: "2026-11-21T00:00:00+02:00",
    });
    expect(offset.body.data.map((c) => c.id)).toEqual(["SimClip01-CuebotDemo"]);
    expectError(await get("/clips", token, { broadcaster_id: DEMO, ended_at: "2026-11-20T00:00:00Z" }), 400);
    expectError(await get("/clips", token, { broadcaster_id: DEMO, started_at: "yesterday" }), 400);
  });

  test("is_featured filters", async () => {
    const token = tokenFor("viewer_anna", []);
    const featured = await get<Page<Clip>>("/clips", token, { broadcaster_id: DEMO, is_featured: "true" });
    expect(featured.body.data).toHaveLength(4);
    expect(featured.body.data.every((c) => c.is_featured)).toBe(true);
    const rest = await get<Page<Clip>>("/clips", token, {
      broadcaster_id: DEMO,
      is_featured: false,
      first: 100,
    });
    expect(rest.body.data).toHaveLength(21);
    expectError(await get("/clips", token, { broadcaster_id: DEMO, is_featured: "maybe" }), 400);
  });
});

describe("GET /chat/chatters", () => {
  interface Chatter {
    user_id: string;
    user_login: string;
    user_name: string;
  }

  test("the broadcaster and a moderator list chatters with total; validates", async () => {
    for (const login of ["cuebotdemo", "modbob"]) {
      const me = sim.findUser(login)!.id;
      const token = tokenFor(login, ["moderator:read:chatters"]);
      const res = await get<Page<Chatter>>("/chat/chatters", token, {
        broadcaster_id: DEMO,
        moderator_id: me,
      });
      expect(res.status).toBe(200);
      expect(helix.check("/chat/chatters", "get", "200", res.body)).toEqual([]);
      expect(res.body.total).toBe(47);
      expect(res.body.data).toHaveLength(47); // default page size is 100
      expect(res.body.pagination).toEqual({});
      expect(res.body.data[1]).toEqual({
        user_id: SIM_IDS.anna,
        user_login: "viewer_anna",
        user_name: "Viewer_Anna",
      });
    }
  });

  test("pages of 20 end with pagination {}", async () => {
    const token = tokenFor("cuebotdemo", ["moderator:read:chatters"]);
    const { items, pages } = await walk<Chatter>("/chat/chatters", token, {
      broadcaster_id: DEMO,
      moderator_id: DEMO,
      first: 20,
    });
    expect(pages).toBe(3);
    expect(new Set(items.map((c) => c.user_id)).size).toBe(47);
  });

  test("moderator_id must be the token user (401) and a moderator (403, not twitch-cli's 401)", async () => {
    const anna = tokenFor("viewer_anna", ["moderator:read:chatters"]);
    expectError(await get("/chat/chatters", anna, { broadcaster_id: DEMO, moderator_id: SIM_IDS.anna }), 403);
    expectError(await get("/chat/chatters", anna, { broadcaster_id: DEMO, moderator_id: SIM_IDS.bob }), 401);
    expectError(await get("/chat/chatters", anna, { broadcaster_id: DEMO }), 400);
    expectError(await get("/chat/chatters", anna, { moderator_id: SIM_IDS.anna }), 400);
  });
});

describe("POST /chat/shoutouts", () => {
  const shoutout = (token: string, to: string, from: string = DEMO, moderator: string = DEMO) =>
    post("/chat/shoutouts", token, {
      from_broadcaster_id: from,
      to_broadcaster_id: to,
      moderator_id: moderator,
    });

  test("204 with no body; the sender once per 2 minutes, the same target once per 60 minutes → 429", async () => {
    const token = tokenFor("cuebotdemo", ["moderator:manage:shoutouts"]);
    const ok = await shoutout(token, SIM_IDS.other);
    expect(ok.status).toBe(204);
    expect(ok.body).toBeNull();
    clock.advance(119_000);
    expectError(await shoutout(token, SIM_IDS.offline), 429, /2 minutes; try again in 1 seconds/);
    clock.advance(1_000);
    expect((await shoutout(token, SIM_IDS.offline)).status).toBe(204);
    clock.advance(10 * 60_000);
    // 12 minutes after the first: the sender may send again, but not to the same target.
    expectError(await shoutout(token, SIM_IDS.other), 429, /60 minutes/);
    clock.advance(48 * 60_000);
    expect((await shoutout(token, SIM_IDS.other)).status).toBe(204);
  });

  test("a moderator may send for the broadcaster; the cooldown is the channel's", async () => {
    const bob = tokenFor("modbob", ["moderator:manage:shoutouts"]);
    expect((await shoutout(bob, SIM_IDS.other, DEMO, SIM_IDS.bob)).status).toBe(204);
    const owner = tokenFor("cuebotdemo", ["moderator:manage:shoutouts"]);
    expectError(await shoutout(owner, SIM_IDS.offline), 429);
  });

  test("self-shoutout and a sender that is offline or has no viewers are 400", async () => {
    const owner = tokenFor("cuebotdemo", ["moderator:manage:shoutouts"]);
    expectError(await shoutout(owner, DEMO), 400, /themselves/);
    const sleepy = tokenFor("sleepystreamer", ["moderator:manage:shoutouts"]);
    expectError(await shoutout(sleepy, DEMO, SIM_IDS.offline, SIM_IDS.offline), 400, /not streaming live/);
    sim.setLive(SIM_IDS.offline, true, { viewer_count: 0 });
    expectError(await shoutout(sleepy, DEMO, SIM_IDS.offline, SIM_IDS.offline), 400, /viewers/);
    expectError(await post("/chat/shoutouts", owner, { from_broadcaster_id: DEMO, moderator_id: DEMO }), 400);
    expectError(await shoutout(owner, "999999999"), 400);
  });

  test("moderator_id must be the token user (401) and a moderator (403)", async () => {
    const anna = tokenFor("viewer_anna", ["moderator:manage:shoutouts"]);
    expectError(await shoutout(anna, SIM_IDS.other, DEMO, SIM_IDS.anna), 403);
    expectError(await shoutout(anna, SIM_IDS.other, DEMO, DEMO), 401);
  });
});

describe("POST /moderation/bans and DELETE /moderation/bans", () => {
  const scopes = ["moderator:manage:banned_users", "moderation:read"];
  const ban = (token: string, data: Record<string, unknown>, moderator: string = DEMO) =>
    post<{ data: Record<string, unknown>[] }>(
      "/moderation/bans",
      token,
      { broadcaster_id: DEMO, moderator_id: moderator },
      { data },
    );
  const unban = (token: string, userId: string, moderator: string = DEMO) =>
    del("/moderation/bans", token, { broadcaster_id: DEMO, moderator_id: moderator, user_id: userId });

  test("a ban answers 200 with end_time null, a timeout with its end; both are recorded", async () => {
    const owner = tokenFor("cuebotdemo", scopes);
    const banned = await ban(owner, { user_id: SIM_IDS.eve, reason: "spam" });
    expect(banned.status).toBe(200);
    expect(helix.check("/moderation/bans", "post", "200", banned.body)).toEqual([]);
    expect(banned.body.data).toEqual([
      {
        broadcaster_id: DEMO,
        moderator_id: DEMO, // spelled right; twitch-cli sends moderator_Id
        user_id: SIM_IDS.eve,
        created_at: "2026-11-21T12:00:00Z",
        end_time: null,
      },
    ]);
    const timedOut = await ban(owner, { user_id: SIM_IDS.anna, duration: 300 });
    expect(helix.check("/moderation/bans", "post", "200", timedOut.body)).toEqual([]);
    expect(timedOut.body.data[0]!.end_time).toBe("2026-11-21T12:05:00Z");
    expect(sim.world.bans).toEqual([
      {
        broadcaster_id: DEMO,
        user_id: SIM_IDS.eve,
        moderator_id: DEMO,
        reason: "spam",
        created_at: "2026-11-21T12:00:00Z",
        expires_at: null,
      },
      {
        broadcaster_id: DEMO,
        user_id: SIM_IDS.anna,
        moderator_id: DEMO,
        reason: "",
        created_at: "2026-11-21T12:00:00Z",
        expires_at: "2026-11-21T12:05:00Z",
      },
    ]);
  });

  test("a banned user cannot be banned again nor timed out: 400 'user is already banned'", async () => {
    const owner = tokenFor("cuebotdemo", scopes);
    expect((await ban(owner, { user_id: SIM_IDS.eve })).status).toBe(200);
    expectError(await ban(owner, { user_id: SIM_IDS.eve }), 400, "user is already banned");
    expectError(await ban(owner, { user_id: SIM_IDS.eve, duration: 60 }), 400, "user is already banned");
  });

  test("a timed-out user can be timed out again or banned (not twitch-cli's 'already banned')", async () => {
    const owner = tokenFor("cuebotdemo", scopes);
    expect((await ban(owner, { user_id: SIM_IDS.eve, duration: 600 })).status).toBe(200);
    clock.advance(60_000);
    const again = await ban(owner, { user_id: SIM_IDS.eve, duration: 30 });
    expect(again.status).toBe(200);
    expect(again.body.data[0]!.end_time).toBe("2026-11-21T12:01:30Z");
    expect(sim.world.bans).toHaveLength(1);
    const escalated = await ban(owner, { user_id: SIM_IDS.eve });
    expect(escalated.body.data[0]!.end_time).toBeNull();
    expect(sim.world.bans).toHaveLength(1);
  });

  test("timeouts expire by the clock: then the user is not banned and can be timed out afresh", async () => {
    const owner = tokenFor("cuebotdemo", scopes);
    expect((await ban(owner, { user_id: SIM_IDS.eve, duration: 1 })).status).toBe(200);
    clock.advance(1_000);
    expectError(await unban(owner, SIM_IDS.eve), 400, "user is not banned");
    expect((await get<Page>("/moderation/banned", owner, { broadcaster_id: DEMO })).body.data).toEqual([]);
    expect((await ban(owner, { user_id: SIM_IDS.eve, duration: 10 })).status).toBe(200);
  });

  test("duration must be an integer from 1 to 1 209 600; reason at most 500 characters", async () => {
    const owner = tokenFor("cuebotdemo", scopes);
    for (const duration of [0, -5, 1_209_601, 1.5, "300", null]) {
      expectError(await ban(owner, { user_id: SIM_IDS.eve, duration }), 400, /duration/);
    }
    expectError(await ban(owner, { user_id: SIM_IDS.eve, reason: "x".repeat(501) }), 400, /reason/);
    expect(
      (await ban(owner, { user_id: SIM_IDS.eve, duration: 1_209_600, reason: "y".repeat(500) })).status,
    ).toBe(200);
  });

  test("the broadcaster, yourself and (for a non-owner) other moderators may not be banned", async () => {
    const owner = tokenFor("cuebotdemo", scopes);
    expectError(await ban(owner, { user_id: DEMO }), 400, /may not be banned/);
    expectError(await ban(owner, { user_id: DEMO, duration: 10 }), 400, /may not be put in a timeout/);
    sim.world.moderators.get(DEMO)!.push(SIM_IDS.carla);
    const bob = tokenFor("modbob", scopes);
    expectError(await ban(bob, { user_id: SIM_IDS.carla, duration: 10 }, SIM_IDS.bob), 400, /timeout/);
    expectError(await ban(bob, { user_id: SIM_IDS.bob }, SIM_IDS.bob), 400, /may not be banned/);
    expect((await ban(bob, { user_id: SIM_IDS.eve, duration: 10 }, SIM_IDS.bob)).status).toBe(200);
    // The owner may time out a moderator.
    expect((await ban(owner, { user_id: SIM_IDS.carla, duration: 10 })).status).toBe(200);
  });

  test("moderator_id must be the token user (401) and a moderator (403)", async () => {
    const anna = tokenFor("viewer_anna", scopes);
    expectError(await ban(anna, { user_id: SIM_IDS.eve }, SIM_IDS.anna), 403);
    expectError(await ban(anna, { user_id: SIM_IDS.eve }, DEMO), 401);
    expectError(await unban(anna, SIM_IDS.eve, SIM_IDS.anna), 403);
  });

  test("missing parameters, body or user_id, a bad body and unknown users are 400", async () => {
    const owner = tokenFor("cuebotdemo", scopes);
    expectError(await ban(owner, {}), 400, /user_id/);
    expectError(await ban(owner, { user_id: "999999999" }), 400);
    expectError(await post("/moderation/bans", owner, { broadcaster_id: DEMO, moderator_id: DEMO }), 400);
    expectError(
      await callHelix(sim, owner, "POST", "/moderation/bans", {
        query: { broadcaster_id: DEMO, moderator_id: DEMO },
        body: { data: { user_id: SIM_IDS.eve } },
        headers: { "Content-Type": "text/plain" },
      }),
      400,
    );
    expectError(
      await post("/moderation/bans", owner, { moderator_id: DEMO }, { data: { user_id: SIM_IDS.eve } }),
      400,
    );
    expectError(
      await post("/moderation/bans", owner, { broadcaster_id: DEMO }, { data: { user_id: SIM_IDS.eve } }),
      400,
    );
    expectError(await del("/moderation/bans", owner, { broadcaster_id: DEMO, moderator_id: DEMO }), 400);
  });

  test("unban: 204, then 400 'user is not banned'", async () => {
    const owner = tokenFor("cuebotdemo", scopes);
    await ban(owner, { user_id: SIM_IDS.eve });
    const res = await unban(owner, SIM_IDS.eve);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect(sim.world.bans).toEqual([]);
    expectError(await unban(owner, SIM_IDS.eve), 400, "user is not banned");
  });
});

describe("GET /moderation/banned", () => {
  const scopes = ["moderator:manage:banned_users"];

  test("lists active bans and timeouts of the broadcaster's own channel", async () => {
    const owner = tokenFor("cuebotdemo", scopes);
    const banUser = (user_id: string, extra: Record<string, unknown> = {}) =>
      post(
        "/moderation/bans",
        owner,
        { broadcaster_id: DEMO, moderator_id: DEMO },
        { data: { user_id, ...extra } },
      );
    await banUser(SIM_IDS.anna, { duration: 600, reason: "caps" });
    clock.advance(1_000);
    await banUser(SIM_IDS.eve, { reason: "spam" });
    const res = await get<Page>("/moderation/banned", owner, { broadcaster_id: DEMO });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        user_id: SIM_IDS.eve,
        user_login: "lurker_eve",
        user_name: "Lurker_Eve",
        expires_at: "",
        created_at: "2026-11-21T12:00:01Z",
        reason: "spam",
        moderator_id: DEMO,
        moderator_login: "cuebotdemo",
        moderator_name: "CuebotDemo",
      },
      {
        user_id: SIM_IDS.anna,
        user_login: "viewer_anna",
        user_name: "Viewer_Anna",
        expires_at: "2026-11-21T12:10:00Z",
        created_at: "2026-11-21T12:00:00Z",
        reason: "caps",
        moderator_id: DEMO,
        moderator_login: "cuebotdemo",
        moderator_name: "CuebotDemo",
      },
    ]);
    // Twitch documents expires_at as "an empty string if the user is permanently banned"; the
    // OpenAPI types it as date-time, which "" fails. The simulator follows Twitch, so that is the
    // one and only schema complaint.
    expect(helix.check("/moderation/banned", "get", "200", res.body)).toEqual([
      '/data/0/expires_at must match format "date-time"',
    ]);
    const timeoutsOnly = await get<Page>("/moderation/banned", owner, {
      broadcaster_id: DEMO,
      user_id: SIM_IDS.anna,
    });
    expect(helix.check("/moderation/banned", "get", "200", timeoutsOnly.body)).toEqual([]);
    expect(timeoutsOnly.body.data).toHaveLength(1);
    const { items } = await walk("/moderation/banned", owner, { broadcaster_id: DEMO, first: 1 });
    expect(items).toHaveLength(2);
  });

  test("broadcaster only: a moderator's token is 401; broadcaster_id is required", async () => {
    const bob = tokenFor("modbob", ["moderation:read"]);
    expectError(await get("/moderation/banned", bob, { broadcaster_id: DEMO }), 401);
    expectError(await get("/moderation/banned", bob), 400);
  });
});

describe("GET /moderation/moderators", () => {
  test("the broadcaster's moderators; validates; either scope works", async () => {
    for (const scope of ["moderation:read", "channel:manage:moderators"]) {
      const token = tokenFor("cuebotdemo", [scope]);
      const res = await get<Page>("/moderation/moderators", token, { broadcaster_id: DEMO });
      expect(res.status).toBe(200);
      expect(helix.check("/moderation/moderators", "get", "200", res.body)).toEqual([]);
      expect(res.body).toEqual({
        data: [{ user_id: SIM_IDS.bob, user_login: "modbob", user_name: "ModBob" }],
        pagination: {},
      });
    }
  });

  test("user_id filters in the order given; pages end with {}", async () => {
    sim.world.moderators.get(DEMO)!.push(SIM_IDS.carla, SIM_IDS.dave);
    const token = tokenFor("cuebotdemo", ["moderation:read"]);
    const filtered = await get<Page>("/moderation/moderators", token, {
      broadcaster_id: DEMO,
      user_id: [SIM_IDS.dave, SIM_IDS.anna, SIM_IDS.bob],
    });
    expect(filtered.body.data.map((m) => m.user_id)).toEqual([SIM_IDS.dave, SIM_IDS.bob]);
    const { items, pages } = await walk("/moderation/moderators", token, { broadcaster_id: DEMO, first: 2 });
    expect(items).toHaveLength(3);
    expect(pages).toBe(2);
  });

  test("broadcaster only (401); broadcaster_id required (400); at most 100 user_id (400)", async () => {
    const bob = tokenFor("modbob", ["moderation:read"]);
    expectError(await get("/moderation/moderators", bob, { broadcaster_id: DEMO }), 401);
    const owner = tokenFor("cuebotdemo", ["moderation:read"]);
    expectError(await get("/moderation/moderators", owner), 400);
    const many = Array.from({ length: 101 }, (_, i) => String(300_000 + i));
    expectError(await get("/moderation/moderators", owner, { broadcaster_id: DEMO, user_id: many }), 400);
  });
});

describe("GET /moderation/channels", () => {
  test("the channels the token's user moderates, paged by `first` (1–100, default 20); validates", async () => {
    const bob = tokenFor("modbob", ["user:read:moderated_channels"]);
    const res = await get("/moderation/channels", bob, { user_id: SIM_IDS.bob });
    expect(res.status).toBe(200);
    expect(helix.check("/moderation/channels", "get", "200", res.body)).toEqual([]);
    expect(res.body.data).toEqual([
      { broadcaster_id: DEMO, broadcaster_login: "cuebotdemo", broadcaster_name: "CuebotDemo" },
    ]);
    for (let i = 1; i <= 24; i++) sim.world.moderators.set(String(200_000 + i), [SIM_IDS.bob]);
    const { items, pages } = await walk("/moderation/channels", bob, { user_id: SIM_IDS.bob });
    expect(items).toHaveLength(25);
    expect(pages).toBe(2);
    expectError(await get("/moderation/channels", bob, { user_id: SIM_IDS.bob, first: 101 }), 400, /first/);
    expectError(await get("/moderation/channels", bob, { user_id: DEMO }), 400);
    expectError(await get("/moderation/channels", bob), 400);
  });
});

describe("GET /channels/vips", () => {
  test("the broadcaster's VIPs; validates; either scope works; non-VIPs in user_id are ignored", async () => {
    for (const scope of ["channel:read:vips", "channel:manage:vips"]) {
      const token = tokenFor("cuebotdemo", [scope]);
      const res = await get<Page>("/channels/vips", token, { broadcaster_id: DEMO });
      expect(helix.check("/channels/vips", "get", "200", res.body)).toEqual([]);
      expect(res.body).toEqual({
        data: [{ user_id: SIM_IDS.carla, user_login: "vipcarla", user_name: "VipCarla" }],
        pagination: {},
      });
    }
    const token = tokenFor("cuebotdemo", ["channel:read:vips"]);
    const filtered = await get<Page>("/channels/vips", token, {
      broadcaster_id: DEMO,
      user_id: [SIM_IDS.anna],
    });
    expect(filtered.body).toEqual({ data: [], pagination: {} });
  });

  test("broadcaster only (not twitch-cli's any caller); bad and too many user_id are 400", async () => {
    const bob = tokenFor("modbob", ["channel:read:vips"]);
    expectError(await get("/channels/vips", bob, { broadcaster_id: DEMO }), 401);
    const owner = tokenFor("cuebotdemo", ["channel:read:vips"]);
    expectError(await get("/channels/vips", owner, { broadcaster_id: DEMO, user_id: "carla" }), 400);
    const many = Array.from({ length: 101 }, (_, i) => String(300_000 + i));
    expectError(await get("/channels/vips", owner, { broadcaster_id: DEMO, user_id: many }), 400);
    expectError(await get("/channels/vips", owner), 400);
  });
});

describe("GET /subscriptions", () => {
  interface Sub {
    user_id: string;
    tier: string;
    is_gift: boolean;
    gifter_login: string;
  }

  test("subscribers with total and tier-weighted points (T1=1, T2=2, T3=6); validates", async () => {
    const token = tokenFor("cuebotdemo", ["channel:read:subscriptions"]);
    const res = await get<Page<Sub>>("/subscriptions", token, { broadcaster_id: DEMO });
    expect(res.status).toBe(200);
    expect(helix.check("/subscriptions", "get", "200", res.body)).toEqual([]);
    expect(res.body.total).toBe(3);
    expect(res.body.points).toBe(1 + 1 + 2);
    expect(res.body.pagination).toEqual({});
    // The broadcaster's own subscription is listed (reference §2.12).
    expect(res.body.data.map((s) => s.user_id)).toContain(DEMO);
    const gift = res.body.data.find((s) => s.is_gift)!;
    expect(gift).toMatchObject({ tier: "2000", gifter_login: "viewer_anna" });
    const plain = res.body.data.find((s) => s.user_id === SIM_IDS.dave)!;
    expect(plain).toMatchObject({ gifter_id: "", gifter_login: "", gifter_name: "" });
    sim.world.subscriptions.push({
      broadcaster_id: DEMO,
      user_id: SIM_IDS.eve,
      tier: "3000",
      is_gift: false,
      gifter_id: "",
      plan_name: "Channel Subscription (cuebotdemo): $24.99 Sub",
    });
    const more = await get<Page<Sub>>("/subscriptions", token, { broadcaster_id: DEMO });
    expect(more.body.points).toBe(4 + 6);
    expect(more.body.total).toBe(4);
  });

  test("user_id filters (total and points stay the channel's); cursors with user_id are 400", async () => {
    const token = tokenFor("cuebotdemo", ["channel:read:subscriptions"]);
    const one = await get<Page<Sub>>("/subscriptions", token, {
      broadcaster_id: DEMO,
      user_id: SIM_IDS.dave,
    });
    expect(one.body.data.map((s) => s.user_id)).toEqual([SIM_IDS.dave]);
    expect(one.body.total).toBe(3);
    const none = await get<Page<Sub>>("/subscriptions", token, {
      broadcaster_id: DEMO,
      user_id: SIM_IDS.eve,
    });
    expect(none.body.data).toEqual([]);
    const page = await get<Page<Sub>>("/subscriptions", token, { broadcaster_id: DEMO, first: 1 });
    expect(page.body.pagination.cursor).toBeString();
    expectError(
      await get("/subscriptions", token, {
        broadcaster_id: DEMO,
        user_id: SIM_IDS.dave,
        after: page.body.pagination.cursor,
      }),
      400,
    );
    const { items } = await walk<Sub>("/subscriptions", token, { broadcaster_id: DEMO, first: 2 });
    expect(items).toHaveLength(3);
  });

  test("broadcaster only (401); broadcaster_id required (400)", async () => {
    const bob = tokenFor("modbob", ["channel:read:subscriptions"]);
    expectError(await get("/subscriptions", bob, { broadcaster_id: DEMO }), 401);
    expectError(await get("/subscriptions", bob), 400);
  });
});
