import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../../server/core/clock.ts";
import { ProviderBudget } from "../../../server/game/budget.ts";
import {
  classifyFailure,
  parseAccount,
  parseMatches,
  parseMmr,
  parseMmrHistory,
} from "../../../server/game/client.ts";
import account from "../../fixtures/game-provider/account_details_v1.json";
import match from "../../fixtures/game-provider/match_details_v2.trimmed.json";
import mmr from "../../fixtures/game-provider/mmr_details_by_name_v2.json";
import history from "../../fixtures/game-provider/mmr_history_by_name_v1.json";

describe("parsing real captured provider responses", () => {
  test("account v1", () => {
    expect(parseAccount(account)).toEqual({
      puuid: "930bb0d3-c914-5394-bcf6-0bc81f465bd7",
      region: "eu",
      account_level: 113,
      name: "jasminaxrose",
      tag: "7024",
      card: {
        small: "https://media.valorant-api.com/playercards/fcceda12-4815-17d0-ffc1-698aac40777a/smallart.png",
        large: "https://media.valorant-api.com/playercards/fcceda12-4815-17d0-ffc1-698aac40777a/largeart.png",
        wide: "https://media.valorant-api.com/playercards/fcceda12-4815-17d0-ffc1-698aac40777a/wideart.png",
      },
      last_update: "Now",
    });
  });

  test("MMR v2 reads currenttierpatched (and the underscore spelling)", () => {
    const parsed = parseMmr(mmr);
    expect(parsed).toMatchObject({
      currenttier: 14,
      currenttierpatched: "Gold 3",
      ranking_in_tier: 66,
      mmr_change_to_last_game: 24,
      elo: 1166,
    });
    expect(parsed.image).toEndWith("/14/smallicon.png");
    const underscored = structuredClone(mmr) as { data: { current_data: Record<string, unknown> } };
    underscored.data.current_data.currenttier_patched = underscored.data.current_data.currenttierpatched;
    delete underscored.data.current_data.currenttierpatched;
    expect(parseMmr(underscored).currenttierpatched).toBe("Gold 3");
  });

  test("MMR history v1 keeps date_raw in unix seconds", () => {
    const entries = parseMmrHistory(history);
    expect(entries).toHaveLength(20);
    expect(entries[0]).toEqual({
      match_id: "512811b9-1edf-4aed-8ad7-1630172ed72c",
      mmr_change_to_last_game: -18,
      elo: 1123,
      date_raw: 1679687611,
    });
  });

  test("a v2/v3 match, with capitalised teams lowered and shots per player", () => {
    const [parsed] = parseMatches({ status: 200, data: [match.data] });
    expect(parsed?.matchid).toBe("f15f649a-e9b8-46d1-908c-87c8c01fdd9e");
    expect(parsed?.mode).toBe("Custom Game");
    expect(parsed?.players).toHaveLength(10);
    expect(parsed?.players[0]).toMatchObject({
      name: "Taiga",
      team: "blue",
      character: "Phoenix",
      headshots: 9,
      bodyshots: 42,
      legshots: 10,
    });
    expect(parsed?.teams.blue.rounds_won).toBeNumber();
  });

  test("unloadable list items are skipped, not fatal", () => {
    const unavailable = { is_available: false, metadata: null, players: null, teams: null };
    expect(parseMatches({ status: 200, data: [unavailable, match.data, null] })).toHaveLength(1);
  });

  test("an answer without data is malformed", () => {
    expect(() => parseAccount({ status: 200 })).toThrow(expect.objectContaining({ kind: "malformed" }));
    expect(() => parseMatches({ status: 200, data: {} })).toThrow(
      expect.objectContaining({ kind: "malformed" }),
    );
  });
});

describe("provider failures", () => {
  const v4 = (status: number, code: number) =>
    JSON.stringify({ errors: [{ code, message: "m", status, details: null }] });
  const legacy = (status: number, code: number) =>
    JSON.stringify({ status, errors: [{ code, message: "m", details: "d" }] });

  test("404 codes 22–25 mean the player has no such data, in either body shape", () => {
    for (const body of [v4, legacy]) {
      expect(classifyFailure(404, body(404, 22)).kind).toBe("player_not_found");
      expect(classifyFailure(404, body(404, 23)).kind).toBe("no_region");
      expect(classifyFailure(404, body(404, 24)).kind).toBe("no_recent_matches");
      expect(classifyFailure(404, body(404, 25)).kind).toBe("no_rank");
      expect(classifyFailure(404, body(404, 25)).isNotFound).toBe(true);
    }
  });

  test("a 404 for a missing route is the provider's problem, not the player's", () => {
    expect(classifyFailure(404, v4(404, 0)).isNotFound).toBe(false);
  });

  test("key, rate-limit, timeout and server errors are upstream failures", () => {
    expect(classifyFailure(401, v4(401, 0)).kind).toBe("key_missing");
    expect(classifyFailure(403, v4(403, 0)).kind).toBe("key_refused");
    expect(classifyFailure(429, legacy(429, 0)).kind).toBe("rate_limited");
    expect(classifyFailure(408, legacy(408, 408)).kind).toBe("timeout");
    expect(classifyFailure(503, "<html>bad gateway</html>").kind).toBe("unavailable");
    expect(classifyFailure(500, v4(500, 1)).isNotFound).toBe(false);
  });
});

describe("the per-minute budget", () => {
  test("allows the budget, then refuses until the oldest request leaves the window", async () => {
    const clock = new ManualClock();
    const budget = new ProviderBudget(3, clock, 0);
    for (let i = 0; i < 3; i++) await budget.acquire();
    await expect(budget.acquire()).rejects.toMatchObject({ kind: "rate_limited" });
    clock.advance(59_999);
    await expect(budget.acquire()).rejects.toMatchObject({ kind: "rate_limited" });
    clock.advance(1);
    // All three were sent at the same instant, so all three left the window together.
    await budget.acquire();
    expect(budget.used).toBe(1);
  });

  test("refuses at once when no slot frees within the queue time", async () => {
    const budget = new ProviderBudget(1, { now: () => Date.now() }, 1_000);
    await budget.acquire();
    const started = performance.now();
    await expect(budget.acquire()).rejects.toMatchObject({ kind: "rate_limited" });
    expect(performance.now() - started).toBeLessThan(100);
  });

  test("waits for a slot that frees within the queue time", async () => {
    let now = 0;
    const budget = new ProviderBudget(1, { now: () => now }, 1_000);
    await budget.acquire();
    now = 59_950;
    const started = performance.now();
    const waiting = budget.acquire();
    setTimeout(() => {
      now = 60_000;
    }, 20);
    await waiting;
    expect(performance.now() - started).toBeGreaterThanOrEqual(40);
  });

  test("a provider pause blocks until it ends", async () => {
    const clock = new ManualClock();
    const budget = new ProviderBudget(30, clock, 0);
    budget.pauseFor(10_000);
    await expect(budget.acquire()).rejects.toMatchObject({ kind: "rate_limited" });
    clock.advance(10_000);
    await budget.acquire();
  });
});
