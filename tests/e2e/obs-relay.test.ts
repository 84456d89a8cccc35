// The overlay relay in Chromium (`via: overlay`, CONTRACT §6 "Actions"): the overlay page, opened in
// a browser as OBS opens it, connects to OBS (the simulator, and a real OBS 29.0.2 where installed)
// with the password cuebot sends it down the alert stream; the dashboard shows OBS connected with its
// scenes; ctx.obs.step switches the scene, shows a source and sets a text, read back over
// obs-websocket; the password is in no answer, export or log; a closed page stops counting within
// 15 s, and with no page a step fails within 10 s saying so; a wrong password reads auth_failed.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { OBSWebSocket } from "obs-websocket-js/json";
import type { Browser, Page } from "playwright-core";
import { revealCredential } from "../../db/credentials.ts";
import { listen, type RunningServer } from "../../server/listen.ts";
import { type ObsView, obsView } from "../../server/obs/dashboard.ts";
import type { ObsLive } from "../../server/obs/live.ts";
import { startObs } from "../../server/obs/live.ts";
import { OBS_STEP_ERRORS, ObsStepFailed } from "../../server/obs/steps.ts";
import { startObsSimulator } from "../../server/sim/obs/server.ts";
import type { BotHarness } from "../helpers/bot.ts";
import { startBotHarness } from "../helpers/bot.ts";
import { haveChromium, launchChromium, watchPage } from "../helpers/browser.ts";
import { OBS_TARGETS, type RunningObs } from "../server/sim/obs/targets.ts";

/** What these tests read of the view, the same in its JSON and on the server. */
type ObsData = Pick<ObsView, "state" | "reason" | "obsVersion" | "scenes" | "sources">;

let h: BotHarness;
let server: RunningServer;
let browser: Browser;
let live: ObsLive;
let token: string;
const open: (() => unknown)[] = [];

beforeAll(async () => {
  if (!haveChromium) return;
  h = await startBotHarness({
    configure: (config) => {
      config.port = 0;
    },
  });
  server = listen(h.ctx, h.app);
  live = startObs(h.ctx);
  browser = await launchChromium();
  token = (await revealCredential(h.ctx.db, h.ctx.secrets, "overlay-token", h.account.id)) ?? "";
});

afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

afterAll(async () => {
  if (!haveChromium) return;
  await browser.close();
  await live.close();
  await server.stop();
  await h.stop();
});

/** GET /api/dashboard/obs (the waits below ask the same view without the panel's limit). */
const view = async () => ((await (await h.panel("/api/dashboard/obs")).json()) as { data: ObsData }).data;

async function until(wanted: (data: ObsData) => boolean, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const data = await obsView(h.ctx, h.account.id);
    if (wanted(data)) return Date.now() - started;
    if (Date.now() - started > withinMs)
      throw new Error(`not within ${withinMs} ms: ${JSON.stringify(data)}`);
    await Bun.sleep(100);
  }
}

async function relayTo(obs: RunningObs, password = obs.password): Promise<void> {
  const res = await h.panel("/api/dashboard/obs", {
    method: "PUT",
    body: JSON.stringify({ enabled: true, url: obs.url, password, via: "overlay" }),
  });
  expect(res.status).toBe(200);
}

async function openOverlay(query = ""): Promise<Page> {
  const page = await browser.newPage();
  const watch = watchPage(page, server.url);
  open.push(async () => {
    if (!page.isClosed()) await page.close();
    // The page's only traffic is cuebot's and OBS's socket; nothing fails in its console.
    expect(watch.problems.filter((problem) => !problem.includes("WebSocket"))).toEqual([]);
  });
  await page.goto(`${server.url}/overlay/${token}${query}`);
  return page;
}

/** A client of the test's own, to set OBS up and read it back. */
async function obsClient(obs: RunningObs): Promise<OBSWebSocket> {
  const client = new OBSWebSocket();
  await client.connect(obs.url, obs.password);
  open.push(() => client.disconnect());
  return client;
}

async function withScenes(client: OBSWebSocket): Promise<void> {
  const { scenes } = await client.call("GetSceneList");
  if (!(scenes as { sceneName: string }[]).some((scene) => scene.sceneName === "Relay BRB"))
    await client.call("CreateScene", { sceneName: "Relay BRB" });
  await client.call("CreateInput", {
    sceneName: "Relay BRB",
    inputName: "Relay text",
    inputKind: "text_ft2_source_v2",
    inputSettings: { text: "before" },
  });
}

describe.skipIf(!haveChromium)("the overlay relay in Chromium", () => {
  test("the dashboard's live preview (muted) shows the look only: it leaves OBS to the page in OBS", async () => {
    const sim = startObsSimulator({ password: "preview-pw" });
    open.push(() => sim.kill());
    await relayTo({ url: sim.url, password: "preview-pw" } as RunningObs);
    const page = await openOverlay("?only=alerts&muted=1");
    await page.waitForLoadState("networkidle");
    await Bun.sleep(2_000);
    expect(sim.identifiedClients()).toBe(0);
    expect((await obsView(h.ctx, h.account.id)).reason).toContain("No overlay page is connected");
  }, 30_000);

  for (const target of OBS_TARGETS) {
    describe(`on ${target.name}`, () => {
      const start = async () => {
        const obs = await target.start();
        open.push(() => obs.stop());
        return obs;
      };

      test("connected within 10 s with OBS's scenes; steps switch the scene, hide a source, set a text; the password nowhere", async () => {
        const obs = await start();
        const client = await obsClient(obs);
        await withScenes(client);
        await relayTo(obs);
        await openOverlay();
        expect(await until((d) => d.state === "connected", 10_000)).toBeLessThan(10_000);
        const seen = await view();
        expect(seen.obsVersion).toBe("29.0.2");
        expect(seen.scenes).toContain("Relay BRB");
        expect(seen.sources).toContain("Relay text");

        await h.ctx.obs.step(h.account.id, { type: "obs.scene", scene: "Relay BRB" });
        expect((await client.call("GetCurrentProgramScene")).currentProgramSceneName).toBe("Relay BRB");
        const hidden = await h.ctx.obs.step(h.account.id, {
          type: "obs.source",
          scene: "Relay BRB",
          source: "Relay text",
          visible: false,
        });
        expect(hidden).toEqual({ wasVisible: true });
        const { sceneItemId } = await client.call("GetSceneItemId", {
          sceneName: "Relay BRB",
          sourceName: "Relay text",
        });
        const enabled = await client.call("GetSceneItemEnabled", { sceneName: "Relay BRB", sceneItemId });
        expect(enabled.sceneItemEnabled).toBe(false);
        // A viewer's message of 500 combining marks reaches the text source as typed, through the page.
        const text = `Raid! ✨ ${"e\u0301".repeat(250)}${"\u0301".repeat(500)}`;
        await h.ctx.obs.step(h.account.id, { type: "obs.text", source: "Relay text", text });
        const settings = await client.call("GetInputSettings", { inputName: "Relay text" });
        expect(settings.inputSettings.text).toBe(text);
        // A run reads the same either way: OBS's "not found" is the same sentence as on the server's connection.
        const missing = h.ctx.obs.step(h.account.id, { type: "obs.scene", scene: "No such scene" });
        await expect(missing).rejects.toBeInstanceOf(ObsStepFailed);
        await expect(missing).rejects.toThrow(OBS_STEP_ERRORS.noScene("No such scene"));

        expect(JSON.stringify(await view())).not.toContain(obs.password);
        expect(await (await h.panel("/api/dashboard/export")).text()).not.toContain(obs.password);
        expect(h.logs.join("\n")).not.toContain(obs.password);
      }, 60_000);

      test("a closed page stops counting within 15 s; then a step fails within 10 s: no overlay page is connected", async () => {
        const obs = await start();
        await relayTo(obs);
        const page = await openOverlay();
        await until((d) => d.state === "connected", 10_000);
        await page.close();
        expect(await until((d) => d.state !== "connected", 16_000)).toBeLessThanOrEqual(15_000);
        expect((await view()).reason).toContain("No overlay page is connected");
        const started = Date.now();
        const step = h.ctx.obs.step(h.account.id, { type: "obs.scene", scene: "Scene" });
        await expect(step).rejects.toThrow("no overlay page is connected to OBS");
        expect(Date.now() - started).toBeLessThan(10_600);
      }, 60_000);

      test("a wrong password: auth_failed, saying so", async () => {
        const obs = await start();
        await relayTo(obs, "not-the-password");
        await openOverlay();
        expect(await until((d) => d.state === "auth_failed", 10_000)).toBeLessThan(10_000);
        expect((await view()).reason).toContain("Wrong password");
      }, 40_000);
    });
  }
});
