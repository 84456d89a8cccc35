/**
 * Actions end to end (CONTRACT §6 "Actions"): Twitch events through the simulator's EventSub and chat,
 * OBS Studio itself (a real OBS 29.0.2 where installed, else the simulator) read back over
 * obs-websocket, the run route as the dashboard calls it. SQLite, or PostgreSQL with
 * CUEBOT_TEST_DATABASE=postgres.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { replaceAction } from "../../../server/actions/store.ts";
import { createLogger } from "../../../server/core/log.ts";
import { openContext } from "../../../server/runtime.ts";
import {
  type ActionsHarness,
  startActionsHarness,
  startTestObs,
  type TestObs,
} from "../../helpers/actions.ts";
import { countChatLines, waitFor } from "../../helpers/chat.ts";
import { badge, MODERATOR } from "../../helpers/custom-chat.ts";

const quiet = createLogger({ level: "error", format: "json", write: () => {} });
let obs: TestObs;
let h: ActionsHarness | null = null;
beforeAll(async () => {
  obs = await startTestObs();
}, 60_000);
afterAll(async () => {
  await obs.stop();
});
afterEach(async () => {
  await h?.stop();
  h = null;
});

async function start(): Promise<ActionsHarness> {
  h = await startActionsHarness(obs);
  return h;
}

const textOf = async (t: ActionsHarness, source: string) =>
  (await t.reader.call("GetInputSettings", { inputName: source })).inputSettings.text;

const say = (t: ActionsHarness, text: string, user = "viewer_anna", badges = badge("none")) =>
  t.sim.chat.say({ channel: "cuebotdemo", user, text, badges });

describe("actions: triggers", () => {
  test("a raid switches OBS's scene and sets a text source within a second", async () => {
    const t = await start();
    const { scene, text } = await t.sceneWithText();
    await t.add({
      trigger: { type: "alert", kind: "raid", min: 10, reward: null },
      steps: [
        { type: "obs.scene", scene },
        { type: "obs.text", source: text, text: "{user} raids with {amount}!" },
      ],
    });
    const started = performance.now();
    await t.emit("raid", { user: "otherstreamer", viewers: 42 });
    expect(await waitFor(async () => (await textOf(t, text)) === "OtherStreamer raids with 42!", 3000)).toBe(
      true,
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await t.scene()).toBe(scene);
  }, 60_000);

  test("a redemption's 500 combining marks reach the text source as typed", async () => {
    const t = await start();
    const { text } = await t.sceneWithText();
    await t.add({
      trigger: { type: "alert", kind: "redemption", min: 0, reward: "Say it" },
      steps: [{ type: "obs.text", source: text, text: "{user}: {message}" }],
    });
    const marks = `Z${"\u0301\u0336".repeat(249)}`;
    const reward = { id: "r1", title: "Say it", cost: 10, prompt: "" };
    await t.emit("redemption", { user: "lurker_eve", reward, user_input: marks });
    expect(await waitFor(async () => (await textOf(t, text)) === `Lurker_Eve: ${marks}`, 10_000)).toBe(true);
    await t.emit("redemption", { reward: { ...reward, title: "Other" }, user_input: "nope" });
    await Bun.sleep(500);
    expect(await textOf(t, text)).toBe(`Lurker_Eve: ${marks}`);
  }, 60_000);

  test("the dashboard's test alert of that kind runs it too, with the sample's fields", async () => {
    const t = await start();
    const { scene, text } = await t.sceneWithText();
    const id = await t.add({
      trigger: { type: "alert", kind: "cheer", min: 100, reward: null },
      steps: [
        { type: "obs.scene", scene },
        { type: "obs.text", source: text, text: "{user} cheered {amount}" },
      ],
    });
    const res = await t.panel("/api/dashboard/alerts/test", "POST", JSON.stringify({ type: "cheer" }));
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { fields: { user: string; amount: number } } };
    const expected = `${data.fields.user} cheered ${data.fields.amount}`;
    expect(await waitFor(async () => (await textOf(t, text)) === expected, 10_000)).toBe(true);
    expect(await t.scene()).toBe(scene);
    // The run is recorded once its last step has run, a moment after OBS has it.
    expect(await waitFor(async () => (await t.runs(id)).length === 1, 10_000)).toBe(true);
    // With cheers switched off in the Alerts settings, a test cheer is still shown but runs nothing,
    // as a real one would not.
    await t.settings("cheer", { enabled: false });
    const off = await t.panel("/api/dashboard/alerts/test", "POST", JSON.stringify({ type: "cheer" }));
    expect(off.status).toBe(200);
    await Bun.sleep(500);
    expect(await t.runs(id)).toHaveLength(1);
  }, 60_000);

  test("a raid below the trigger's minimum does nothing", async () => {
    const t = await start();
    const { scene } = await t.sceneWithText();
    const before = await t.scene();
    const id = await t.add({
      trigger: { type: "alert", kind: "raid", min: 100, reward: null },
      steps: [{ type: "obs.scene", scene }],
    });
    await t.emit("raid", { viewers: 42 });
    await Bun.sleep(500);
    expect(await t.scene()).toBe(before);
    expect(await t.runs(id)).toEqual([]);
  }, 60_000);

  test("a moderator's !brb runs it; a viewer's does nothing, a thousand times over, and nothing is said", async () => {
    const t = await start();
    const { scene } = await t.sceneWithText();
    const before = await t.scene();
    const id = await t.add({
      trigger: { type: "command", command: "brb", level: "moderator" },
      steps: [{ type: "obs.scene", scene }],
    });
    const sentBefore = t.sim.chat.sent().length;
    const heard = countChatLines(t);
    for (let i = 0; i < 1000; i++) say(t, i % 2 ? "!brb" : "!BRB now");
    // The flood read to its end first: the moderator's line below is timed, not the backlog before it.
    expect(await waitFor(() => heard() >= 1000, 20_000)).toBe(true);
    await Bun.sleep(500);
    expect(await t.scene()).toBe(before);
    expect(await t.runs(id)).toEqual([]);
    expect(t.sim.chat.sent().length).toBe(sentBefore);
    const asked = performance.now();
    say(t, "!brb", "mod_mia", MODERATOR);
    expect(await waitFor(async () => (await t.scene()) === scene, 10_000)).toBe(true);
    expect(performance.now() - asked).toBeLessThan(1000);
    expect(await waitFor(async () => (await t.runs(id)).length === 1, 10_000)).toBe(true);
    expect((await t.runs(id))[0]).toMatchObject({ ok: true, cause: "command", user: "mod_mia" });
    expect(t.sim.chat.sent().length).toBe(sentBefore);
  }, 60_000);

  test("an edit reaches the command at once; one made by another process through the change feed", async () => {
    const t = await start();
    const { scene } = await t.sceneWithText();
    const other = await t.sceneWithText();
    const input = {
      name: "brb",
      enabled: false,
      cooldownSeconds: 0,
      trigger: { type: "command", command: "brb", level: "moderator" } as const,
      steps: [{ type: "obs.scene", scene } as const],
    };
    const id = await t.add(input);
    const before = await t.scene();
    say(t, "!brb", "mod_mia", MODERATOR);
    await Bun.sleep(500);
    expect(await t.scene()).toBe(before);
    await replaceAction(t.ctx.db, t.account.id, id, { ...input, enabled: true }, Date.now());
    t.ctx.actions.changed(t.account.id);
    say(t, "!brb", "mod_mia", MODERATOR);
    expect(await waitFor(async () => (await t.scene()) === scene, 10_000)).toBe(true);
    const elsewhere = await openContext(t.ctx.config, { log: quiet });
    const steps = [{ type: "obs.scene", scene: other.scene } as const];
    await replaceAction(elsewhere.db, t.account.id, id, { ...input, enabled: true, steps }, Date.now());
    await elsewhere.close();
    expect(
      await waitFor(async () => {
        t.ctx.externalChanges.check();
        say(t, "!brb", "mod_mia", MODERATOR);
        await Bun.sleep(100);
        return (await t.scene()) === other.scene;
      }, 5000),
    ).toBe(true);
  }, 60_000);

  test("a command trigger saved on the dashboard answers at once; edited off, deleted: nothing", async () => {
    const t = await start();
    const { scene } = await t.sceneWithText();
    const first = await t.sceneWithText();
    const body = (enabled: boolean) => ({
      name: "Be right back",
      enabled,
      cooldownSeconds: 0,
      trigger: { type: "command", command: "brb", level: "moderator" },
      steps: [{ type: "obs.scene", scene }],
    });
    const send = (method: string, path: string, payload?: unknown) =>
      t.panel(path, method, payload === undefined ? undefined : JSON.stringify(payload));
    await send("POST", "/api/dashboard/actions", body(false));
    say(t, "!brb", "mod_mia", MODERATOR);
    await Bun.sleep(300);
    expect(await t.scene()).not.toBe(scene);
    const [stored] = (await (await send("GET", "/api/dashboard/actions")).json()).data.items;
    expect((await send("PUT", `/api/dashboard/actions/${stored.id}`, body(true))).status).toBe(200);
    say(t, "!brb", "mod_mia", MODERATOR);
    expect(await waitFor(async () => (await t.scene()) === scene, 10_000)).toBe(true);
    await t.reader.call("SetCurrentProgramScene", { sceneName: first.scene });
    expect((await send("DELETE", `/api/dashboard/actions/${stored.id}`)).status).toBe(200);
    say(t, "!brb", "mod_mia", MODERATOR);
    await Bun.sleep(500);
    expect(await t.scene()).toBe(first.scene);
  }, 60_000);

  test("the stream going online runs an online action once; offline runs the offline one", async () => {
    const t = await start();
    const online = await t.sceneWithText();
    const offline = await t.sceneWithText();
    const up = await t.add({
      trigger: { type: "stream", state: "online" },
      steps: [{ type: "obs.scene", scene: online.scene }],
    });
    await t.add({
      trigger: { type: "stream", state: "offline" },
      steps: [{ type: "obs.scene", scene: offline.scene }],
    });
    await t.emit("online");
    expect(await waitFor(async () => (await t.scene()) === online.scene, 10_000)).toBe(true);
    await t.emit("offline");
    expect(await waitFor(async () => (await t.scene()) === offline.scene, 10_000)).toBe(true);
    expect(await t.runs(up)).toHaveLength(1);
  }, 60_000);
});

describe("actions: the run route", () => {
  test("a button run answers each step; an unknown id is 404; the run log lists it", async () => {
    const t = await start();
    const { scene, text } = await t.sceneWithText();
    const id = await t.add({
      trigger: { type: "button" },
      steps: [
        { type: "obs.scene", scene },
        { type: "obs.text", source: text, text: "hi {user}" },
        { type: "obs.scene", scene: "No such scene" },
        { type: "obs.scene", scene },
      ],
    });
    const reply = await t.run(id);
    expect(reply).toEqual({
      status: 200,
      body: {
        status: 200,
        data: {
          ok: false,
          steps: [
            { type: "obs.scene", ok: true, error: null },
            { type: "obs.text", ok: true, error: null },
            { type: "obs.scene", ok: false, error: 'OBS has no scene "No such scene".' },
          ],
        },
      } as never,
    });
    expect(await textOf(t, text)).toBe("hi CuebotDemo");
    expect((await t.run(id + 1000)).status).toBe(404);
    const [logged] = await t.runs(id);
    expect(logged).toMatchObject({ actionId: id, ok: false, cause: "button", user: "CuebotDemo" });
    expect(logged?.steps).toHaveLength(3);
  }, 60_000);

  test("busy: 409 during a wait, the action triggered again does nothing; then its cooldown", async () => {
    const t = await start();
    const { scene } = await t.sceneWithText();
    const id = await t.add({
      cooldownSeconds: 1,
      trigger: { type: "command", command: "scene", level: "everyone" },
      steps: [
        { type: "wait", seconds: 1 },
        { type: "obs.scene", scene },
      ],
    });
    const first = t.run(id);
    await Bun.sleep(200);
    const during = await t.run(id);
    expect(during.status).toBe(409);
    expect(during.body.error?.code).toBe("busy");
    say(t, "!scene");
    expect((await first).body.data?.ok).toBe(true);
    expect((await t.run(id)).status).toBe(409);
    await Bun.sleep(1100);
    expect((await t.run(id)).status).toBe(200);
    expect(await t.runs(id)).toHaveLength(2);
  }, 60_000);

  test("a timed source: hidden at the answer, shown again after its seconds", async () => {
    const t = await start();
    const { scene, text } = await t.sceneWithText();
    const id = await t.add({
      trigger: { type: "button" },
      steps: [{ type: "obs.source", scene, source: text, visible: false, seconds: 1 }],
    });
    const enabled = await t.shownIn(scene, text);
    const asked = performance.now();
    expect((await t.run(id)).body.data?.ok).toBe(true);
    expect(performance.now() - asked).toBeLessThan(900);
    expect(await enabled()).toBe(false);
    expect(await waitFor(enabled, 10_000)).toBe(true);
    expect(performance.now() - asked).toBeGreaterThanOrEqual(1000);
  }, 60_000);

  test("OBS killed mid-run: the run fails saying OBS is not connected; once back, the next run works", async () => {
    const t = await start();
    const { scene } = await t.sceneWithText();
    const id = await t.add({
      trigger: { type: "button" },
      steps: [
        { type: "wait", seconds: 2 },
        { type: "obs.scene", scene },
      ],
    });
    const run = t.run(id);
    await Bun.sleep(300);
    await obs.kill();
    const failed = await run;
    expect(failed.body.data?.ok).toBe(false);
    expect(failed.body.data?.steps.at(-1)?.error).toStartWith("OBS is not connected");
    await obs.restart();
    const back = await waitFor(() => t.ctx.obs.seen(t.account.id)?.state === "connected", 15_000);
    expect(back).toBe(true);
    await t.reader.connect(obs.url, obs.password);
    const { scenes } = await t.reader.call("GetSceneList");
    // A real OBS keeps the scene it saved before the crash; the simulator starts afresh.
    if (!scenes.some((s) => s.sceneName === scene)) await t.reader.call("CreateScene", { sceneName: scene });
    expect((await t.run(id)).body.data).toEqual({
      ok: true,
      steps: [
        { type: "wait", ok: true, error: null },
        { type: "obs.scene", ok: true, error: null },
      ],
    });
  }, 90_000);
});

describe("actions: chat steps", () => {
  test("one line in the channel, not a reply; a {message} of /ban or !cmd never leads it", async () => {
    const t = await start();
    await t.add({
      trigger: { type: "command", command: "shout", level: "everyone" },
      steps: [{ type: "chat", text: "{message}" }],
    });
    const lines = () => t.sim.chat.sent().filter((s) => s.isSent);
    say(t, "!shout /ban someone");
    expect(await waitFor(() => lines().length === 1, 10_000)).toBe(true);
    await Bun.sleep(1100);
    say(t, "!shout \u200b!addcom !x evil");
    expect(await waitFor(() => lines().length === 2, 10_000)).toBe(true);
    const sent = lines();
    expect(sent.map((s) => s.text)).toEqual(["ban someone", "addcom !x evil"]);
    for (const line of sent) expect(line.replyParentMessageId).toBeNull();
  }, 60_000);
});
