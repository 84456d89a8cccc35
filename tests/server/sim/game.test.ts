import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "../../../server/core/clock.ts";
import { puuidOf } from "../../../server/sim/game/players.ts";
import { type GameSimulator, startGameSimulator } from "../../../server/sim/game/server.ts";
import accountFixture from "../../fixtures/game-provider/account_details_v1.json";
import openapi from "../../fixtures/game-provider/henrikdev-openapi.json";
import matchFixture from "../../fixtures/game-provider/match_details_v2.trimmed.json";
import mmrFixture from "../../fixtures/game-provider/mmr_details_by_name_v2.json";
import historyFixture from "../../fixtures/game-provider/mmr_history_by_name_v1.json";

/**
 * Keeps the simulator honest: its answers must have the keys and value types of real captured
 * provider responses, and any key the (older) captures lack must be in the provider's OpenAPI.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
};

const schemas = (openapi as unknown as { components: { schemas: Record<string, Schema> } }).components
  .schemas;

function deref(schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  return deref(schemas[schema.$ref.replace("#/components/schemas/", "")]);
}

/**
 * Keys the simulator sends that neither the 2022–2023 captures nor the 4.1.0 OpenAPI have, each
 * confirmed by reference/game-provider.md: newer fields, or names the OpenAPI misspells.
 */
const KNOWN_NEWER_OR_MISSPELT: Record<string, string> = {
  is_available: "v3 list items since 2024 (reference §2.5)",
  roster: "the OpenAPI spells it `roaster` (data/README.md)",
};

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function schemaAccepts(schema: Schema, value: unknown): boolean {
  if (value === null) return schema.nullable === true;
  const kind = kindOf(value);
  if (schema.type && schema.type !== kind && !(schema.type === "number" && kind === "integer")) return false;
  if (schema.enum && typeof value === "string") return schema.enum.includes(value);
  return true;
}

/**
 * Walks a simulator value beside the capture and the schema. Where the capture has the node, its
 * keys must all be present with the same kind of value (the capture is the truth for types); keys
 * only the simulator has must be documented by the OpenAPI with a matching type.
 */
function check(
  sim: unknown,
  fixture: unknown,
  schema: Schema | undefined,
  path: string,
  problems: string[],
): void {
  const resolved = deref(schema);
  if (fixture !== undefined && fixture !== null) {
    if (kindOf(sim) !== kindOf(fixture) && !(kindOf(fixture) === "number" && kindOf(sim) === "integer")) {
      problems.push(`${path}: ${kindOf(sim)} where the capture has ${kindOf(fixture)}`);
      return;
    }
  } else if (resolved) {
    if (!schemaAccepts(resolved, sim))
      problems.push(`${path}: ${JSON.stringify(sim)} does not fit the OpenAPI`);
  }
  if (Array.isArray(sim)) {
    const fixtureItem = Array.isArray(fixture) ? fixture[0] : undefined;
    sim.forEach((item, i) => {
      check(item, fixtureItem, resolved?.items, `${path}[${i}]`, problems);
    });
    return;
  }
  if (!sim || typeof sim !== "object") return;
  const fixtureObject =
    fixture && typeof fixture === "object" ? (fixture as Record<string, unknown>) : undefined;
  for (const key of Object.keys(fixtureObject ?? {})) {
    if (!(key in sim)) problems.push(`${path}.${key}: missing (the capture has it)`);
  }
  for (const [key, value] of Object.entries(sim)) {
    const childFixture = fixtureObject?.[key];
    const childSchema = resolved?.properties?.[key];
    if (childFixture === undefined && !childSchema && !KNOWN_NEWER_OR_MISSPELT[key]) {
      problems.push(`${path}.${key}: neither in the capture nor in the OpenAPI`);
      continue;
    }
    check(value, childFixture, childSchema, `${path}.${key}`, problems);
  }
}

let sim: GameSimulator;
const clock = new ManualClock();

beforeAll(() => {
  sim = startGameSimulator({ clock, rateLimitPerMinute: 1_000 });
});
afterAll(() => sim.stop());

async function call(path: string, key: string | null = sim.apiKey) {
  const res = await fetch(`${sim.url}${path}`, key ? { headers: { Authorization: key } } : {});
  return { res, body: (await res.json()) as Record<string, Json> };
}

describe("the simulator matches captured responses and the OpenAPI", () => {
  test("account v1", async () => {
    const { body } = await call("/valorant/v1/account/kestrel/euw");
    const problems: string[] = [];
    check(body, accountFixture, schemas.v1_account, "account", problems);
    expect(problems).toEqual([]);
    expect(body.data).toMatchObject({ name: "Kestrel", tag: "EUW", region: "eu" });
  });

  test("MMR v2, including seasons with and without data", async () => {
    const { body } = await call("/valorant/v2/mmr/eu/Kestrel/EUW");
    const data = body.data as { by_season: Record<string, Json> };
    const seasons = Object.entries(mmrFixture.data.by_season);
    const withData = seasons.find(([, s]) => !("error" in s))![1];
    const withoutData = seasons.find(([, s]) => "error" in s)![1];
    const problems: string[] = [];
    // Season keys grow every act, so each season is compared with a captured season of its kind.
    for (const [id, season] of Object.entries(data.by_season)) {
      const expected = season && typeof season === "object" && "error" in season ? withoutData : withData;
      check(season, expected, undefined, `by_season.${id}`, problems);
      expect(Object.keys(season as object).sort()).toEqual(Object.keys(expected).sort());
    }
    const { by_season: _seasons, ...rest } = data;
    const { by_season: _fixtureSeasons, ...fixtureRest } = mmrFixture.data;
    check(rest, fixtureRest, schemas.v2mmr?.properties?.data, "mmr.data", problems);
    expect(problems).toEqual([]);
  });

  test("MMR history v1: the same keys as the capture, newest first, dates in unix seconds", async () => {
    const { body } = await call("/valorant/v1/mmr-history/eu/Kestrel/EUW");
    const problems: string[] = [];
    check(body, historyFixture, schemas.v1mmrh, "history", problems);
    expect(problems).toEqual([]);
    const entries = body.data as { date_raw: number }[];
    expect(Object.keys(entries[0]!).sort()).toEqual(Object.keys(historyFixture.data[0]!).sort());
    const dates = entries.map((e) => e.date_raw);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(dates[0]).toBe(Math.floor(clock.now() / 1000) - 3600);
  });

  test("v3 match items have the shape of a captured match; unloadable items have null parts", async () => {
    const { body } = await call("/valorant/v3/matches/eu/Kestrel/EUW?size=10");
    const items = body.data as Record<string, Json>[];
    const problems: string[] = [];
    const available = items.filter((item) => item.is_available === true);
    for (const [i, item] of available.entries()) {
      check(item, matchFixture.data, schemas.match, `matches[${i}]`, problems);
    }
    expect(problems).toEqual([]);
    expect(items.filter((item) => item.is_available === false)).toEqual([
      {
        is_available: false,
        metadata: null,
        players: null,
        observers: null,
        coaches: null,
        teams: null,
        rounds: null,
        kills: null,
      },
    ]);
    const modes = available.map((item) => (item.metadata as { mode: string }).mode);
    expect(modes).toContain("Unrated");
    const starts = available.map((item) => (item.metadata as { game_start: number }).game_start);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
  });

  test("a match has five players a side, teams keyed red/blue, players' team capitalised", async () => {
    const { body } = await call("/valorant/v3/matches/eu/Kestrel/EUW?mode=competitive&size=10");
    const [last] = body.data as {
      players: { all_players: { puuid: string; team: string }[]; red: unknown[]; blue: unknown[] };
      teams: { red: { has_won: boolean }; blue: { has_won: boolean } };
    }[];
    expect(last!.players.all_players).toHaveLength(10);
    expect(last!.players.red).toHaveLength(5);
    expect(last!.players.blue).toHaveLength(5);
    const me = last!.players.all_players.find((p) => p.puuid === puuidOf({ name: "Kestrel", tag: "EUW" }));
    expect(me?.team).toBe("Red");
    expect(last!.teams).toMatchObject({ red: { has_won: true }, blue: { has_won: false } });
  });

  test("the draw: equal rounds and neither team won", async () => {
    const { body } = await call("/valorant/v3/matches/eu/Kestrel/EUW?mode=competitive&size=10");
    const draws = (body.data as { teams: { red: Json; blue: Json } | null }[]).filter(
      (item) =>
        item.teams &&
        JSON.stringify(item.teams.red) === JSON.stringify({ ...(item.teams.blue as object) }) &&
        (item.teams.red as { has_won: boolean }).has_won === false,
    );
    expect(draws).toHaveLength(1);
    expect(draws[0]!.teams!.red).toMatchObject({ rounds_won: 15, rounds_lost: 15 });
  });

  test("rank data agrees across routes: the newest history entry is the current rank", async () => {
    const mmr = (await call("/valorant/v2/mmr/eu/Kestrel/EUW")).body.data as {
      current_data: {
        elo: number;
        currenttier: number;
        ranking_in_tier: number;
        mmr_change_to_last_game: number;
      };
    };
    const [newest] = (await call("/valorant/v1/mmr-history/eu/Kestrel/EUW")).body.data as {
      elo: number;
      currenttier: number;
      ranking_in_tier: number;
      mmr_change_to_last_game: number;
    }[];
    expect(newest).toMatchObject({
      elo: mmr.current_data.elo,
      currenttier: mmr.current_data.currenttier,
      ranking_in_tier: mmr.current_data.ranking_in_tier,
      mmr_change_to_last_game: mmr.current_data.mmr_change_to_last_game,
    });
    // HenrikDev's elo is (tier − 3) × 100 + RR (reference §3.2).
    expect(mmr.current_data.elo).toBe(
      (mmr.current_data.currenttier - 3) * 100 + mmr.current_data.ranking_in_tier,
    );
  });
});

describe("the simulator's provider behaviour", () => {
  const errorShape = (status: number, code: number) => ({
    status,
    errors: [{ code, message: expect.any(String), status, details: null }],
  });

  test("a missing key is 401 and an unknown key 403, in both error shapes", async () => {
    const missing = await call("/valorant/v1/account/Kestrel/EUW", null);
    expect(missing.res.status).toBe(401);
    expect(missing.body).toEqual(errorShape(401, 0));
    const unknown = await call("/valorant/v1/account/Kestrel/EUW", "HDEV-not-a-key");
    expect(unknown.res.status).toBe(403);
    expect(unknown.body).toEqual(errorShape(403, 0));
  });

  test("the key is also accepted as ?api_key= (for bots that cannot set headers)", async () => {
    const res = await fetch(`${sim.url}/valorant/v1/account/Kestrel/EUW?api_key=${sim.apiKey}`);
    expect(res.status).toBe(200);
  });

  test("names match case-insensitively after URL-decoding, and come back in canonical casing", async () => {
    for (const [name, tag, canonical] of [
      ["night%20owl", "na1", "Night Owl"],
      [encodeURIComponent("αθηνά"), "gr7", "Αθηνά"],
      [encodeURIComponent("호랑이"), "kr1", "호랑이"],
    ] as const) {
      const { res, body } = await call(`/valorant/v1/account/${name}/${tag}`);
      expect(res.status).toBe(200);
      expect((body.data as { name: string }).name).toBe(canonical);
    }
  });

  test("unknown player 404 code 22; unranked 404 code 25 with empty history; bad region 400 code 6", async () => {
    expect((await call("/valorant/v1/account/Nobody/XYZ")).body).toEqual(errorShape(404, 22));
    expect((await call("/valorant/v2/mmr/eu/Fresh%20Start/NEW")).body).toEqual(errorShape(404, 25));
    expect((await call("/valorant/v1/mmr-history/eu/Fresh%20Start/NEW")).body.data).toEqual([]);
    expect(
      (await call("/valorant/v3/matches/eu/Fresh%20Start/NEW?mode=competitive&size=10")).body.data,
    ).toEqual([]);
    expect((await call("/valorant/v2/mmr/mars/Kestrel/EUW")).body).toEqual(errorShape(400, 6));
    expect((await call("/valorant/v3/matches/eu/Kestrel/EUW?size=11")).res.status).toBe(400);
  });

  test("a valid region that is not the player's: no MMR, empty lists", async () => {
    expect((await call("/valorant/v2/mmr/na/Kestrel/EUW")).body).toEqual(errorShape(404, 25));
    expect((await call("/valorant/v3/matches/na/Kestrel/EUW?size=5")).body.data).toEqual([]);
  });

  test("rate-limit headers on every answer, and 429 with the README body past the limit", async () => {
    const limited = startGameSimulator({ clock: new ManualClock(), rateLimitPerMinute: 2 });
    try {
      const get = () =>
        fetch(`${limited.url}/valorant/v1/account/Kestrel/EUW`, {
          headers: { Authorization: limited.apiKey },
        });
      const first = await get();
      expect(first.headers.get("x-ratelimit-limit")).toBe("2");
      expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
      expect(first.headers.get("x-ratelimit-reset")).toBe("60");
      await get();
      const refused = await get();
      expect(refused.status).toBe(429);
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(await refused.json()).toEqual({
        status: 429,
        errors: [{ code: 0, message: "Rate Limited", status: 429, details: null, global: false }],
      });
      expect(limited.calls.account).toBe(3);
    } finally {
      await limited.stop();
    }
  });

  test("knobs: a forced 503 with the provider's message", async () => {
    sim.knobs.failWith = 503;
    try {
      const { res, body } = await call("/valorant/v1/account/Kestrel/EUW");
      expect(res.status).toBe(503);
      expect(body).toEqual({
        status: 503,
        errors: [{ code: 0, message: "Riot Origin Server is not reachable", status: 503, details: null }],
      });
    } finally {
      sim.knobs.failWith = null;
    }
  });
});
