/**
 * The OBS relay over a real Redis (two instances): the overlay page's stream held by A, its reports and
 * answers POSTed to A, the step sent from B (the lease holder) reaching the page through A and its
 * answer coming back to B; a settings change on B reaching A's open page at once; no password on the
 * channel; junk on the channel (a raw obs-websocket request dressed as an order) ignored.
 */
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { writeObsSettings } from "../../../db/obs.ts";
import { createLogger } from "../../../server/core/log.ts";
import { ObsRelay } from "../../../server/obs/relay.ts";
import { connectSharedStores, type SharedStores } from "../../../server/redis/shared-stores.ts";
import { waitFor } from "../../helpers/chat.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../../helpers/engines.ts";

explainSkip("redis");

const PASSWORD = "relay-bus-secret-9";

describe.skipIf(!redisAvailable)("the OBS relay bus", () => {
  let redis: RedisServer;
  let t: TestContext;
  const stores: SharedStores[] = [];
  const relays: ObsRelay[] = [];
  const published: string[] = [];

  async function instance(): Promise<{ relay: ObsRelay; shared: SharedStores }> {
    const log = createLogger({ level: "error", format: "json", write: () => {} });
    const shared = await connectSharedStores(redis.url, log, { busHeartbeatMs: 50 });
    stores.push(shared);
    const publish = shared.obsRelayBus.publish.bind(shared.obsRelayBus);
    spyOn(shared.obsRelayBus, "publish").mockImplementation((text: string) => {
      published.push(text);
      return publish(text);
    });
    const relay = new ObsRelay(t.ctx, shared.obsRelayBus, { waitMs: 2_000, answerMs: 2_000 });
    relays.push(relay);
    return { relay, shared };
  }

  beforeAll(async () => {
    redis = await startRedis();
    t = await createTestContext();
  });

  afterAll(async () => {
    for (const relay of relays) relay.close();
    for (const shared of stores) await shared.close();
    await t.cleanup();
    await redis.stop();
  });

  test("the page's stream on A, its POSTs on A, the step from B: the step reaches the page and its answer B", async () => {
    const { account } = await createTestAccount(t.ctx);
    const settings = {
      enabled: true,
      url: "ws://127.0.0.1:4455",
      via: "overlay" as const,
      password: PASSWORD,
    };
    await writeObsSettings(t.ctx.db, t.ctx.secrets, account.id, settings, Date.now());
    const a = await instance();
    const b = await instance();
    const blocks: string[] = [];
    a.relay.attach(account.id, "page-1", (text) => blocks.push(text));
    const report = {
      page: "page-1",
      state: "connected" as const,
      obsVersion: "29.0.2",
      scenes: ["Live"],
      sources: [],
      code: null,
    };
    a.relay.report(account.id, report);
    const target = { url: settings.url, hasPassword: true, since: null };
    expect(await waitFor(() => b.relay.seen(account.id, target).state === "connected", 2_000)).toBe(true);
    expect(b.relay.seen(account.id, target).scenes).toEqual(["Live"]);

    const done = b.relay.step(account.id, { type: "obs.scene", scene: "Live" });
    const orders = () => blocks.filter((block) => block.startsWith("event: obs-step\n"));
    expect(await waitFor(() => orders().length === 1, 2_000)).toBe(true);
    const { id } = JSON.parse(orders()[0]?.split("data: ")[1] ?? "{}") as { id: string };
    a.relay.answer(account.id, { page: "page-1", id, ok: true, wasVisible: null });
    expect(await done).toEqual({});

    // A settings change on B reaches A's open page at once (A reads the password from the store itself).
    await writeObsSettings(
      t.ctx.db,
      t.ctx.secrets,
      account.id,
      { ...settings, url: "ws://10.0.0.5:4455" },
      Date.now(),
    );
    b.relay.settingsChanged(account.id);
    const settingsSent = () => blocks.filter((block) => block.startsWith("event: obs\n"));
    expect(await waitFor(() => settingsSent().some((block) => block.includes("10.0.0.5")), 2_000)).toBe(true);
    expect(settingsSent().at(-1)).toContain(PASSWORD);
    expect(published.length).toBeGreaterThan(3);
    expect(published.join("\n")).not.toContain(PASSWORD);

    // Junk on the channel: a raw obs-websocket request dressed as an order never reaches the page.
    const raw = {
      k: "order",
      a: account.id,
      p: "page-1",
      o: { id: "x1", step: { requestType: "StopStream" } },
    };
    await a.shared.redis.publish("cuebot:obs-relay", JSON.stringify(raw));
    await a.shared.redis.publish("cuebot:obs-relay", "not json");
    await Bun.sleep(200);
    expect(orders()).toHaveLength(1);
  }, 20_000);
});
