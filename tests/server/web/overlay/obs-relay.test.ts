import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { OBSWebSocket } from "obs-websocket-js/json";
import { RELAY_PATHS, RELAY_REFUSAL } from "../../../../server/obs/relay-protocol.ts";
import { startObsSimulator } from "../../../../server/sim/obs/server.ts";
import { ObsRelayPage } from "../../../../server/web/overlay/obs-relay.ts";
import { startKickingObs } from "../../obs/kicking-obs.ts";

/**
 * The overlay page's side of the relay (server/web/overlay/obs-relay.ts, the module the page bundles),
 * run here against the OBS simulator: it carries out the four OBS steps and refuses anything else
 * without asking OBS; a wrong password is reported auth_failed and tried again a minute later, not sooner.
 * (The whole page in Chromium, on the simulator and real OBS: tests/e2e/obs-relay.test.ts.)
 */

const PASSWORD = "page-side-pw";
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function pageAgainst(url: string, password: string) {
  const posts: { path: string; body: Record<string, unknown> }[] = [];
  const page = new ObsRelayPage("page-1", async (path, body) => {
    posts.push({ path, body: body as Record<string, unknown> });
  });
  cleanups.push(() => page.settingsHeard('{"enabled":false}'));
  page.settingsHeard(JSON.stringify({ enabled: true, url, password }));
  const reports = () => posts.filter((post) => post.path === RELAY_PATHS.state).map((post) => post.body);
  const answers = () => posts.filter((post) => post.path === RELAY_PATHS.answer).map((post) => post.body);
  return { page, reports, answers };
}

async function until(done: () => boolean, ms = 5_000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > ms) throw new Error("not reached");
    await Bun.sleep(20);
  }
}

describe("the overlay page's relay", () => {
  test("carries out an OBS step; refuses anything else, asking OBS nothing", async () => {
    const sim = startObsSimulator({ password: PASSWORD });
    cleanups.push(() => sim.kill());
    const { page, reports, answers } = pageAgainst(sim.url, PASSWORD);
    await until(() => reports().some((r) => r.state === "connected"));
    expect(reports().at(-1)).toMatchObject({ page: "page-1", obsVersion: "29.0.2" });
    const before = sim.state.programScene;

    await page.stepHeard(
      JSON.stringify({
        id: "s1",
        step: { type: "CallVendorRequest", vendorName: "obs-browser", requestType: "emit_event" },
      }),
    );
    await page.stepHeard(
      JSON.stringify({ id: "s2", step: { requestType: "SetCurrentProgramScene", sceneName: "BRB" } }),
    );
    await page.stepHeard(JSON.stringify({ op: 6, d: { requestType: "StopStream", requestId: "x" } }));
    expect(answers()).toEqual([
      { page: "page-1", id: "s1", ok: false, failed: "obs", error: RELAY_REFUSAL },
      { page: "page-1", id: "s2", ok: false, failed: "obs", error: RELAY_REFUSAL },
    ]);
    expect(sim.state.programScene).toBe(before);

    await page.stepHeard(JSON.stringify({ id: "s3", step: { type: "obs.scene", scene: "BRB" } }));
    expect(answers().at(-1)).toEqual({ page: "page-1", id: "s3", ok: true, wasVisible: null });
    expect(sim.state.programScene).toBe("BRB");
    await page.stepHeard(JSON.stringify({ id: "s4", step: { type: "obs.scene", scene: "Nope" } }));
    expect(answers().at(-1)).toEqual({
      page: "page-1",
      id: "s4",
      ok: false,
      failed: "step",
      error: 'OBS has no scene "Nope".',
    });
  }, 20_000);

  test("a wrong password: auth_failed reported, tried again a minute later and not sooner", async () => {
    const sim = startObsSimulator({ password: PASSWORD });
    cleanups.push(() => sim.kill());
    const connects = spyOn(OBSWebSocket.prototype, "connect");
    const timers = spyOn(globalThis, "setTimeout");
    cleanups.push(
      () => connects.mockRestore(),
      () => timers.mockRestore(),
    );
    const { reports } = pageAgainst(sim.url, "not-the-password");
    await until(() => reports().some((r) => r.state === "auth_failed"));
    expect(reports().at(-1)).toMatchObject({ state: "auth_failed", code: 4009 });
    await Bun.sleep(1_500);
    expect(connects).toHaveBeenCalledTimes(1);
    expect(timers.mock.calls.some(([, ms]) => ms === 60_000)).toBe(true);
  }, 20_000);

  test("kicked from OBS's session list while connected (close 4011): reported, and not tried again", async () => {
    const obs = startKickingObs();
    cleanups.push(() => obs.stop());
    const { reports } = pageAgainst(obs.url, PASSWORD);
    await until(() => reports().some((r) => r.state === "connected"));
    obs.kick();
    await until(() => reports().some((r) => r.code === 4011));
    await Bun.sleep(1_500);
    expect(obs.upgrades()).toBe(1);
    expect(reports().at(-1)).toMatchObject({ code: 4011, obsVersion: null });
  }, 20_000);
});
