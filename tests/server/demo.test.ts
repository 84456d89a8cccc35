import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../server/core/config.ts";
import { DEMO_NUISANCES, type DemoEnvironment, startDemo, startNuisances } from "../../server/demo.ts";
import { startTwitchSimulator, type TwitchSimulator } from "../../server/sim/twitch/server.ts";
import { waitFor } from "../helpers/chat.ts";

/**
 * `serve --demo`'s chat (issue 35): a spam bot and a caps shouter speak now and then, so a visitor sees
 * the moderation filters act; the demo chat panel's lines say which a moderator removed.
 */

let sim: TwitchSimulator | null = null;
let demo: DemoEnvironment | null = null;
let dataDir: string | null = null;
afterEach(async () => {
  await sim?.stop();
  await demo?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  sim = demo = dataDir = null;
});

describe("the demo chat's nuisances", () => {
  test("the spam bot and the caps shouter take turns, one per gap, until stopped", async () => {
    const twitch = startTwitchSimulator();
    sim = twitch;
    const stop = startNuisances(
      (user, text) => {
        twitch.chat.trySay({ channel: "cuebotdemo", user, text });
      },
      [5],
    );
    const lines = () => twitch.chat.lines("cuebotdemo");
    await waitFor(() => lines().length >= DEMO_NUISANCES.length || null, 2000);
    stop();
    const posted = lines().map((l) => ({ user: l.userLogin, text: l.text }));
    expect(posted.slice(0, DEMO_NUISANCES.length)).toEqual([...DEMO_NUISANCES]);
    expect(posted[0]?.user).toBe("free_viewers_bot");
    expect(posted[1]?.text).toBe(posted[1]?.text.toUpperCase());
    const count = lines().length;
    await Bun.sleep(50);
    expect(lines().length).toBe(count);
  });

  test("the spam bot follows nobody: under followers-only its lines are refused; the shouter still speaks", async () => {
    const twitch = startTwitchSimulator();
    sim = twitch;
    twitch.chat.setRoomMode("cuebotdemo", { followersOnly: true });
    const stop = startNuisances(
      (user, text) => {
        twitch.chat.trySay({ channel: "cuebotdemo", user, text });
      },
      [5],
    );
    await waitFor(() => twitch.chat.lines("cuebotdemo").length >= 2 || null, 2000);
    stop();
    expect(twitch.chat.lines("cuebotdemo").every((l) => l.userLogin === "viewer13")).toBe(true);
  });
});

describe("the demo chat panel's lines", () => {
  test("a line a moderator removed is listed with deleted: true; a refused line answers Twitch's sentence", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "cuebot-demo-"));
    demo = startDemo(loadConfig({ dataDir, env: {} }));
    const said = demo.chat.say("cuebotdemo", "lurker_eve", "visit bigfollows . com");
    expect(said.refused).toBeNull();
    const eve = demo.twitch.findUser("lurker_eve")!;
    demo.twitch.chat.clearUser(demo.twitch.findUser("cuebotdemo")!.id, eve.id);
    expect(demo.chat.lines("cuebotdemo").find((l) => l.id === said.id)).toMatchObject({
      user: "Lurker_Eve",
      deleted: true,
    });
    demo.twitch.chat.setRoomMode("cuebotdemo", { followersOnly: true });
    expect(demo.chat.say("cuebotdemo", "lurker_eve", "hello?")).toEqual({
      id: null,
      refused: "This room is in followers-only mode.",
    });
  });
});

describe("the demo's OBS", () => {
  test("a simulated OBS with a password on loopback, on the Live scene, its program as OBS shows it; stopped with the demo", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "cuebot-demo-obs-"));
    const started = startDemo(loadConfig({ dataDir, env: {} }));
    demo = started;
    expect(started.obs.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(started.obs.password.length).toBeGreaterThan(0);
    expect(started.obs.program()).toEqual({
      scene: "Live",
      sources: [
        { name: "Raid alarm", visible: false, text: null },
        { name: "Now playing", visible: true, text: "" },
        { name: "Webcam frame", visible: true, text: null },
      ],
    });
    const answered = await fetch(started.obs.url.replace("ws:", "http:"));
    expect(answered.status).toBe(400); // it listens: obs-websocket wants an upgrade
    await started.stop();
    demo = null;
    const after = await fetch(started.obs.url.replace("ws:", "http:")).then(
      () => "answered",
      () => "refused",
    );
    expect(after).toBe("refused");
  });
});
