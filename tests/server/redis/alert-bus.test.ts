/**
 * The alert bus over a real Redis: an alert published on one instance reaches the overlays of every
 * instance once each; junk on the channel is ignored; a subscriber that went deaf is subscribed again
 * by the watchdog and its overlays offered the last minute's alerts, none twice.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Alert } from "../../../server/alerts/model.ts";
import { createLogger } from "../../../server/core/log.ts";
import { AlertFeed, AlertHub } from "../../../server/overlay/alert-hub.ts";
import { connectSharedStores, type SharedStores } from "../../../server/redis/shared-stores.ts";
import { waitFor } from "../../helpers/chat.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../../helpers/engines.ts";

explainSkip("redis");

const HEARTBEAT_MS = 50;
const alert = (id: number, user = `viewer${id}`): Alert => ({
  id,
  type: "raid",
  fields: { user, amount: 42, months: null, tier: null, reward: null, message: null },
  at: Date.now(),
  test: false,
  text: `${user} is raiding with 42 viewers!`,
  durationMs: 6000,
  imageId: 3,
  soundId: null,
  volume: 80,
});

describe.skipIf(!redisAvailable)("alert bus", () => {
  let redis: RedisServer;
  const stores: SharedStores[] = [];

  async function instance(recent: () => Alert[] = () => []) {
    const log = createLogger({ level: "error", format: "json", write: () => {} });
    const shared = await connectSharedStores(redis.url, log, { busHeartbeatMs: HEARTBEAT_MS });
    stores.push(shared);
    const hub = new AlertHub({ bus: shared.alertBus, recent: async () => recent() });
    const overlays = [0, 1].map(() => {
      const heard: Alert[] = [];
      hub.subscribe(7, new AlertFeed((a) => heard.push(a)));
      return heard;
    });
    return { shared, hub, overlays };
  }

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    for (const shared of stores) await shared.close();
    await redis.stop();
  });

  test("an alert published on one instance reaches the overlays of both, once each, as sent", async () => {
    const a = await instance();
    const b = await instance();
    const sent = alert(1, "Ünïcødé 🐉 <b>raider</b>");
    a.hub.publish(7, sent);
    const all = [...a.overlays, ...b.overlays];
    expect(await waitFor(() => all.every((heard) => heard.length === 1), 10_000)).toBe(true);
    await Bun.sleep(100);
    for (const heard of all) expect(heard).toEqual([sent]);
  });

  test("the overlay bus and the alert bus do not hear each other", async () => {
    const a = await instance();
    await a.shared.overlayBus.send(7, { state: { title: "x" }, version: 1, updatedAt: 1 });
    a.hub.publish(7, alert(2));
    expect(await waitFor(() => a.overlays[0]?.length === 1, 10_000)).toBe(true);
    await Bun.sleep(50);
    expect(a.overlays[0]?.map((x) => x.id)).toEqual([2]);
  });

  test("anything else on the channel (junk, wrong shapes, huge text, another sender's heartbeat) is ignored", async () => {
    const a = await instance();
    const good = alert(3);
    for (const junk of [
      "not json",
      "null",
      "{}",
      JSON.stringify({ a: "7", l: good }),
      JSON.stringify({ a: 7, l: { ...good, id: "3" } }),
      JSON.stringify({ a: 7, l: { ...good, type: "host" } }),
      JSON.stringify({ a: 7, l: { ...good, fields: { ...good.fields, user: null } } }),
      JSON.stringify({ a: 7, l: { ...good, fields: { ...good.fields, tier: "1000" } } }),
      JSON.stringify({ a: 7, l: { ...good, text: undefined } }),
      "x".repeat(1_000_000),
      crypto.randomUUID(),
    ]) {
      await a.shared.redis.publish("cuebot:alerts", junk);
    }
    a.hub.publish(7, alert(4));
    expect(await waitFor(() => a.overlays[0]?.length === 1, 10_000)).toBe(true);
    await Bun.sleep(50);
    expect(a.overlays[0]?.map((x) => x.id)).toEqual([4]);
  });

  test("a deaf subscriber is subscribed again; its overlays get what they missed, nothing twice", async () => {
    const missed = alert(11);
    const a = await instance();
    const b = await instance(() => [alert(10), missed]);
    b.hub.publish(7, alert(10));
    expect(await waitFor(() => b.overlays[0]?.length === 1, 10_000)).toBe(true);
    await b.shared.subscriber.unsubscribe();
    a.hub.publish(7, missed);
    expect(await waitFor(() => b.overlays[0]?.length === 2, 10 * HEARTBEAT_MS + 2000)).toBe(true);
    a.hub.publish(7, alert(12));
    expect(await waitFor(() => b.overlays[0]?.length === 3, 10_000)).toBe(true);
    await Bun.sleep(50);
    expect(b.overlays[0]?.map((x) => x.id)).toEqual([10, 11, 12]);
  });
});
