import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { ManualClock } from "../../../server/core/clock.ts";
import { rankRecord, todayRecord } from "../../../server/game/records.ts";
import type { GameSimulator } from "../../../server/sim/game/server.ts";
import type { TestContext } from "../../helpers/context.ts";
import { startGameHarness, stopGameHarness } from "../../helpers/game.ts";

/**
 * The game records as both the game API and the chat commands get them: made once per cached
 * provider value and kept with it (server/game/records.ts), so a repeat derives and serialises
 * nothing, and a refreshed value never answers with the old record. Seeded truths as in routes.test.ts.
 */

const KESTREL = { region: "eu", name: "Kestrel", tag: "EUW" } as const;
const TTL = 60_000;
const shape = (text: string) => text;

let clock: ManualClock;
let sim: GameSimulator;
let t: TestContext;

beforeEach(async () => {
  ({ clock, sim, t } = await startGameHarness());
});

afterEach(() => stopGameHarness({ sim, t }));

describe("records kept with the cache entry", () => {
  test("a repeat within the TTL is the same answer, its bodies serialised once", async () => {
    const first = await rankRecord(t.ctx, KESTREL, 3, TTL);
    const json = first.json();
    const again = await rankRecord(t.ctx, KESTREL, 3, TTL);
    expect(again).toBe(first);
    expect(again.json()).toBe(json);
    expect(again.line(shape)).toBe(first.line(shape));
    expect(JSON.parse(json.body)).toEqual({ status: 200, data: first.data });
    // Another type is another answer from the same entry.
    const typeOne = await rankRecord(t.ctx, KESTREL, 1, TTL);
    expect(typeOne).not.toBe(first);
    expect(typeOne.data.text).toBe("Gold 2");
    expect(sim.calls.mmr).toBe(1);
  });

  test("a refreshed entry gets a new answer, never the one made from the old data", async () => {
    const kestrel = sim.players.find((p) => p.name === "Kestrel")!;
    const seeded = { ...kestrel.rank! };
    const first = await rankRecord(t.ctx, KESTREL, 2, TTL);
    const firstJson = first.json().body;
    try {
      kestrel.rank!.rr = 80;
      clock.advance(TTL + 1);
      const refreshed = await rankRecord(t.ctx, KESTREL, 2, TTL);
      expect(refreshed).not.toBe(first);
      expect(refreshed.data.text).toBe("Gold 2 - 80 RR");
      expect(refreshed.json().body).not.toBe(firstJson);
      expect(refreshed.line(shape).body).toBe("Gold 2 - 80 RR");
      // The old answer, still held by whoever had it, is unchanged.
      expect(first.data.text).toBe("Gold 2 - 45 RR");
    } finally {
      Object.assign(kestrel.rank!, seeded);
    }
  });

  test("the chat commands' copy of a record cannot change the kept one", async () => {
    const answer = await rankRecord(t.ctx, KESTREL, undefined, TTL);
    const copy = { ...answer.data };
    copy.text = "changed";
    expect((await rankRecord(t.ctx, KESTREL, undefined, TTL)).data.text).toBe(
      "Kestrel#EUW is Gold 2 - 45 RR (1045 ELO), last game +18 RR.",
    );
  });

  test("today holds until its oldest game leaves the 24 h window, then changes without a provider call", async () => {
    // The oldest counted game (an unloadable one, -14 RR) was 22 h before the start: it leaves at 2 h.
    // Asked 5 minutes before, with a TTL that keeps the entries fresh meanwhile: only the clock moves.
    const tenMinutes = 10 * 60_000;
    clock.advance(2 * 3600_000 - 5 * 60_000);
    const first = await todayRecord(t.ctx, KESTREL, 3, tenMinutes);
    expect(first.data).toMatchObject({ matches_played: 5, rr_change: 11 });
    const calls = sim.totalCalls();
    clock.advance(5 * 60_000);
    expect(await todayRecord(t.ctx, KESTREL, 3, tenMinutes)).toBe(first);
    clock.advance(1);
    const later = await todayRecord(t.ctx, KESTREL, 3, tenMinutes);
    expect(later.data).toMatchObject({ matches_played: 4, rr_change: 25 });
    expect(later.json().etag).not.toBe(first.json().etag);
    expect(sim.totalCalls()).toBe(calls);
  });
});
