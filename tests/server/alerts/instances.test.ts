/**
 * Alerts on several instances: only the chat lease holder receives them (one EventSub socket for the
 * streamer), an overlay on any instance shows each alert once (the Redis alert bus), and when the
 * holder dies the standby takes over and receives the next one. Two contexts on one database, each
 * with its own Redis connections, against the Twitch simulator and a real Redis.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type AlertsHarness, recordOverlay, startAlertsHarness } from "../../helpers/alerts.ts";
import { waitFor } from "../../helpers/chat.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../../helpers/engines.ts";
import { type LeaseInstance, LeaseInstances } from "../../helpers/instances.ts";

explainSkip("redis");

const TTL_MS = 600;

describe.skipIf(!redisAvailable)("alerts on two instances", () => {
  let redis: RedisServer;
  let h: AlertsHarness;
  let instances: LeaseInstances;

  const instance = (ttlMs?: number) => instances.start(ttlMs);

  const connectedOn = (i: LeaseInstance) => async () =>
    i.leadership.leading() && (await i.ctx.alertsStatus.status(h.account.id)).state === "connected";

  /** The simulator's enabled alert subscriptions of one type, by socket. */
  async function followSockets(): Promise<string[]> {
    const res = await fetch(`${h.sim.authUrl}/_sim/eventsub/subscriptions`);
    const body = (await res.json()) as { data: { type: string; status: string; sessionId: string }[] };
    return body.data
      .filter((s) => s.type === "channel.follow" && s.status === "enabled")
      .map((s) => s.sessionId);
  }

  beforeAll(async () => {
    redis = await startRedis();
    h = await startAlertsHarness();
    instances = new LeaseInstances(h.ctx.config, redis.url, TTL_MS);
    await h.grant();
  });

  afterAll(async () => {
    await instances.stopAll();
    await h.stop();
    await redis.stop();
  });

  test("only the holder subscribes; an overlay on the other instance shows each alert once; a standby takes over", async () => {
    const a = await instance();
    expect(await waitFor(connectedOn(a), 5000)).toBe(true);
    const b = await instance();
    await Bun.sleep(TTL_MS);
    expect(b.leadership.leading()).toBe(false);
    // The standby reads the holder's state from the shared database.
    expect((await b.ctx.alertsStatus.status(h.account.id)).state).toBe("connected");
    expect(await followSockets()).toHaveLength(1);

    const onB = recordOverlay(b.ctx, h.account.id);
    const onA = recordOverlay(a.ctx, h.account.id);
    const sent = performance.now();
    await h.emit("follow", { user: "viewer_anna", redeliver: true });
    expect(await waitFor(() => onB.alerts.length === 1 && onA.alerts.length === 1, 10_000)).toBe(true);
    // Within 1 s of the event on the other instance's overlay too (CONTRACT: alerts within 1 s).
    expect(performance.now() - sent).toBeLessThan(1000);
    await Bun.sleep(300);
    expect(onB.alerts.map((x) => x.fields.user)).toEqual(["Viewer_Anna"]);
    expect(onA.alerts).toHaveLength(1);

    // A dies without a word: its Redis connections are gone, so it can renew no more.
    const sessionsOfA = new Set(h.sim.chat.sessions().map((s) => s.id));
    a.stores.redis.destroy();
    a.stores.subscriber.destroy();
    expect(await waitFor(connectedOn(b), 5 * TTL_MS + 3000)).toBe(true);
    expect(await waitFor(() => !a.leadership.leading(), 2000)).toBe(true);
    // B's own raid subscription (the stored status may still say A's "connected" for a moment).
    const raidsOnB = () =>
      h.sim.chat
        .subscriptions()
        .some((s) => s.type === "channel.raid" && s.status === "enabled" && !sessionsOfA.has(s.sessionId));
    expect(await waitFor(raidsOnB, 10_000)).toBe(true);

    await h.emit("raid", { user: "otherstreamer", viewers: 12 });
    expect(await waitFor(() => onB.alerts.length === 2, 10_000)).toBe(true);
    await Bun.sleep(300);
    expect(onB.alerts.map((x) => x.type)).toEqual(["follow", "raid"]);
    const stored = await h.sql("SELECT type FROM alert_events ORDER BY id");
    expect(stored).toEqual([{ type: "follow" }, { type: "raid" }]);
  }, 45_000);
});
