/**
 * The overlay bus over a real Redis: a publish reaches every instance's overlays once, and a
 * subscriber that went deaf while connected is found by the heartbeat watchdog, subscribed again,
 * and its overlays caught up from the stored state.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { StoredOverlayState } from "../../../db/overlay.ts";
import { createLogger } from "../../../server/core/log.ts";
import { OverlayHub } from "../../../server/overlay/hub.ts";
import { connectSharedStores, type SharedStores } from "../../../server/redis/shared-stores.ts";
import { waitFor } from "../../helpers/chat.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../../helpers/engines.ts";

explainSkip("redis");

const HEARTBEAT_MS = 50;
const state = (version: number, title: string): StoredOverlayState => ({
  state: { title },
  version,
  updatedAt: Date.now(),
});

describe.skipIf(!redisAvailable)("overlay bus", () => {
  let redis: RedisServer;
  const stores: SharedStores[] = [];

  async function instance(stored: () => StoredOverlayState) {
    const log = createLogger({ level: "error", format: "json", write: () => {} });
    const shared = await connectSharedStores(redis.url, log, { busHeartbeatMs: HEARTBEAT_MS });
    stores.push(shared);
    const hub = new OverlayHub({ bus: shared.overlayBus, load: async () => stored() });
    const heard: StoredOverlayState[] = [];
    hub.subscribe(7, (s) => heard.push(s));
    return { shared, hub, heard };
  }

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    for (const shared of stores) await shared.close();
    await redis.stop();
  });

  test("a publish reaches the overlays of every instance exactly once, its own included", async () => {
    let stored = state(0, "");
    const a = await instance(() => stored);
    const b = await instance(() => stored);
    stored = state(1, "one");
    a.hub.publish(7, stored);
    expect(await waitFor(() => a.heard.length === 1 && b.heard.length === 1, 10_000)).toBe(true);
    await Bun.sleep(50);
    expect(a.heard.map((s) => s.version)).toEqual([1]);
    expect(b.heard.map((s) => s.version)).toEqual([1]);
  });

  test("a deaf subscriber is subscribed again by the watchdog, and its overlays get the state they missed", async () => {
    let stored = state(0, "");
    const a = await instance(() => stored);
    const b = await instance(() => stored);
    // B's subscriber stops hearing while its connection stays up.
    await b.shared.subscriber.unsubscribe();
    stored = state(2, "missed");
    a.hub.publish(7, stored);
    expect(await waitFor(() => a.heard.length === 1, 10_000)).toBe(true);
    // Within a few heartbeats B notices, subscribes again, and re-sends the stored state.
    expect(await waitFor(() => b.heard.some((s) => s.version === 2), 10 * HEARTBEAT_MS + 2000)).toBe(true);
    stored = state(3, "after");
    a.hub.publish(7, stored);
    expect(await waitFor(() => b.heard.some((s) => s.version === 3), 10_000)).toBe(true);
  });

  test("anything else on the channel (junk, wrong shapes, another sender's heartbeat) is ignored", async () => {
    let stored = state(0, "");
    const a = await instance(() => stored);
    const channel = "cuebot:overlay";
    for (const junk of [
      "not json",
      "{}",
      JSON.stringify({ a: 7, s: { version: "2", updatedAt: 1, state: {} } }),
      JSON.stringify({ a: 7, s: { version: 2, updatedAt: "x", state: {} } }),
      JSON.stringify({ a: 7, s: { version: 2, updatedAt: 1, state: [] } }),
      JSON.stringify({ a: "7", s: { version: 2, updatedAt: 1, state: {} } }),
      crypto.randomUUID(),
    ]) {
      await a.shared.redis.publish(channel, junk);
    }
    stored = state(4, "real");
    a.hub.publish(7, stored);
    expect(await waitFor(() => a.heard.length === 1, 10_000)).toBe(true);
    await Bun.sleep(50);
    expect(a.heard.map((s) => s.version)).toEqual([4]);
  });
});
