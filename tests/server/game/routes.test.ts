import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { assignRole } from "../../../server/core/accounts.ts";
import { ManualClock } from "../../../server/core/clock.ts";
import { matchIdOf, puuidOf } from "../../../server/sim/game/players.ts";
import { type GameSimulator, startGameSimulator } from "../../../server/sim/game/server.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";

/**
 * The game API end to end: the real provider client talks to the simulator over loopback HTTP.
 *
 * Seeded truths (server/sim/game/players.ts), with the clock where the simulator started:
 * - Kestrel#EUW (eu): Gold 2, 45 RR, +18 last game, 1045 ELO. Last match on the red team, a 13-9 win
 *   on Ascent as Jett, 20 head / 55 body / 5 leg hits (HS 25%). Last 24 h: 5 games (a 15-15 draw that
 *   still gave +2 RR, one game the provider could not load, which counts by its -14 RR), 2W 2L 1D,
 *   +11 RR, 40%. Last 10 competitive: one unloadable, so 9 analysed, 5W 3L 1D, 55.6%, Jett, HS 20.6%.
 * - Night Owl#NA1 (na, a space in the name): Diamond 1; last match a 9-13 loss on the blue team.
 * - 호랑이#KR1 (kr): Omen and Killjoy tie 2-2 in the last matches; Omen was played most recently.
 * - Αθηνά#GR7 (eu): ranked (Silver 3), but no game in the last 24 h.
 * - Fresh Start#NEW (eu): an account with no ranked data at all.
 */

const KESTREL = "/eu/Kestrel/EUW";
const KOREAN = `/kr/${encodeURIComponent("호랑이")}/KR1`;
const GREEK = `/eu/${encodeURIComponent("Αθηνά")}/GR7`;
const NIGHT_OWL = "/na/Night%20Owl/NA1";
const FRESH = "/eu/Fresh%20Start/NEW";

let clock: ManualClock;
let sim: GameSimulator;
let t: TestContext;

async function start(options: { apiKey?: string | null; budget?: number; timeoutMs?: number } = {}) {
  t = await createTestContext({
    clock,
    ...(options.timeoutMs ? { game: { timeoutMs: options.timeoutMs } } : {}),
    configure: (config) => {
      config.game.apiUrl = sim.url;
      config.game.apiKey = options.apiKey === undefined ? sim.apiKey : options.apiKey;
      if (options.budget) config.game.budgetPerMinute = options.budget;
    },
  });
}

beforeEach(async () => {
  clock = new ManualClock();
  sim = startGameSimulator({ clock });
  await start();
});

afterEach(async () => {
  await t.cleanup();
  await sim.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected field by field below.
type Body = { status: number; data: any; error: any };

async function getJson(path: string, init?: RequestInit) {
  const res = await t.request(`/api/game${path}`, init);
  return { res, status: res.status, body: (await res.json()) as Body };
}

async function getText(path: string, init?: RequestInit) {
  const res = await t.request(`/api/game${path}${path.includes("?") ? "&" : "?"}format=text`, init);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  return { line: await res.text(), status: res.headers.get("x-cuebot-status") };
}

function expectError(
  got: { status: number; body: { status: number; error: unknown } },
  status: number,
  code: string,
) {
  expect(got.status).toBe(status);
  expect(got.body).toEqual({ status, error: { code, message: expect.any(String) } });
}

describe("rank", () => {
  test("the full record", async () => {
    const { status, body } = await getJson("/rank/EU/kestrel/euw");
    expect(status).toBe(200);
    expect(body.status).toBe(200);
    expect(body.data).toEqual({
      name: "Kestrel",
      tag: "EUW",
      region: "eu",
      puuid: puuidOf({ name: "Kestrel", tag: "EUW" }),
      account_level: 142,
      card: {
        small: expect.stringMatching(/^https:\/\/media\.valorant-api\.com\/playercards\/.+\/smallart\.png$/),
        large: expect.stringMatching(/largeart\.png$/),
        wide: expect.stringMatching(/wideart\.png$/),
      },
      last_update: "5 minutes ago",
      current_tier_patched: "Gold 2",
      ranking_in_tier: 45,
      mmr_change_to_last_game: 18,
      elo: 1045,
      rank_image: expect.stringMatching(/\/competitivetiers\/.+\/13\/smallicon\.png$/),
      text: "Kestrel#EUW is Gold 2 - 45 RR (1045 ELO), last game +18 RR.",
    });
  });

  test("type 1, 2 and 3 keep the identity plus their fields", async () => {
    const id = { name: "Kestrel", tag: "EUW", region: "eu", puuid: puuidOf({ name: "Kestrel", tag: "EUW" }) };
    expect((await getJson(`/rank${KESTREL}?type=1`)).body.data).toEqual({
      ...id,
      current_tier_patched: "Gold 2",
      text: "Gold 2",
    });
    expect((await getJson(`/rank${KESTREL}?type=2`)).body.data).toEqual({
      ...id,
      current_tier_patched: "Gold 2",
      ranking_in_tier: 45,
      mmr_change_to_last_game: 18,
      text: "Gold 2 - 45 RR",
    });
    expect((await getJson(`/rank${KESTREL}?type=3`)).body.data).toEqual({
      ...id,
      current_tier_patched: "Gold 2",
      ranking_in_tier: 45,
      mmr_change_to_last_game: 18,
      elo: 1045,
      text: "Gold 2 - 45 RR (1045 ELO)",
    });
  });

  test("text mode answers the chat line, also for a known chat bot", async () => {
    expect(await getText(`/rank${KESTREL}?type=2`)).toEqual({ line: "Gold 2 - 45 RR", status: "200" });
    const res = await t.request(`/api/game/rank${KESTREL}?type=3`, {
      headers: { "Nightbot-User": "name=viewer" },
    });
    expect(await res.text()).toBe("Gold 2 - 45 RR (1045 ELO)");
  });

  test("a player with no ranked data is 404, in JSON and as a chat line", async () => {
    expectError(await getJson(`/rank${FRESH}`), 404, "player_not_found");
    expect(await getText(`/rank${FRESH}`)).toEqual({
      line: "Fresh Start#NEW has no ranked data in EU.",
      status: "404",
    });
  });

  test("an unknown player is 404 player_not_found", async () => {
    const got = await getJson("/rank/eu/Nobody/XYZ");
    expectError(got, 404, "player_not_found");
    expect(got.body.error.message).toBe("No player Nobody#XYZ exists; check the name and the tag.");
  });

  test("a valid region that is not the player's says where the account plays", async () => {
    const got = await getJson("/rank/na/Kestrel/EUW");
    expectError(got, 404, "player_not_found");
    expect(got.body.error.message).toBe("Kestrel#EUW has no ranked data in NA (the account plays in EU).");
  });
});

describe("last match", () => {
  test("a red-team win: both teams, every player, and the requested player's side", async () => {
    const { status, body } = await getJson(`/match/last${KESTREL}`);
    expect(status).toBe(200);
    const data = body.data;
    expect(data.metadata).toEqual({
      map: "Ascent",
      mode: "Competitive",
      matchid: matchIdOf({ name: "Kestrel", tag: "EUW" }, { key: "k1" }),
      region: "eu",
      game_start: Math.floor(clock.now() / 1000) - 3600,
    });
    expect(data.teams).toEqual({
      red: { has_won: true, rounds_won: 13 },
      blue: { has_won: false, rounds_won: 9 },
    });
    expect(data.derived).toMatchObject({ team: "red", result: "win", hs_percent: 25 });
    expect(data.players.all_players).toHaveLength(10);
    expect(data.players.all_players[0]).toEqual({
      name: "Kestrel",
      tag: "EUW",
      team: "red",
      character: "Jett",
      stats: { kills: 21, deaths: 12, assists: 5 },
    });
    for (const player of data.players.all_players) {
      expect(player).toMatchObject({
        name: expect.any(String),
        character: expect.any(String),
        stats: { kills: expect.any(Number), deaths: expect.any(Number), assists: expect.any(Number) },
      });
    }
    expect(data.text).toBe("Kestrel#EUW's last match: Win 13-9 on Ascent as Jett, 21/12/5 KDA, HS 25%.");
  });

  test("a blue-team loss for a name with a space", async () => {
    const { body } = await getJson(`/match/last${NIGHT_OWL}`);
    expect(body.data.name).toBe("Night Owl");
    expect(body.data.derived).toMatchObject({ team: "blue", result: "loss" });
    expect(body.data.teams.blue).toEqual({ has_won: false, rounds_won: 9 });
    expect((await getText(`/match/last${NIGHT_OWL}`)).line).toBe(
      "Night Owl#NA1's last match: Loss 9-13 on Pearl as Omen, 11/16/8 KDA, HS 12.5%.",
    );
  });

  test("no competitive match is 404", async () => {
    expectError(await getJson(`/match/last${FRESH}`), 404, "player_not_found");
  });
});

describe("today", () => {
  test("the last 24 h: real results (a draw with +2 RR), RR from the history, the unloadable game by its RR", async () => {
    const { body } = await getJson(`/today${KESTREL}`);
    expect(body.data).toEqual({
      name: "Kestrel",
      tag: "EUW",
      region: "eu",
      puuid: puuidOf({ name: "Kestrel", tag: "EUW" }),
      matches_played: 5,
      wins: 2,
      losses: 2,
      draws: 1,
      rr_change: 11,
      winrate: 40,
      text: "Kestrel#EUW in the last 24 hours: 2W - 2L - 1D in 5 matches (40% WR), +11 RR.",
    });
  });

  test("type 1, 2 and 3", async () => {
    expect((await getJson(`/today${KESTREL}?type=1`)).body.data).toMatchObject({
      wins: 2,
      losses: 2,
      draws: 1,
      rr_change: 11,
      text: "2W - 2L - 1D | +11 RR",
    });
    const two = (await getJson(`/today${KESTREL}?type=2`)).body.data;
    expect(two).toMatchObject({ matches_played: 5, text: "5 matches | 2W - 2L - 1D | +11 RR" });
    expect(two).not.toHaveProperty("winrate");
    expect((await getText(`/today${KESTREL}?type=3`)).line).toBe(
      "5 matches | 2W - 2L - 1D | 40% WR | +11 RR",
    );
  });

  test("the window rolls with the clock", async () => {
    clock.advance(5 * 3600_000);
    expect((await getJson(`/today${KESTREL}?type=3`)).body.data).toMatchObject({
      matches_played: 3,
      wins: 1,
      losses: 1,
      draws: 1,
      rr_change: 4,
      winrate: 33.3,
    });
  });

  test("a ranked player with no game in the last 24 h gets zeros, not 404", async () => {
    const { status, body } = await getJson(`/today${GREEK}`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      name: "Αθηνά",
      matches_played: 0,
      wins: 0,
      losses: 0,
      draws: 0,
      rr_change: 0,
    });
    expect(body.data.text).toBe("Αθηνά#GR7 has not played a competitive match in the last 24 hours.");
  });

  test("a player with no ranked data at all is 404", async () => {
    expectError(await getJson(`/today${FRESH}`), 404, "player_not_found");
  });
});

describe("stats", () => {
  test("the last 10 competitive matches, skipping the unloadable and the unrated one", async () => {
    const { body } = await getJson(`/stats${KESTREL}`);
    expect(body.data).toEqual({
      name: "Kestrel",
      tag: "EUW",
      region: "eu",
      puuid: puuidOf({ name: "Kestrel", tag: "EUW" }),
      matches_analyzed: 9,
      wins: 5,
      losses: 3,
      draws: 1,
      winrate: 55.6,
      favorite_agent: "Jett",
      hs_percent: "20.6",
      text: "Over the last 9 competitive matches Kestrel#EUW won 55.6% (5W 3L 1D), played Jett most and hit 20.6% headshots.",
    });
  });

  test("type 3 is the compact line; every type keeps the same fields", async () => {
    const fields = [
      "name",
      "tag",
      "region",
      "puuid",
      "matches_analyzed",
      "winrate",
      "favorite_agent",
      "hs_percent",
    ];
    for (const type of [1, 2, 3]) {
      const data = (await getJson(`/stats${KESTREL}?type=${type}`)).body.data;
      expect(Object.keys(data).sort()).toEqual([...fields, "text"].sort());
    }
    expect((await getText(`/stats${KESTREL}?type=3`)).line).toBe("55.6% WR | Jett | HS 20.6%");
    expect((await getText(`/stats${KESTREL}?type=1`)).line).toBe("Last 9 matches: 55.6% WR, Jett, HS 20.6%");
  });

  test("a tie for favourite agent goes to the one played most recently (Korean name)", async () => {
    const { body } = await getJson(`/stats${KOREAN}`);
    expect(body.data).toMatchObject({
      name: "호랑이",
      tag: "KR1",
      favorite_agent: "Omen",
      matches_analyzed: 4,
    });
  });

  test("no competitive match is 404", async () => {
    expectError(await getJson(`/stats${FRESH}`), 404, "player_not_found");
  });
});

describe("validation", () => {
  test("an unknown region is 400 invalid_region; regions are case-insensitive", async () => {
    const got = await getJson("/rank/euw/Kestrel/EUW");
    expectError(got, 400, "invalid_region");
    expect(got.body.error.message).toBe('"euw" is not a game region; use one of na, eu, ap, kr, latam, br.');
    expect((await getJson("/rank/Eu/Kestrel/EUW")).status).toBe(200);
  });

  test.each([
    ["/rank/eu/ab/EUW", "name", "3 to 16"],
    ["/rank/eu/abcdefghijklmnopq/EUW", "name", "3 to 16"],
    ["/today/eu/Kestrel/EU", "tag", "3 to 5"],
    ["/stats/eu/Kestrel/EUWEST", "tag", "3 to 5"],
    [`/match/last/eu/${encodeURIComponent("가나")}/KR1`, "name", "3 to 16"],
  ])("%s is 400 bad_request naming the %s", async (path, parameter, range) => {
    const got = await getJson(path);
    expectError(got, 400, "bad_request");
    expect(got.body.error.message).toContain(`"${parameter}"`);
    expect(got.body.error.message).toContain(range);
  });

  test("lengths count characters after URL-decoding, not bytes", async () => {
    // 16 Korean syllables are 48 bytes of UTF-8 but a valid length: the provider is asked, and knows no such player.
    const got = await getJson(`/rank/kr/${encodeURIComponent("가".repeat(16))}/KR1`);
    expectError(got, 404, "player_not_found");
  });

  test.each(["4", "0", "abc", "1.5"])("type=%s is 400 bad_request naming type", async (type) => {
    const got = await getJson(`/rank${KESTREL}?type=${type}`);
    expectError(got, 400, "bad_request");
    expect(got.body.error.message).toContain('"type"');
  });

  test("an unreplaced bot template as type means no type", async () => {
    const { body } = await getJson(`/rank${KESTREL}?type=${encodeURIComponent("$(2)")}`);
    expect(body.data.account_level).toBe(142);
  });

  test("a missing segment is 400 naming it, not a bare 404", async () => {
    const got = await getJson("/stats/eu/Kestrel");
    expectError(got, 400, "bad_request");
    expect(got.body.error.message).toBe(
      'The path parameter "tag" is missing: use /api/game/stats/<region>/<name>/<tag>.',
    );
    expectError(await getJson("/rank"), 400, "bad_request");
    expect((await getJson("/match/last/eu//EUW")).body.error.message).toContain('"name" is missing');
    expect((await getJson("/rank/eu/Kestrel/EUW/extra")).body.error.message).toContain(
      "Too many path segments",
    );
  });

  test("a broken %-escape is 400 naming the parameter", async () => {
    const got = await getJson("/rank/eu/%E0%A4%A/EUW");
    expectError(got, 400, "bad_request");
    expect(got.body.error.message).toBe('The path parameter "name" is not valid URL encoding.');
  });

  test("bad input never reaches the provider, and is one chat line in text mode", async () => {
    expect(await getText("/rank/mars/Kestrel/EUW")).toEqual({
      line: '"mars" is not a game region; use one of na, eu, ap, kr, latam, br.',
      status: "400",
    });
    await getJson("/rank/eu/ab/EUW");
    await getJson(`/rank${KESTREL}?type=9`);
    expect(sim.totalCalls()).toBe(0);
  });

  test("a wrong API key is 401 before anything else is checked", async () => {
    const got = await getJson("/rank/mars/x/y", { headers: { "x-api-key": crypto.randomUUID() } });
    expectError(got, 401, "invalid_api_key");
  });
});

describe("provider failures", () => {
  test("provider down (503) is 500 upstream_error", async () => {
    sim.knobs.failWith = 503;
    const got = await getJson(`/rank${KESTREL}`);
    expectError(got, 500, "upstream_error");
    expect(got.body.error.message).toBe(
      "The game statistics provider is unavailable right now; try again in a minute.",
    );
    expect((await getText(`/stats${KESTREL}`)).status).toBe("500");
  });

  test("provider rate limit (429) is 500 upstream_error, and pauses calls until its window resets", async () => {
    sim.knobs.failWith = 429;
    expectError(await getJson(`/rank${KESTREL}`), 500, "upstream_error");
    const callsAfter429 = sim.totalCalls();
    sim.knobs.failWith = null;
    expectError(await getJson(`/rank${KESTREL}`), 500, "upstream_error");
    expect(sim.totalCalls()).toBe(callsAfter429);
    clock.advance(60_000);
    expect((await getJson(`/rank${KESTREL}`)).status).toBe(200);
  });

  test("provider timeout is 500 upstream_error", async () => {
    await t.cleanup();
    await start({ timeoutMs: 100 });
    sim.knobs.latencyMs = 1_000;
    const got = await getJson(`/rank${KESTREL}`);
    expectError(got, 500, "upstream_error");
    expect(got.body.error.message).toContain("did not answer in time");
  });

  test("a missing provider key is 500 upstream_error naming the setting, without calling the provider", async () => {
    await t.cleanup();
    await start({ apiKey: null });
    const got = await getJson(`/rank${KESTREL}`);
    expectError(got, 500, "upstream_error");
    expect(got.body.error.message).toContain("CUEBOT_GAME_API_KEY");
    expect(sim.totalCalls()).toBe(0);
  });

  test("a wrong provider key (403) is 500 upstream_error", async () => {
    await t.cleanup();
    await start({ apiKey: "HDEV-wrong" });
    expectError(await getJson(`/stats${KESTREL}`), 500, "upstream_error");
    expect(sim.calls.account).toBe(1);
  });

  test("an unreachable provider is 500 upstream_error", async () => {
    await sim.stop();
    expectError(await getJson(`/rank${KESTREL}`), 500, "upstream_error");
  });
});

describe("caching", () => {
  test("a repeat within the TTL costs nothing; after it only the rank is fetched again", async () => {
    await getJson(`/rank${KESTREL}`);
    expect(sim.calls).toEqual({ account: 1, mmr: 1, mmrHistory: 0, matches: 0 });
    await getJson(`/rank${KESTREL}?type=1`);
    await getJson("/rank/EU/KESTREL/euw");
    expect(sim.totalCalls()).toBe(2);
    clock.advance(61_000);
    await getJson(`/rank${KESTREL}`);
    expect(sim.calls).toEqual({ account: 1, mmr: 2, mmrHistory: 0, matches: 0 });
  });

  test("last match, today and stats share one match list", async () => {
    await getJson(`/match/last${KESTREL}`);
    await getJson(`/today${KESTREL}`);
    await getJson(`/stats${KESTREL}`);
    expect(sim.calls).toEqual({ account: 1, mmr: 0, mmrHistory: 1, matches: 1 });
  });

  test("the TTL follows the API key's role; anonymous callers get Default's", async () => {
    const { account, apiKey } = await createTestAccount(t.ctx);
    await assignRole(t.ctx, account, "Partner", "cli");
    t.ctx.accounts.invalidate();
    await getJson(`/rank${KESTREL}`);
    clock.advance(100_000);
    await getJson(`/rank${KESTREL}`, { headers: { "x-api-key": apiKey } });
    expect(sim.calls.mmr).toBe(1);
    await getJson(`/rank${KESTREL}`);
    expect(sim.calls.mmr).toBe(2);
  });

  test("an unknown player is remembered for the TTL too", async () => {
    await getJson("/rank/eu/Nobody/XYZ");
    await getJson("/stats/eu/nobody/xyz");
    expect(sim.calls.account).toBe(1);
  });

  test("100 concurrent identical cold requests make one call per provider route", async () => {
    const responses = await Promise.all(Array.from({ length: 100 }, () => getJson(`/rank${KESTREL}?type=3`)));
    expect(responses.every((r) => r.status === 200 && r.body.data.elo === 1045)).toBe(true);
    expect(sim.calls).toEqual({ account: 1, mmr: 1, mmrHistory: 0, matches: 0 });
  });

  test("when the provider fails, data up to 10 minutes old is served marked stale", async () => {
    const fresh = (await getJson(`/stats${KESTREL}?type=3`)).body.data;
    expect(fresh.stale).toBeUndefined();
    sim.knobs.failWith = 503;
    clock.advance(5 * 60_000);
    const { status, body } = await getJson(`/stats${KESTREL}?type=3`);
    expect(status).toBe(200);
    expect(body.data).toEqual({ ...fresh, stale: true });
    expect((await getText(`/stats${KESTREL}?type=3`)).line).toBe("55.6% WR | Jett | HS 20.6%");
    clock.advance(5 * 60_000 + 1);
    expectError(await getJson(`/stats${KESTREL}?type=3`), 500, "upstream_error");
  });
});

describe("the provider budget", () => {
  // Key holders: callers without a key get only part of the budget (tested below).
  const withKey = async () => ({ headers: { "x-api-key": (await createTestAccount(t.ctx)).apiKey } });

  test("never exceeds the configured requests per minute; refuses rather than queue for long", async () => {
    await t.cleanup();
    await start({ budget: 3 });
    const keyed = await withKey();
    expect((await getJson(`/rank${KESTREL}`, keyed)).status).toBe(200);
    const refused = await getJson(`/rank${NIGHT_OWL}`, keyed);
    expectError(refused, 500, "upstream_error");
    expect(refused.res.headers.get("retry-after")).toBe("60");
    expect(sim.totalCalls()).toBe(3);
    clock.advance(60_000);
    expect((await getJson(`/rank${NIGHT_OWL}`, keyed)).status).toBe(200);
  });

  test("with the budget spent, an expired value is served stale instead of calling", async () => {
    await t.cleanup();
    await start({ budget: 2 });
    const keyed = await withKey();
    const fresh = (await getJson(`/rank${KESTREL}?type=3`, keyed)).body.data;
    clock.advance(60_500);
    expect((await getJson(`/rank${NIGHT_OWL}`, keyed)).status).toBe(200);
    clock.advance(500);
    const { status, body } = await getJson(`/rank${KESTREL}?type=3`, keyed);
    expect(status).toBe(200);
    expect(body.data).toEqual({ ...fresh, stale: true });
    expect(sim.totalCalls()).toBe(4);
  });
});

describe("over a real socket", () => {
  test("a broken %-escape is still 400 naming the parameter (Bun's server decodes it leniently)", async () => {
    const t = await createTestContext();
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => t.app.handle(request) });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/game/rank/eu/%E0%A4%A/EUW`);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toBe('The path parameter "name" is not valid URL encoding.');
    } finally {
      await server.stop(true);
      await t.cleanup();
    }
  });
});

describe("Streamer.bot variables left unreplaced", () => {
  test("%input0% in the path is a missing parameter, not a broken %-escape", async () => {
    const t = await createTestContext();
    try {
      const res = await t.request("/api/game/rank/eu/%input0%/%input1%?type=2");
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toBe(
        'The path parameter "name" is missing: the bot sent its variable unreplaced.',
      );
    } finally {
      await t.cleanup();
    }
  });
});

describe("anonymous callers' share of the provider budget", () => {
  /** An anonymous request from one client address. */
  const from = (ip: string, path: string) => getJson(path, { headers: { "x-test-client-ip": ip } });

  test("anonymous lookups of unknown players cannot spend the half key holders keep", async () => {
    // The reproduction: 34 anonymous lookups of distinct unknown players, one call each.
    const anonymous = [];
    for (let i = 0; i < 34; i++) anonymous.push(await from(`198.51.100.${i}`, `/rank/eu/Nobody${i}/NONE`));
    // Half of the provider's 30 a minute.
    expect(sim.totalCalls()).toBe(15);
    expect(anonymous.filter((r) => r.status === 404)).toHaveLength(15);
    const refused = anonymous.filter((r) => r.status !== 404);
    for (const r of refused) expectError(r, 500, "upstream_error");
    const wait = Number(refused[0]!.res.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    const { apiKey } = await createTestAccount(t.ctx);
    const keyed = await getJson(`/rank${KESTREL}`, { headers: { "x-api-key": apiKey } });
    expect(keyed.status).toBe(200);
    expect(sim.totalCalls()).toBe(17);
  });

  test("one address alone may use the anonymous half; an address that asks meanwhile gets the next free call", async () => {
    const one = [];
    for (let i = 0; i < 16; i++) {
      one.push(await from("198.51.100.7", `/rank/eu/Nobody${i}/NONE`));
      clock.advance(1_000);
    }
    // Half of 30 for one address while no other asks.
    expect(one.filter((r) => r.status === 404)).toHaveLength(15);
    expectError(one[15]!, 500, "upstream_error");
    expect(one[15]!.body.error.message).toContain("API key");
    // At 16 s another address asks: refused until the first call leaves the window (at 60 s)...
    const late = await from("203.0.113.9", `/rank${KESTREL}`);
    expectError(late, 500, "upstream_error");
    expect(Number(late.res.headers.get("retry-after"))).toBe(44);
    // ...and then the free call is its own: two addresses asking, 8 each, and the first has 14.
    clock.advance(44_000);
    expectError(await from("198.51.100.7", "/rank/eu/Nobody20/NONE"), 500, "upstream_error");
    expect((await from("203.0.113.9", "/rank/eu/Nobody30/NONE")).status).toBe(404);
    expect(sim.totalCalls()).toBe(16);
  });

  test("a refusal in text mode is one line, its status and Retry-After in headers", async () => {
    for (let i = 0; i < 15; i++) await from("198.51.100.7", `/rank/eu/Nobody${i}/NONE`);
    const res = await t.request("/api/game/rank/eu/Nobody15/NONE?format=text", {
      headers: { "x-test-client-ip": "198.51.100.7" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cuebot-status")).toBe("500");
    expect(res.headers.get("retry-after")).toBe("60");
  });

  test("the budget is what the provider's rate-limit headers say the key may use", async () => {
    await t.cleanup();
    await sim.stop();
    sim = startGameSimulator({ clock, rateLimitPerMinute: 8 });
    await start();
    // 8 a minute: anonymous callers share 4.
    for (let i = 0; i < 10; i++) await from(`198.51.100.${i}`, `/rank/eu/Nobody${i}/NONE`);
    expect(sim.totalCalls()).toBe(4);
    const { apiKey } = await createTestAccount(t.ctx);
    expect((await getJson(`/rank${KESTREL}`, { headers: { "x-api-key": apiKey } })).status).toBe(200);
  });

  test("an anonymous caller refused for budget does not fail a key holder who joined its call", async () => {
    for (let i = 0; i < 15; i++) await from("198.51.100.7", `/rank/eu/Nobody${i}/NONE`);
    const q = { region: "eu", name: "Kestrel", tag: "EUW" } as const;
    // Asked in the same tick: the key holder joins the anonymous caller's account lookup, which the
    // budget refuses; the key holder's own call follows.
    const anonymous = t.ctx.game.rank(q, 60_000, "198.51.100.7");
    const keyed = t.ctx.game.rank(q, 60_000);
    await expect(anonymous).rejects.toMatchObject({ status: 500, code: "upstream_error" });
    expect((await keyed).value.rank.elo).toBe(1045);
    expect(sim.totalCalls()).toBe(17);
  });

  test("an anonymous caller who joined a call refused for another address's share makes its own", async () => {
    await from("198.51.100.1", "/rank/eu/Nobody0/NONE");
    // Two addresses ask: 8 each of the 15.
    for (let i = 1; i <= 8; i++) await from("198.51.100.7", `/rank/eu/Nobody${i}/NONE`);
    const q = { region: "eu", name: "Kestrel", tag: "EUW" } as const;
    // Asked in the same tick: the second joins the first's account lookup, which is refused for the
    // first's share (now 5 of 15, three addresses asking); the second's own call follows.
    const first = t.ctx.game.rank(q, 60_000, "198.51.100.7");
    const second = t.ctx.game.rank(q, 60_000, "203.0.113.9");
    await expect(first).rejects.toMatchObject({ status: 500, code: "upstream_error" });
    expect((await second).value.rank.elo).toBe(1045);
    expect(sim.totalCalls()).toBe(11);
  });
});

describe("duplicate query parameters", () => {
  test("the first value counts, as on every route", async () => {
    expect((await getJson(`/rank${KESTREL}?type=1&type=3`)).body.data.text).toBe("Gold 2");
    expectError(await getJson(`/rank${KESTREL}?type=9&type=1`), 400, "bad_request");
  });
});
