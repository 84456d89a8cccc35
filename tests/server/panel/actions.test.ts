import { afterEach, describe, expect, test } from "bun:test";
import { insertAccount } from "../../../db/accounts.ts";
import { addCustomCommand } from "../../../db/custom-commands.ts";
import type { Action, ActionInput } from "../../../server/actions/model.ts";
import { createAction, listActions, recordActionRun } from "../../../server/actions/store.ts";
import type { actionAnswer } from "../../../server/panel/actions.ts";
import { ACTION_LIMITS } from "../../../server/vocabulary.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { call, expectDocumented, expectPanelSecurity, expectRefusal } from "./chat-bot-panel.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const BASE = "/api/dashboard/actions";
type Answered = ReturnType<typeof actionAnswer>;
const stored = () => listActions(h.ctx.db, h.account.id);

const BRB: ActionInput = {
  name: "BRB",
  enabled: true,
  cooldownSeconds: 10,
  trigger: { type: "command", command: "brb", level: "moderator" },
  steps: [
    { type: "obs.scene", scene: "BRB" },
    { type: "chat", text: "Be right back!" },
  ],
};

const RAID: ActionInput = {
  name: "Raid 🎉",
  enabled: true,
  cooldownSeconds: 0,
  trigger: { type: "alert", kind: "raid", min: 5, reward: null },
  steps: [
    { type: "obs.scene", scene: "Raid" },
    { type: "obs.source", scene: "Raid", source: "Confetti", visible: true, seconds: 5 },
    { type: "obs.text", source: "Raider", text: "{user} brought {amount}!\nWelcome!" },
    { type: "obs.media", source: "Horn", action: "restart" },
    { type: "wait", seconds: 60 },
  ],
};

describe("actions on the dashboard", () => {
  test("add, list with the limit, replace whole, delete; each answered with its id and lastRun", async () => {
    h = await startBotHarness();
    expect((await call(h, "GET", BASE)).body.data).toEqual({ items: [], limit: ACTION_LIMITS.perAccount });
    const added = await call<Action>(h, "POST", BASE, BRB);
    expect(added.status).toBe(200);
    const id = added.body.data.id;
    expect(added.body.data).toEqual({ ...BRB, id, lastRun: null });
    const raid = (await call<Action>(h, "POST", BASE, RAID)).body.data;
    expect(raid).toEqual({ ...RAID, id: raid.id, lastRun: null });
    // Defaults: enabled, no cooldown, everyone, min 0.
    const button = await call<Action>(h, "POST", BASE, {
      name: "  Starting  ",
      trigger: { type: "command", command: "!Start" },
      steps: [{ type: "wait", seconds: 0.5 }],
    });
    expect(button.body.data).toMatchObject({
      name: "Starting",
      enabled: true,
      cooldownSeconds: 0,
      trigger: { type: "command", command: "start", level: "everyone" },
    });
    const listed = (await call<{ items: Action[] }>(h, "GET", BASE)).body.data.items;
    expect(listed.map((a) => a.name)).toEqual(["BRB", "Raid 🎉", "Starting"]);

    const replacement: ActionInput = {
      name: "Deck button",
      enabled: false,
      cooldownSeconds: 3600,
      trigger: { type: "button" },
      steps: [{ type: "obs.source", scene: "Main", source: "Cam", visible: false }],
    };
    const replaced = await call<Action>(h, "PUT", `${BASE}/${id}`, replacement);
    expect(replaced.body.data).toEqual({ ...replacement, id, lastRun: null });
    expect((await stored())[0]).toEqual({ ...replacement, id, lastRun: null });

    expect(await call(h, "DELETE", `${BASE}/${id}`)).toMatchObject({
      status: 200,
      body: { data: { id, deleted: true } },
    });
    expect((await stored()).map((a) => a.name)).toEqual(["Raid 🎉", "Starting"]);
  });

  test("lastRun is answered with its instant, ok and error", async () => {
    h = await startBotHarness();
    const action = await createAction(h.ctx.db, h.account.id, BRB, 0);
    const at = Date.UTC(2026, 11, 6, 21, 0, 0);
    await recordActionRun(h.ctx.db, h.account.id, {
      actionId: action?.id ?? 0,
      at,
      ok: false,
      cause: "button",
      user: "Streamer",
      steps: [{ type: "obs.scene", ok: false, error: 'OBS has no scene "BRB".' }],
    });
    const listed = (await call<{ items: Answered[] }>(h, "GET", BASE)).body.data.items;
    expect(listed[0]?.lastRun).toEqual({
      at: new Date(at).toISOString(),
      ok: false,
      error: 'OBS has no scene "BRB".',
    });
  });

  test("every bad field is refused naming its path, and nothing is stored or changed", async () => {
    h = await startBotHarness();
    const id = (await call<Action>(h, "POST", BASE, BRB)).body.data.id;
    const step = (s: unknown) => ({
      ...BRB,
      steps: [{ type: "wait", seconds: 1 }, { type: "wait", seconds: 1 }, s],
    });
    const trigger = (t: unknown) => ({ ...BRB, trigger: t });
    const bad: [unknown, string][] = [
      [{ ...BRB, name: undefined }, "name"],
      [{ ...BRB, name: "" }, "name"],
      [{ ...BRB, name: "   " }, "name"],
      [{ ...BRB, name: "n".repeat(51) }, "name"],
      [{ ...BRB, name: "a\nb" }, "name"],
      [{ ...BRB, name: 5 }, "name"],
      [{ ...BRB, enabled: "yes" }, "enabled"],
      [{ ...BRB, cooldownSeconds: -1 }, "cooldownSeconds"],
      [{ ...BRB, cooldownSeconds: 3601 }, "cooldownSeconds"],
      [{ ...BRB, cooldownSeconds: 1.5 }, "cooldownSeconds"],
      [{ ...BRB, cooldownSeconds: "10" }, "cooldownSeconds"],
      [{ ...BRB, colour: "red" }, "colour"],
      [{ ...BRB, trigger: undefined }, "trigger"],
      [trigger("command"), "trigger"],
      [trigger({ type: "timer" }), "trigger.type"],
      [trigger({ type: "command", command: "brb!", level: "moderator" }), "trigger.command"],
      [trigger({ type: "command", command: "b r b" }), "trigger.command"],
      [trigger({ type: "command", command: "x".repeat(33) }), "trigger.command"],
      [trigger({ type: "command", command: "\u212Aick" }), "trigger.command"],
      [trigger({ type: "command", command: "brb", level: "admin" }), "trigger.level"],
      [trigger({ type: "command", command: "brb", kind: "raid" }), "trigger.kind"],
      [trigger({ type: "alert", kind: "subscribe" }), "trigger.kind"],
      [trigger({ type: "alert", kind: "raid", min: -1 }), "trigger.min"],
      [trigger({ type: "alert", kind: "raid", min: 1.5 }), "trigger.min"],
      [trigger({ type: "alert", kind: "raid", reward: "Hydrate" }), "trigger.reward"],
      [trigger({ type: "alert", kind: "redemption", reward: "r".repeat(46) }), "trigger.reward"],
      [trigger({ type: "alert", kind: "redemption", reward: 3 }), "trigger.reward"],
      [trigger({ type: "stream", state: "live" }), "trigger.state"],
      [trigger({ type: "stream" }), "trigger.state"],
      [trigger({ type: "button", command: "x" }), "trigger.command"],
      [{ ...BRB, steps: [] }, "steps"],
      [{ ...BRB, steps: { type: "wait", seconds: 1 } }, "steps"],
      [{ ...BRB, steps: Array.from({ length: 21 }, () => ({ type: "wait", seconds: 1 })) }, "steps"],
      [step("wait"), "steps[2]"],
      [step({ type: "obs.filter", source: "x" }), "steps[2].type"],
      [step({ type: "wait", seconds: 0 }), "steps[2].seconds"],
      [step({ type: "wait", seconds: 61 }), "steps[2].seconds"],
      [step({ type: "wait", seconds: "5" }), "steps[2].seconds"],
      [step({ type: "wait" }), "steps[2].seconds"],
      [step({ type: "wait", seconds: 5, scene: "x" }), "steps[2].scene"],
      [step({ type: "obs.scene" }), "steps[2].scene"],
      [step({ type: "obs.scene", scene: "" }), "steps[2].scene"],
      [step({ type: "obs.scene", scene: "s".repeat(257) }), "steps[2].scene"],
      [step({ type: "obs.scene", scene: "a\u0000b" }), "steps[2].scene"],
      [step({ type: "obs.source", scene: "s", source: "x" }), "steps[2].visible"],
      [step({ type: "obs.source", scene: "s", source: "x", visible: "yes" }), "steps[2].visible"],
      [step({ type: "obs.source", scene: "s", visible: true }), "steps[2].source"],
      [step({ type: "obs.source", scene: "s", source: "x", visible: true, seconds: 0 }), "steps[2].seconds"],
      [
        step({ type: "obs.source", scene: "s", source: "x", visible: true, seconds: 3601 }),
        "steps[2].seconds",
      ],
      [step({ type: "obs.text", source: "x", text: "t".repeat(501) }), "steps[2].text"],
      [step({ type: "obs.text", source: "x", text: "a\u0007b" }), "steps[2].text"],
      [step({ type: "obs.text", source: "x" }), "steps[2].text"],
      [step({ type: "obs.media", source: "x", action: "pause" }), "steps[2].action"],
      [step({ type: "chat", text: "" }), "steps[2].text"],
      [step({ type: "chat", text: "a\nb" }), "steps[2].text"],
      [step({ type: "chat", text: "c".repeat(501) }), "steps[2].text"],
    ];
    for (const [body, field] of bad) {
      const reply = await call(h, "POST", BASE, body);
      expectRefusal(reply, 400, "bad_request", field);
      expectRefusal(await call(h, "PUT", `${BASE}/${id}`, body), 400, "bad_request", field);
    }
    expectRefusal(await call(h, "POST", BASE, "not json"), 400, "bad_request");
    expectRefusal(await call(h, "POST", BASE, [BRB]), 400, "bad_request");
    expectRefusal(await call(h, "PUT", `${BASE}/abc`, BRB), 400, "bad_request", "id");
    expectRefusal(await call(h, "PUT", `${BASE}/${id + 1000}`, BRB), 404, "not_found", "id");
    expectRefusal(await call(h, "DELETE", `${BASE}/${id + 1000}`), 404, "not_found", "id");
    expect(await stored()).toEqual([{ ...BRB, id, lastRun: null }]);
  });

  test("troll input: odd Unicode is kept as sent, junk refused at its path, never a 500", async () => {
    h = await startBotHarness();
    const name = "Z\u0351\u036b\u0343 \u05e9\u05dc\u05d5\u05dd \u202e🎉";
    const kept = await call<Action>(h, "POST", BASE, {
      ...RAID,
      name,
      steps: [{ type: "obs.text", source: "Raider 🎮", text: "\u0301".repeat(500) }],
    });
    expect(kept.status).toBe(200);
    expect((await stored())[0]).toMatchObject({ name, steps: [{ text: "\u0301".repeat(500) }] });
    const junk: [unknown, string][] = [
      [{ ...RAID, "🙂": 1 }, '["\\ud83d\\ude42"]'],
      [{ ...RAID, name: "x".repeat(10_000) }, "name"],
      [{ ...RAID, steps: [{ type: "chat", text: "x".repeat(10_000) }] }, "steps[0].text"],
      [{ ...RAID, trigger: { type: "alert", kind: "raid", min: { $gt: 0 } } }, "trigger.min"],
      [{ ...RAID, steps: [{ type: "wait", seconds: 1, deep: { a: [[[{}]]] } }] }, "steps[0].deep"],
    ];
    for (const [body, field] of junk)
      expectRefusal(await call(h, "POST", BASE, body), 400, "bad_request", field);
    expect(await stored()).toHaveLength(1);
  });

  test("another account's action is not found: neither replaced nor deleted", async () => {
    h = await startBotHarness();
    const someone = await insertAccount(
      h.ctx.db,
      { twitchUserId: "777001", login: "someone", displayName: "Someone" },
      0,
    );
    const theirs = await createAction(h.ctx.db, someone.id, BRB, 0);
    if (!theirs) throw new Error("not created");
    const path = `${BASE}/${theirs.id}`;
    expectRefusal(await call(h, "PUT", path, RAID), 404, "not_found", "id");
    expectRefusal(await call(h, "DELETE", path), 404, "not_found", "id");
    expect((await call<{ items: Action[] }>(h, "GET", BASE)).body.data.items).toEqual([]);
    expect(await listActions(h.ctx.db, someone.id)).toEqual([theirs]);
  });

  test("a command trigger cannot take a built-in command (on or off), its alias, the chat bot's words or a custom command", async () => {
    h = await startBotHarness();
    await addCustomCommand(h.ctx.db, h.account.id, { name: "discord", response: "join" }, 0);
    // Turned off, a built-in still keeps its name: turning it on must not take the action's line.
    expect((await call(h, "PUT", "/api/dashboard/commands/followage", { enabled: false })).status).toBe(200);
    for (const command of [
      "followage",
      "FOLLOWAGE",
      "so",
      "shoutout",
      "addcom",
      "commands",
      "quote",
      "permit",
      "discord",
    ]) {
      const reply = await call(h, "POST", BASE, { ...BRB, trigger: { type: "command", command } });
      expectRefusal(reply, 400, "bad_request", "trigger.command");
    }
    expect(await stored()).toEqual([]);
  });

  test("a custom command cannot take an action's command on the dashboard (as chat's !addcom cannot: custom/action-names.test.ts)", async () => {
    h = await startBotHarness();
    await call(h, "POST", BASE, { ...BRB, enabled: false });
    const dashboard = await call(h, "POST", "/api/dashboard/custom-commands", {
      name: "!BRB",
      response: "hi",
    });
    expectRefusal(dashboard, 409, "builtin_command", "name");
    expect(dashboard.body.error.message).toContain("starts one of this channel's actions");
    expect(
      (await call(h, "POST", "/api/dashboard/custom-commands", { name: "brb2", response: "hi" })).status,
    ).toBe(200); // Nor an import: the name is a conflict, saying why; the rest is stored.
    const imported = await call<{ conflicts: { name: string; why: string }[]; stored?: { name: string }[] }>(
      h,
      "POST",
      "/api/dashboard/custom-commands/import",
      {
        body: {
          _total: 2,
          status: 200,
          commands: [
            { name: "!brb", message: "back" },
            { name: "!lurk", message: "l" },
          ],
        },
        apply: true,
      },
    );
    expect(imported.body.data.conflicts.map((c) => c.why)).toEqual([
      "One of this channel's actions answers this command; change that action's trigger to import this one.",
    ]);
    expect(imported.body.data.stored?.map((c) => c.name)).toEqual(["lurk"]);
  });

  test("a built-in command cannot take an action's command as a new alias", async () => {
    h = await startBotHarness();
    await call(h, "POST", BASE, BRB);
    const before = (await call<{ command: string; aliases: string[] }[]>(h, "GET", "/api/dashboard/commands"))
      .body.data;
    const aliasesOf = (data: typeof before) => data.find((c) => c.command === "followage")?.aliases;
    const refused = await call(h, "PUT", "/api/dashboard/commands/followage", { aliases: ["fa", "!BRB"] });
    expectRefusal(refused, 400, "bad_request");
    expect(refused.body.error.message).toContain('"aliases"');
    const after = (await call<typeof before>(h, "GET", "/api/dashboard/commands")).body.data;
    expect(aliasesOf(after)).toEqual(aliasesOf(before));
    expect((await call(h, "PUT", "/api/dashboard/commands/followage", { aliases: ["fa"] })).status).toBe(200);
  });

  test(`${ACTION_LIMITS.perAccount} actions on one account are kept and listed; one more is a 400`, async () => {
    h = await startBotHarness();
    await h.ctx.db.transaction(async (tx) => {
      for (let i = 0; i < ACTION_LIMITS.perAccount - 1; i++)
        await createAction(tx, h.account.id, { ...RAID, name: `Action ${i}` }, 0);
    });
    expect((await call(h, "POST", BASE, BRB)).status).toBe(200);
    const listed = await call<{ items: Action[]; limit: number }>(h, "GET", BASE);
    expect(listed.body.data.items).toHaveLength(ACTION_LIMITS.perAccount);
    expect(listed.body.data.items.at(-1)?.name).toBe("BRB");
    const refused = await call(h, "POST", BASE, BRB);
    expectRefusal(refused, 400, "bad_request");
    expect(refused.body.error.message).toContain(`at most ${ACTION_LIMITS.perAccount} actions`);
    expect(await stored()).toHaveLength(ACTION_LIMITS.perAccount);
  });

  test("the export holds the actions with their last runs; deleting the account deletes them", async () => {
    h = await startBotHarness();
    const id = (await call<Action>(h, "POST", BASE, BRB)).body.data.id;
    const at = Date.UTC(2026, 11, 6, 21, 30);
    const steps = [{ type: "obs.scene" as const, ok: true, error: null }];
    await recordActionRun(h.ctx.db, h.account.id, {
      actionId: id,
      at,
      ok: true,
      cause: "command",
      user: "Mod",
      steps,
    });
    const exported = (await (await h.panel("/api/dashboard/export")).json()) as { actions: unknown[] };
    const when = new Date(at).toISOString();
    expect(exported.actions).toEqual([
      {
        ...BRB,
        id,
        lastRun: { at: when, ok: true, error: null },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        runs: [{ at: when, ok: true, cause: "command", user: "Mod", steps }],
      },
    ]);
    const deleted = await h.panel("/api/dashboard/account", { method: "DELETE" });
    expect(deleted.status).toBe(200);
    for (const table of ["actions", "action_runs"])
      expect((await h.sql(`SELECT CAST(count(*) AS INTEGER) AS n FROM ${table}`))[0]).toEqual({ n: 0 });
  });

  test("no session is 401, a foreign Origin 403, and /docs lists the routes with the panel's security", async () => {
    h = await startBotHarness();
    const id = (await call<Action>(h, "POST", BASE, BRB)).body.data.id;
    await expectPanelSecurity(h, [
      { method: "GET", path: BASE },
      { method: "POST", path: BASE, body: RAID },
      { method: "PUT", path: `${BASE}/${id}`, body: RAID },
      { method: "DELETE", path: `${BASE}/${id}` },
    ]);
    expect(await stored()).toEqual([{ ...BRB, id, lastRun: null }]);
    await expectDocumented(h, { [BASE]: ["get", "post"], [`${BASE}/{id}`]: ["put", "delete"] });
  });
});
