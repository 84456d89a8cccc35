import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { addCustomCommand, type CustomCommand, listCustomCommands } from "../../../db/custom-commands.ts";
import { storeImport } from "../../../server/panel/custom-command-import.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { TROLL_TEXTS } from "../../helpers/troll-texts.ts";
import { call, expectDocumented, expectPanelSecurity, expectRefusal } from "./chat-bot-panel.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const TEST = "/api/dashboard/custom-commands/test";
const IMPORT = "/api/dashboard/custom-commands/import";
const stored = () => listCustomCommands(h.ctx.db, h.account.id);
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dir, "../../fixtures/chat-bots", name), "utf8"));

interface Preview {
  answered: boolean;
  text: string | null;
  reason: string | null;
  countsUse: boolean;
  count: number;
}

interface Note {
  name: string;
  why: string;
}

interface ImportData {
  format: string;
  add?: { name: string }[];
  stored?: CustomCommand[];
  adjusted: Note[];
  conflicts: Note[];
  unsupported: Note[];
  applied: boolean;
}

const preview = async (body: unknown) => (await call<Preview>(h, "POST", TEST, body)).body.data;

describe("POST /api/dashboard/custom-commands/test (live preview)", () => {
  test("fills the variables for the chosen viewer, level and arguments", async () => {
    h = await startBotHarness();
    expect(
      await preview({
        response: "$(user) hugs $(touser) ($(1) / $(query))",
        user: "@Viewer_Anna",
        level: "everyone",
        args: "@ModBob  and friends",
      }),
    ).toEqual({
      answered: true,
      text: "viewer_anna hugs ModBob (@ModBob / @ModBob and friends)",
      reason: null,
      countsUse: false,
      count: 0,
    });
    // The streamer by default, with their display name; a caller's slash never leads the reply.
    const own = await preview({ response: "$(query) says $(user)", args: "/ban someone" });
    expect(own.text).not.toStartWith("/");
    expect(own.text).toContain("says CuebotDemo");
  });

  test("shows what chat says of a response that opens with a command: the line without it", async () => {
    h = await startBotHarness();
    expect(await preview({ response: "!bot part" })).toMatchObject({ answered: true, text: "bot part" });
    expect(await preview({ response: "\u200b\u2800/ban $(touser)", args: "viewer_bob" })).toMatchObject({
      answered: true,
      text: "ban viewer_bob",
    });
    expect(await preview({ response: "\u3164..." })).toMatchObject({ answered: false, text: "" });
  });

  test("a stored command's count shows this use without storing or counting it", async () => {
    h = await startBotHarness();
    await addCustomCommand(
      h.ctx.db,
      h.account.id,
      { name: "deaths", response: "Deaths: $(count)", count: 41, userLevel: "moderator" },
      h.ctx.clock.now(),
    );
    expect(await preview({ name: "!deaths", level: "moderator" })).toMatchObject({
      answered: true,
      text: "Deaths: 42",
      countsUse: true,
      count: 42,
    });
    // Unsaved text over the stored command's count and level; a viewer below the level gets no reply.
    expect(await preview({ name: "deaths", response: "RIP #$(count)", level: "moderator" })).toMatchObject({
      text: "RIP #42",
    });
    const below = await preview({ name: "deaths", level: "subscriber" });
    expect(below).toMatchObject({ answered: false, text: null });
    expect(below.reason).toContain("moderator");
    expect((await stored())[0]?.count).toBe(41);
  });

  test("trolls' arguments never become $(touser), and what needs Twitch is asked or shows a placeholder", async () => {
    h = await startBotHarness();
    for (const text of TROLL_TEXTS) {
      const shown = await preview({ response: "Hi $(touser)!", user: "viewer_anna", args: text });
      // Only a first word shaped like a login is taken (CONTRACT §6), as chat reads it.
      const first = text.split(/\s+/u)[0]!;
      expect(shown.text).toBe(`Hi ${/^[A-Za-z0-9_]{1,25}$/.test(first) ? first : "viewer_anna"}!`);
    }
    const live = await preview({ response: "Up for $(uptime), playing $(game)" });
    expect(live.answered).toBe(true);
    expect(live.text).not.toContain("$(");
  });

  test("bad inputs are refused naming their field", async () => {
    h = await startBotHarness();
    const bad: [unknown, number, string, string][] = [
      [{}, 400, "bad_request", "response"],
      [{ response: "" }, 400, "bad_request", "response"],
      [{ response: "x".repeat(501) }, 400, "bad_request", "response"],
      [{ response: "hi", level: "admin" }, 400, "bad_request", "level"],
      [{ response: "hi", userLevel: "boss" }, 400, "bad_request", "userLevel"],
      [{ response: "hi", user: "not a login" }, 400, "bad_request", "user"],
      [{ response: "hi", args: "one\ntwo" }, 400, "bad_request", "args"],
      [{ response: "hi", args: "x".repeat(501) }, 400, "bad_request", "args"],
      [{ response: "hi", args: ["a"] }, 400, "bad_request", "args"],
      [{ name: "no such name!" }, 400, "bad_request", "name"],
      [{ name: "nothing" }, 404, "not_found", "name"],
      [{ response: "hi", extra: 1 }, 400, "bad_request", "extra"],
    ];
    for (const [body, status, code, field] of bad) {
      expectRefusal(await call(h, "POST", TEST, body), status, code, field);
    }
  });
});

describe("POST /api/dashboard/custom-commands/import", () => {
  test("a Nightbot list: the plan stores nothing; apply stores the add list and answers what was stored", async () => {
    h = await startBotHarness();
    const body = fixture("nightbot-commands.json");
    const plan = (await call<ImportData>(h, "POST", IMPORT, { format: "nightbot", body })).body.data;
    expect(plan.applied).toBe(false);
    expect(plan.add?.map((c) => c.name)).toEqual([
      "discord",
      "lurk",
      "hug",
      "deaths",
      "uptime",
      "time",
      "socials",
      "vipsonly",
      "hype",
      "dc",
      "settings",
    ]);
    // !8ball is the alias of cuebot's magic8, which is on.
    expect(plan.conflicts.map((n) => n.name)).toEqual(["followage", "8ball", "so"]);
    expect(plan.unsupported).toEqual([]);
    expect(plan.adjusted).toEqual([{ name: "vipsonly", why: "Its cooldown of 600 s becomes 300 s." }]);
    expect(await stored()).toEqual([]);

    const applied = await call<ImportData>(h, "POST", IMPORT, { body, apply: true });
    expect(applied.status).toBe(200);
    const data = applied.body.data;
    expect(data).toMatchObject({ format: "nightbot", applied: true, adjusted: plan.adjusted });
    expect(data.add).toBeUndefined();
    expect(data.stored?.map((c) => c.name)).toEqual(plan.add?.map((c) => c.name));
    const byName = new Map((await stored()).map((c) => [c.name, c]));
    expect(byName.size).toBe(11);
    expect(byName.get("deaths")).toMatchObject({
      count: 41,
      response: "The streamer has died $(count) times so far.",
    });
    expect(byName.get("dc")).toMatchObject({ aliasTarget: "discord", response: "$(query)" });
    expect(byName.get("vipsonly")).toMatchObject({ userLevel: "twitch_vip", cooldownSeconds: 300 });
    // Nightbot has no per-user cooldown: none is stored.
    expect([...byName.values()].every((c) => c.userCooldownSeconds === 0)).toBe(true);

    // Once more: every command is taken now, nothing is replaced or added.
    const again = (await call<ImportData>(h, "POST", IMPORT, { body, apply: true })).body.data;
    expect(again.stored).toEqual([]);
    expect(again.conflicts).toHaveLength(14);
    expect((await stored()).map((c) => c.updatedAt)).toEqual([...byName.values()].map((c) => c.updatedAt));
  });

  test("a StreamElements list is detected, and a disabled command is not imported", async () => {
    h = await startBotHarness();
    const body = fixture("streamelements-commands.json");
    const applied = (await call<ImportData>(h, "POST", IMPORT, { format: "detect", body, apply: true })).body
      .data;
    expect(applied.format).toBe("streamelements");
    const names = (await stored()).map((c) => c.name);
    expect(names).toEqual(applied.stored!.map((c) => c.name).sort());
    expect(names).not.toContain("oldcmd");
    expect(names).not.toContain("followage");
    expect(applied.unsupported.map((n) => n.name)).toContain("oldcmd");
    // StreamElements' per-user cooldown is stored beside the global one; 0 where it had none.
    const discord = (await stored()).find((c) => c.name === "discord");
    expect(discord).toMatchObject({ cooldownSeconds: 5, userCooldownSeconds: 15 });
    expect((await stored()).find((c) => c.name === "lurk")).toMatchObject({ userCooldownSeconds: 0 });
  });

  test("a malformed request is one 400 naming its field or path, and nothing is stored", async () => {
    h = await startBotHarness();
    const nightbot = fixture("nightbot-commands.json");
    expectRefusal(
      await call(h, "POST", IMPORT, { body: nightbot, format: "fossabot" }),
      400,
      "bad_request",
      "format",
    );
    expectRefusal(await call(h, "POST", IMPORT, { format: "nightbot" }), 400, "bad_request", "body");
    expectRefusal(
      await call(h, "POST", IMPORT, { body: nightbot, apply: "yes" }),
      400,
      "bad_request",
      "apply",
    );
    expectRefusal(
      await call(h, "POST", IMPORT, { body: nightbot, merge: true }),
      400,
      "bad_request",
      "merge",
    );
    const wrongShape = await call(h, "POST", IMPORT, {
      format: "streamelements",
      body: nightbot,
      apply: true,
    });
    expectRefusal(wrongShape, 400, "bad_request");
    expect(wrongShape.body.error.message).toContain("Nightbot");
    const badField = await call(h, "POST", IMPORT, {
      body: {
        commands: [
          { name: "!ok", message: "fine" },
          { name: "!bad", message: 42 },
        ],
      },
      apply: true,
    });
    expectRefusal(badField, 400, "bad_request");
    expect(badField.body.error.message).toContain("commands[1].message");
    expect(await stored()).toEqual([]);
  });

  test("what the store would refuse is in the plan's unsupported list, and a refusal while storing stores nothing", async () => {
    h = await startBotHarness();
    const body = {
      commands: [
        { name: "!fine", message: "ok" },
        { name: "!nel", message: "one\u0085two" },
      ],
    };
    const plan = (await call<ImportData>(h, "POST", IMPORT, { body })).body.data;
    expect(plan.add?.map((c) => c.name)).toEqual(["fine"]);
    expect(plan.unsupported).toEqual([
      {
        name: "nel",
        why: "The response must be one line of plain text (no line breaks or control characters).",
      },
    ]);
    const applied = (await call<ImportData>(h, "POST", IMPORT, { body, apply: true })).body.data;
    expect(applied.stored?.map((c) => c.name)).toEqual(["fine"]);

    // A name taken between the plan and its storing (another moderator, in chat): all or nothing.
    const planned = (name: string) => ({
      name,
      response: "r",
      level: "everyone" as const,
      cooldownSeconds: 0,
      userCooldownSeconds: 0,
      aliasOf: null,
      count: 0,
    });
    const refused = await storeImport(h.ctx, h.account, [
      planned("first"),
      planned("fine"),
      planned("third"),
    ]).catch((error: Error) => error);
    expect(refused).toMatchObject({ status: 409, code: "already_exists" });
    expect((refused as Error).message).toStartWith("Nothing was imported: !fine was refused.");
    expect((await stored()).map((c) => c.name)).toEqual(["fine"]);
  });

  test("limits: over 1000 commands is refused whole, a body over 1 MiB is 413, a full channel takes the rest as unsupported", async () => {
    h = await startBotHarness();
    const many = { commands: Array.from({ length: 1001 }, (_, i) => ({ name: `!c${i}`, message: "x" })) };
    const tooMany = await call(h, "POST", IMPORT, { body: many, apply: true });
    expectRefusal(tooMany, 400, "bad_request");
    expect(tooMany.body.error.message).toContain("1000");
    const huge = JSON.stringify({ body: { commands: [{ name: "!big", message: "y".repeat(1100 * 1024) }] } });
    const refused = await h.panel(IMPORT, {
      method: "POST",
      body: huge,
      headers: { "content-length": String(Buffer.byteLength(huge)) },
    });
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    expect(await stored()).toEqual([]);

    const now = h.ctx.clock.now();
    for (let i = 0; i < 498; i++) {
      await addCustomCommand(h.ctx.db, h.account.id, { name: `own${i}`, response: "r" }, now);
    }
    const some = { commands: ["!a", "!b", "!c"].map((name) => ({ name, message: "hi" })) };
    const filled = (await call<ImportData>(h, "POST", IMPORT, { body: some, apply: true })).body.data;
    expect(filled.stored?.map((c) => c.name)).toEqual(["a", "b"]);
    expect(filled.unsupported.map((n) => n.name)).toEqual(["c"]);
    expect(await stored()).toHaveLength(500);
  });

  test("no session is 401, a foreign Origin 403, and /docs lists both routes with the panel's security", async () => {
    h = await startBotHarness();
    await expectPanelSecurity(h, [
      { method: "POST", path: TEST, body: { response: "hi" } },
      { method: "POST", path: IMPORT, body: { body: fixture("nightbot-commands.json"), apply: true } },
    ]);
    expect(await stored()).toEqual([]);
    await expectDocumented(h, { [TEST]: ["post"], [IMPORT]: ["post"] });
  });
});
