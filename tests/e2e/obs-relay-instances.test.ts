// The overlay relay on two instances with Redis (`via: overlay`): the overlay page in Chromium holds
// its stream on B and POSTs to B, while the run happens on A, the OBS lease holder: A's step reaches
// the page through Redis, the page switches OBS's scene (read back over obs-websocket), and the answer
// comes back to A. A sees the page connected without ever hearing from it directly.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { OBSWebSocket } from "obs-websocket-js/json";
import type { Browser } from "playwright-core";
import { revealCredential } from "../../db/credentials.ts";
import { writeObsSettings } from "../../db/obs.ts";
import { createApp } from "../../server/app.ts";
import { listen, type RunningServer } from "../../server/listen.ts";
import { obsView } from "../../server/obs/dashboard.ts";
import { type ObsSimulator, startObsSimulator } from "../../server/sim/obs/server.ts";
import { haveChromium, launchChromium } from "../helpers/browser.ts";
import { type ChatHarness, startChatHarness, waitFor } from "../helpers/chat.ts";
import { explainSkip, type RedisServer, redisAvailable, startRedis } from "../helpers/engines.ts";
import { LeaseInstances } from "../helpers/instances.ts";

explainSkip("redis");

const PASSWORD = "two-instances-pw";

describe.skipIf(!redisAvailable || !haveChromium)("the overlay relay on two instances", () => {
  let redis: RedisServer;
  let h: ChatHarness;
  let obs: ObsSimulator;
  let instances: LeaseInstances;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    redis = await startRedis();
    h = await startChatHarness();
    obs = startObsSimulator({ password: PASSWORD });
    const settings = { enabled: true, url: obs.url, via: "overlay" as const, password: PASSWORD };
    await writeObsSettings(h.ctx.db, h.ctx.secrets, h.account.id, settings, Date.now());
    instances = new LeaseInstances({ ...h.ctx.config, port: 0 }, redis.url, 600);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser.close();
    await server?.stop();
    await instances.stopAll();
    await obs.kill();
    await h.stop();
    await redis.stop();
  });

  test("the page's stream and POSTs on B, the step on A (the lease holder): OBS switches the scene", async () => {
    const a = await instances.start();
    expect(await waitFor(() => a.leadership.leading(), 5_000)).toBe(true);
    const b = await instances.start();
    server = listen(b.ctx, createApp(b.ctx));
    const token = await revealCredential(b.ctx.db, b.ctx.secrets, "overlay-token", h.account.id);
    const page = await browser.newPage();
    await page.goto(`${server.url}/overlay/${token}?only=alerts`);

    const connectedOnA = async () => (await obsView(a.ctx, h.account.id)).state === "connected";
    expect(await waitFor(connectedOnA, 10_000)).toBe(true);
    expect((await obsView(a.ctx, h.account.id)).scenes).toContain("BRB");
    await a.ctx.obs.step(h.account.id, { type: "obs.scene", scene: "BRB" });
    const client = new OBSWebSocket();
    await client.connect(obs.url, PASSWORD);
    expect((await client.call("GetCurrentProgramScene")).currentProgramSceneName).toBe("BRB");
    await client.disconnect();
    await page.close();
  }, 40_000);
});
