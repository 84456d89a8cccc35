import { afterEach, describe, expect, test } from "bun:test";
import { CHAT_BOT_LIMITS } from "../../../db/chat-bot-rules.ts";
import { addCustomCommand, type CustomCommand, listCustomCommands } from "../../../db/custom-commands.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { FOLDING_LOOKALIKES, TROLL_TEXTS } from "../../helpers/troll-texts.ts";
import { call, expectDocumented, expectPanelSecurity, expectRefusal } from "./chat-bot-panel.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const BASE = "/api/dashboard/custom-commands";
const stored = () => listCustomCommands(h.ctx.db, h.account.id);
const list = async () => (await call<{ items: CustomCommand[]; limit: number }>(h, "GET", BASE)).body.data;

describe("custom commands on the dashboard", () => {
  test("add, list with counts, edit keeping what is not given, set the counter, delete", async () => {
    h = await startBotHarness();
    expect(await list()).toEqual({ items: [], limit: 500 });

    const added = await call<CustomCommand>(h, "POST", BASE, {
      name: "!Discord",
      response: "Join us at discord.gg/example",
    });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({
      name: "discord",
      response: "Join us at discord.gg/example",
      userLevel: "everyone",
      cooldownSeconds: 30,
      aliasTarget: null,
      count: 0,
    });
    await call(h, "POST", BASE, {
      name: "deaths",
      response: "Deaths: $(count)",
      userLevel: "moderator",
      cooldownSeconds: 0,
      count: 41,
    });
    const listed = await list();
    expect(listed.items.map((c) => [c.name, c.count])).toEqual([
      ["deaths", 41],
      ["discord", 0],
    ]);

    const edited = await call<CustomCommand>(h, "PUT", `${BASE}/discord`, { userLevel: "subscriber" });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({
      name: "discord",
      response: "Join us at discord.gg/example",
      userLevel: "subscriber",
      cooldownSeconds: 30,
    });
    const alias = await call<CustomCommand>(h, "PUT", `${BASE}/%21DISCORD`, { aliasTarget: "!deaths" });
    expect(alias.body.data.aliasTarget).toBe("deaths");
    expect(
      (await call<CustomCommand>(h, "PUT", `${BASE}/discord`, { aliasTarget: null })).body.data.aliasTarget,
    ).toBe(null);

    // An alias added without a response passes the caller's words on: clearing its alias needs a
    // response of its own, or the command would echo the chatter.
    expect((await call(h, "POST", BASE, { name: "so2", aliasTarget: "!deaths" })).status).toBe(200);
    const bare = await call(h, "PUT", `${BASE}/so2`, { aliasTarget: null });
    expectRefusal(bare, 400, "bad_request", "response");
    expect(bare.body.error.message).toContain("give the command its own response");
    expect((await stored()).find((c) => c.name === "so2")).toMatchObject({ aliasTarget: "deaths" });
    const own = await call<CustomCommand>(h, "PUT", `${BASE}/so2`, { aliasTarget: null, response: "Hi" });
    expect(own.body.data).toMatchObject({ aliasTarget: null, response: "Hi" });
    expect((await call(h, "DELETE", `${BASE}/so2`)).status).toBe(200);

    const counter = await call(h, "PUT", `${BASE}/deaths/count`, { count: 12 });
    expect(counter).toMatchObject({ status: 200, body: { data: { name: "deaths", count: 12 } } });
    expect((await stored()).find((c) => c.name === "deaths")?.count).toBe(12);

    const deleted = await call(h, "DELETE", `${BASE}/discord`);
    expect(deleted).toMatchObject({ status: 200, body: { data: { name: "discord", deleted: true } } });
    expect((await stored()).map((c) => c.name)).toEqual(["deaths"]);
  });

  test("native chat's memory of the commands is cleared by every change, so chat answers the new text", async () => {
    h = await startBotHarness();
    const known = async () =>
      [...(await h.ctx.chatBot.commands(h.account.id)).values()].map((c) => c.response);
    expect(await known()).toEqual([]);
    await call(h, "POST", BASE, { name: "discord", response: "old" });
    expect(await known()).toEqual(["old"]);
    await call(h, "PUT", `${BASE}/discord`, { response: "new" });
    expect(await known()).toEqual(["new"]);
    await call(h, "DELETE", `${BASE}/discord`);
    expect(await known()).toEqual([]);
    await call(h, "POST", `${BASE}/import`, {
      body: { commands: [{ name: "!lurk", message: "bye" }] },
      apply: true,
    });
    expect(await known()).toEqual(["bye"]);
  });

  test("the per-user cooldown: 0 unless given, listed, edited apart from the global one, on /docs", async () => {
    h = await startBotHarness();
    const plain = await call<CustomCommand>(h, "POST", BASE, { name: "discord", response: "a" });
    expect(plain.body.data).toMatchObject({ cooldownSeconds: 30, userCooldownSeconds: 0 });
    const added = await call<CustomCommand>(h, "POST", BASE, {
      name: "hug",
      response: "$(user) hugs $(touser)",
      cooldownSeconds: 0,
      userCooldownSeconds: 60,
    });
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ name: "hug", cooldownSeconds: 0, userCooldownSeconds: 60 });
    expect((await list()).items.map((c) => [c.name, c.cooldownSeconds, c.userCooldownSeconds])).toEqual([
      ["discord", 30, 0],
      ["hug", 0, 60],
    ]);

    const global = await call<CustomCommand>(h, "PUT", `${BASE}/hug`, { cooldownSeconds: 10 });
    expect(global.body.data).toMatchObject({ cooldownSeconds: 10, userCooldownSeconds: 60 });
    const perUser = await call<CustomCommand>(h, "PUT", `${BASE}/hug`, { userCooldownSeconds: 300 });
    expect(perUser.body.data).toMatchObject({ cooldownSeconds: 10, userCooldownSeconds: 300 });
    const off = await call<CustomCommand>(h, "PUT", `${BASE}/hug`, { userCooldownSeconds: 0 });
    expect(off.body.data).toMatchObject({ cooldownSeconds: 10, userCooldownSeconds: 0 });

    for (const value of [3, 301, -5, 1.5, "60", null, true]) {
      const refusedAdd = await call(h, "POST", BASE, {
        name: "pat",
        response: "x",
        userCooldownSeconds: value,
      });
      expectRefusal(refusedAdd, 400, "bad_request", "userCooldownSeconds");
      const refusedEdit = await call(h, "PUT", `${BASE}/hug`, {
        response: "changed",
        userCooldownSeconds: value,
      });
      expectRefusal(refusedEdit, 400, "bad_request", "userCooldownSeconds");
    }
    expect((await stored()).map((c) => [c.name, c.response, c.userCooldownSeconds])).toEqual([
      ["discord", "a", 0],
      ["hug", "$(user) hugs $(touser)", 0],
    ]);

    const doc = (await (await h.request("/docs/json")).json()) as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    expect(doc.paths[BASE]!.get!.description).toContain("userCooldownSeconds");
    expect(doc.paths[BASE]!.post!.description).toContain("`userCooldownSeconds` (0 or 5–300, default 0");
  });

  test("every bad input is refused naming its field, and nothing is stored", async () => {
    h = await startBotHarness();
    const bad: [unknown, string][] = [
      [{ response: "hi" }, "name"],
      [{ name: "hello world", response: "hi" }, "name"],
      [{ name: "x".repeat(33), response: "hi" }, "name"],
      [{ name: "hello" }, "response"],
      [{ name: "hello", response: "" }, "response"],
      [{ name: "hello", response: "a".repeat(501) }, "response"],
      [{ name: "hello", response: "line one\nline two" }, "response"],
      [{ name: "hello", response: 5 }, "response"],
      [{ name: "hello", response: "hi", userLevel: "admin" }, "userLevel"],
      [{ name: "hello", response: "hi", cooldownSeconds: 3 }, "cooldownSeconds"],
      [{ name: "hello", response: "hi", cooldownSeconds: "30" }, "cooldownSeconds"],
      [{ name: "hello", response: "hi", cooldownSeconds: 1.5 }, "cooldownSeconds"],
      [{ name: "hello", response: "hi", count: 2 ** 40 }, "count"],
      [{ name: "hello", response: "hi", aliasTarget: "!hello" }, "aliasTarget"],
      [{ name: "hello", response: "hi", aliasTarget: "not a name" }, "aliasTarget"],
      [{ name: "hello", response: "hi", colour: "red" }, "colour"],
    ];
    for (const [body, field] of bad)
      expectRefusal(await call(h, "POST", BASE, body), 400, "bad_request", field);
    for (const body of ["[]", "null", '"text"', "{"]) {
      const reply = await call(h, "POST", BASE, body);
      expect(reply.status).toBe(400);
    }
    expect(await stored()).toEqual([]);
  });

  test("trolls' texts as names are refused without repeating them; as responses they are the streamer's text", async () => {
    h = await startBotHarness();
    for (const text of TROLL_TEXTS) {
      const reply = await call(h, "POST", BASE, { name: text, response: "hi" });
      expectRefusal(reply, 400, "bad_request", "name");
      expect(reply.body.error.message).not.toContain(text);
    }
    const flood = await call(h, "POST", BASE, { name: "flood", response: "$(".repeat(250) });
    expect(flood.status).toBe(200);
    expect(await stored()).toHaveLength(1);
  });

  test("names that fold into ASCII (the Kelvin sign, ſ, fullwidth, İ, ﬁ) are refused naming the field, body or path", async () => {
    h = await startBotHarness();
    for (const name of ["kick", "so", "info", "fix"]) await call(h, "POST", BASE, { name, response: name });
    const before = await stored();
    for (const lookalike of FOLDING_LOOKALIKES) {
      expectRefusal(
        await call(h, "POST", BASE, { name: lookalike, response: "x" }),
        400,
        "bad_request",
        "name",
      );
      const alias = { name: "newone", response: "x", aliasTarget: `!${lookalike}` };
      expectRefusal(await call(h, "POST", BASE, alias), 400, "bad_request", "aliasTarget");
      const path = `${BASE}/${encodeURIComponent(lookalike)}`;
      expectRefusal(await call(h, "PUT", path, { response: "changed" }), 400, "bad_request", "name");
      expectRefusal(await call(h, "PUT", `${path}/count`, { count: 5 }), 400, "bad_request", "name");
      expectRefusal(await call(h, "DELETE", path), 400, "bad_request", "name");
    }
    expect(await stored()).toEqual(before);
  });

  test("a built-in command's name or alias is refused while it is on, and free once it is off", async () => {
    h = await startBotHarness();
    for (const name of ["followage", "!so", "8BALL"]) {
      const reply = await call(h, "POST", BASE, { name, response: "mine" });
      expectRefusal(reply, 409, "builtin_command", "name");
      expect(reply.body.error.message).toContain("turn it off");
    }
    // Chat reads these before any custom command: one stored under such a name would never answer.
    for (const name of ["!addcom", "quote", "!ADDQUOTE", "regulars"]) {
      const reply = await call(h, "POST", BASE, { name, response: "x" });
      expectRefusal(reply, 400, "bad_request", "name");
      expect(reply.body.error.message).toContain("chat bot's own");
    }
    expect(await stored()).toEqual([]);

    const off = await h.panel("/api/dashboard/commands/shoutout", {
      method: "PUT",
      body: '{"enabled": false}',
    });
    expect(off.status).toBe(200);
    expect((await call(h, "POST", BASE, { name: "so", response: "mine" })).status).toBe(200);
    // GET /commands stays the built-ins only.
    const builtIns = (await (await h.panel("/api/dashboard/commands")).json()) as {
      data: { command: string }[];
    };
    expect(builtIns.data.map((c) => c.command)).not.toContain("so");
  });

  test("a taken name is 409, an unknown one 404, and the limit holds", async () => {
    h = await startBotHarness();
    await call(h, "POST", BASE, { name: "discord", response: "a" });
    const twice = await call(h, "POST", BASE, { name: "!DISCORD", response: "b" });
    expectRefusal(twice, 409, "already_exists", "name");
    expect((await stored())[0]?.response).toBe("a");

    expectRefusal(await call(h, "PUT", `${BASE}/nothing`, { response: "x" }), 404, "not_found", "name");
    expectRefusal(await call(h, "DELETE", `${BASE}/nothing`), 404, "not_found", "name");
    expectRefusal(await call(h, "PUT", `${BASE}/nothing/count`, { count: 1 }), 404, "not_found", "name");
    expectRefusal(await call(h, "PUT", `${BASE}/bad%20name`, { response: "x" }), 400, "bad_request", "name");
    expectRefusal(await call(h, "PUT", `${BASE}/discord`, { name: "other" }), 400, "bad_request", "name");
    expectRefusal(await call(h, "PUT", `${BASE}/discord`, { response: "" }), 400, "bad_request", "response");
    expectRefusal(await call(h, "PUT", `${BASE}/discord/count`, {}), 400, "bad_request", "count");
    expectRefusal(
      await call(h, "PUT", `${BASE}/discord/count`, { count: 2 ** 31 }),
      400,
      "bad_request",
      "count",
    );
    expect((await stored())[0]).toMatchObject({ response: "a", count: 0 });

    const now = h.ctx.clock.now();
    for (let i = (await stored()).length; i < CHAT_BOT_LIMITS.customCommandsPerAccount; i++) {
      await addCustomCommand(h.ctx.db, h.account.id, { name: `c${i}`, response: "r" }, now);
    }
    expectRefusal(
      await call(h, "POST", BASE, { name: "onemore", response: "r" }),
      409,
      "limit_reached",
      "name",
    );
    expect(await stored()).toHaveLength(CHAT_BOT_LIMITS.customCommandsPerAccount);
  });

  test("no session is 401, a foreign Origin 403, and /docs lists the routes with the panel's security", async () => {
    h = await startBotHarness();
    await call(h, "POST", BASE, { name: "discord", response: "a" });
    await expectPanelSecurity(h, [
      { method: "GET", path: BASE },
      { method: "POST", path: BASE, body: { name: "x", response: "y" } },
      { method: "PUT", path: `${BASE}/discord`, body: { response: "z" } },
      { method: "DELETE", path: `${BASE}/discord` },
      { method: "PUT", path: `${BASE}/discord/count`, body: { count: 5 } },
    ]);
    expect(await stored()).toMatchObject([{ name: "discord", response: "a", count: 0 }]);
    await expectDocumented(h, {
      [BASE]: ["get", "post"],
      [`${BASE}/{name}`]: ["put", "delete"],
      [`${BASE}/{name}/count`]: ["put"],
    });
  });
});
