import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { ManualClock } from "../../../server/core/clock.ts";
import type { GameSimulator } from "../../../server/sim/game/server.ts";
import { createTestAccount, type TestContext } from "../../helpers/context.ts";
import { startGameHarness, stopGameHarness } from "../../helpers/game.ts";

/**
 * Conditional game requests: every game answer carries a strong ETag of its body, and a request whose
 * If-None-Match holds it gets a 304 with no body, which counts against the caller's limit like a 200.
 * The simulator's seeded Kestrel#EUW is Gold 2, 45 RR (tests/server/game/routes.test.ts).
 */

const RANK = "/api/game/rank/eu/Kestrel/EUW?type=2";
const RANK_TEXT = `${RANK}&format=text`;
const TODAY = "/api/game/today/eu/Kestrel/EUW?type=3";

let clock: ManualClock;
let sim: GameSimulator;
let t: TestContext;

beforeEach(async () => {
  ({ clock, sim, t } = await startGameHarness());
});

afterEach(() => stopGameHarness({ sim, t }));

function get(path: string, headers: Record<string, string> = {}) {
  return t.request(path, { headers });
}

async function etagOf(path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await get(path, headers);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  const etag = res.headers.get("etag");
  if (etag === null) throw new Error(`${path} answered without an ETag`);
  return etag;
}

describe("ETag and 304", () => {
  test("a 200 carries a strong ETag and private, no-cache; the same tag back is a 304 with no body", async () => {
    const first = await get(RANK);
    const body = await first.text();
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    expect(JSON.parse(body).data.text).toBe("Gold 2 - 45 RR");

    const again = await get(RANK, { "if-none-match": etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("private, no-cache");
    expect(again.headers.get("content-type")).toBeNull();
    expect(again.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("a different tag gets the 200 and its body", async () => {
    const etag = await etagOf(RANK);
    const other = await get(RANK, { "if-none-match": '"not-this-one"' });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).toBe(etag);
    expect((await other.json()).data.text).toBe("Gold 2 - 45 RR");
  });

  test("lists, the weak form and * match by weak comparison", async () => {
    const etag = await etagOf(RANK);
    for (const header of [`"a", ${etag}`, `W/${etag}`, `W/"b" , W/${etag}, "c"`, "*"]) {
      expect((await get(RANK, { "if-none-match": header })).status).toBe(304);
    }
    for (const header of [etag.slice(1, -1), `"x${etag.slice(1)}`, `W/"b", "c"`]) {
      expect((await get(RANK, { "if-none-match": header })).status).toBe(200);
    }
  });

  test("text mode has its own tag, and always answers 200 with its line: a chat bot posts only a 200's body", async () => {
    const jsonTag = await etagOf(RANK);
    const text = await get(RANK_TEXT);
    expect(await text.text()).toBe("Gold 2 - 45 RR");
    const textTag = text.headers.get("etag")!;
    expect(textTag).not.toBe(jsonTag);
    expect(text.headers.get("cache-control")).toBe("private, no-cache");
    expect(text.headers.get("x-cuebot-status")).toBe("200");

    for (const match of [textTag, "*"]) {
      const again = await get(RANK_TEXT, { "if-none-match": match });
      expect(again.status).toBe(200);
      expect(again.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(again.headers.get("x-cuebot-status")).toBe("200");
      expect(await again.text()).toBe("Gold 2 - 45 RR");
    }
    // The JSON body's tag does not stand for the chat line, nor the other way round.
    expect((await get(RANK_TEXT, { "if-none-match": jsonTag })).status).toBe(200);
    expect((await get(RANK, { "if-none-match": textTag })).status).toBe(200);
    // A chat bot chooses text by its headers alone: the same line, the same tag.
    expect(await etagOf(RANK, { "nightbot-user": "name=viewer" })).toBe(textTag);
  });

  test("every endpoint and type answers with a tag of its own", async () => {
    const paths = ["", "?type=1", "?type=2", "?type=3"].flatMap((type) =>
      ["rank", "today", "stats"].map((endpoint) => `/api/game/${endpoint}/eu/Kestrel/EUW${type}`),
    );
    paths.push("/api/game/match/last/eu/Kestrel/EUW");
    const tags = [];
    for (const path of paths) {
      const etag = await etagOf(path);
      expect((await get(path, { "if-none-match": etag })).status).toBe(304);
      tags.push(etag);
    }
    expect(new Set(tags).size).toBe(paths.length);
  });
});

describe("the tag follows the data", () => {
  test("a refreshed upstream entry answers with the new body and a new tag, never the old ones", async () => {
    const kestrel = sim.players.find((p) => p.name === "Kestrel")!;
    const seeded = { ...kestrel.rank! };
    const first = await get(RANK);
    const oldBody = await first.text();
    const oldTag = first.headers.get("etag")!;
    const oldText = await etagOf(RANK_TEXT);
    try {
      kestrel.rank!.rr = 80;
      // Within the TTL the cached entry still answers, unchanged.
      expect((await get(RANK, { "if-none-match": oldTag })).status).toBe(304);
      clock.advance(61_000);
      const refreshed = await get(RANK, { "if-none-match": oldTag });
      expect(refreshed.status).toBe(200);
      const body = await refreshed.text();
      expect(JSON.parse(body).data.text).toBe("Gold 2 - 80 RR");
      expect(body).not.toBe(oldBody);
      expect(refreshed.headers.get("etag")).not.toBe(oldTag);
      const line = await get(RANK_TEXT, { "if-none-match": oldText });
      expect(line.status).toBe(200);
      expect(await line.text()).toBe("Gold 2 - 80 RR");
      expect(sim.calls.mmr).toBe(2);
    } finally {
      Object.assign(kestrel.rank!, seeded);
    }
  });

  test("the same data after a refresh keeps its tag (the tag is of the bytes)", async () => {
    const etag = await etagOf(RANK);
    clock.advance(61_000);
    expect((await get(RANK, { "if-none-match": etag })).status).toBe(304);
    expect(sim.calls.mmr).toBe(2);
  });

  test("today's answer changes with the clock as games leave the 24 h window", async () => {
    const before = await get(TODAY);
    const etag = before.headers.get("etag")!;
    expect((await before.json()).data.matches_played).toBe(5);
    clock.advance(5 * 3600_000);
    const later = await get(TODAY, { "if-none-match": etag });
    expect(later.status).toBe(200);
    expect((await later.json()).data.matches_played).toBe(3);
    expect(later.headers.get("etag")).not.toBe(etag);
  });

  test("stale data has a tag of its own", async () => {
    const etag = await etagOf(RANK);
    sim.knobs.failWith = 503;
    clock.advance(5 * 60_000);
    const stale = await get(RANK, { "if-none-match": etag });
    expect(stale.status).toBe(200);
    expect((await stale.json()).data.stale).toBe(true);
    expect((await get(RANK, { "if-none-match": stale.headers.get("etag")! })).status).toBe(304);
  });
});

describe("a 304 is an answer", () => {
  test("it counts against the per-IP limit and carries the rate-limit headers", async () => {
    const ip = { "x-test-client-ip": "198.51.100.20" };
    const first = await get(RANK, ip);
    const etag = first.headers.get("etag")!;
    const limit = Number(first.headers.get("x-ratelimit-limit"));
    expect(Number(first.headers.get("x-ratelimit-remaining"))).toBe(limit - 1);
    for (let i = 2; i <= limit; i++) {
      const res = await get(RANK, { ...ip, "if-none-match": etag });
      expect(res.status).toBe(304);
      expect(Number(res.headers.get("x-ratelimit-remaining"))).toBe(limit - i);
    }
    const refused = await get(RANK, { ...ip, "if-none-match": etag });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("etag")).toBeNull();
    expect((await refused.json()).error.code).toBe("rate_limited");
  });

  test("it counts against an API key's quota", async () => {
    const { apiKey } = await createTestAccount(t.ctx);
    const keyed = { "x-api-key": apiKey };
    const etag = await etagOf(RANK, keyed);
    const res = await get(RANK, { ...keyed, "if-none-match": etag });
    expect(res.status).toBe(304);
    expect(res.headers.get("x-ratelimit-limit")).toBe("30");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("28");
  });
});

describe("errors have no ETag", () => {
  test("404, 400 and a 500 in text mode answer as before, with no tag, whatever If-None-Match says", async () => {
    const notFound = await get("/api/game/rank/eu/Nobody/XYZ", { "if-none-match": "*" });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("etag")).toBeNull();
    expect(notFound.headers.get("cache-control")).toBeNull();
    expect((await notFound.json()).error.code).toBe("player_not_found");

    const badRequest = await get("/api/game/rank/mars/Kestrel/EUW", { "if-none-match": "*" });
    expect(badRequest.status).toBe(400);
    expect(badRequest.headers.get("etag")).toBeNull();

    sim.knobs.failWith = 503;
    const failed = await get("/api/game/stats/eu/Kestrel/EUW?format=text", { "if-none-match": "*" });
    expect(failed.status).toBe(200);
    expect(failed.headers.get("x-cuebot-status")).toBe("500");
    expect(failed.headers.get("etag")).toBeNull();
  });
});

describe("/docs", () => {
  test("every game route lists its 200 with the ETag and its 304", async () => {
    const doc = (await (await t.request("/docs/json")).json()) as {
      paths: Record<string, { get?: { responses?: Record<string, { headers?: Record<string, unknown> }> } }>;
    };
    const routes = Object.keys(doc.paths).filter((path) => path.startsWith("/api/game/"));
    expect(routes).toHaveLength(4);
    for (const path of routes) {
      const responses = doc.paths[path]!.get!.responses!;
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(["200", "304", "401", "404", "500"]));
      expect(Object.keys(responses["200"]!.headers!)).toEqual(["ETag", "Cache-Control"]);
    }
  });
});
