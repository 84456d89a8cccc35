import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addCustomCommand, incrementCommandCount } from "../../db/custom-commands.ts";
import type { DataStore } from "../../db/data-store.ts";
import { writeObsSettings } from "../../db/obs.ts";
import { addQuote } from "../../db/quotes.ts";
import { addRegular } from "../../db/regulars.ts";
import { addTimer } from "../../db/timers.ts";
import type { ActionInput } from "../../server/actions/model.ts";
import { createAction, recordActionRun } from "../../server/actions/store.ts";
import { loadConfig } from "../../server/core/config.ts";
import { type CoreContext, openCore } from "../../server/core/context.ts";
import { createLogger } from "../../server/core/log.ts";
import { initDataDir, Scratch, seedAccount } from "../helpers/cli.ts";

const scratch = new Scratch();
let cwd: string;
let dataDir: string;
let alice: Awaited<ReturnType<typeof seedAccount>>;
let bob: Awaited<ReturnType<typeof seedAccount>>;
beforeEach(async () => {
  cwd = scratch.dir();
  dataDir = await initDataDir(cwd);
  alice = await seedAccount(dataDir, "alice", "Alice");
  bob = await seedAccount(dataDir, "bob", "BoB");
});
afterEach(() => scratch.cleanup());

const cuebot = (...args: string[]) => scratch.run([...args, "--data-dir", dataDir], { cwd });
const NO_ACCOUNT = 'cuebot: no account with login "ghost" (the streamer must log in once first)\n';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Runs `fn` on the data folder's database, as a server would, closing it again before returning. */
async function onDatabase<T>(fn: (db: DataStore, core: CoreContext) => Promise<T>): Promise<T> {
  const core = await openCore(loadConfig({ dataDir, env: {} }), {
    log: createLogger({ level: "error", format: "json", write: () => {} }),
  });
  try {
    return await fn(core.db, core);
  } finally {
    await core.close();
  }
}

/** A command, a regular, a quote and a timer of the account, as chat and the dashboard add them. */
async function seedChatBot(accountId: number, at: number): Promise<void> {
  await onDatabase(async (db) => {
    await addCustomCommand(db, accountId, { name: "deaths", response: "$(count) deaths" }, at);
    await incrementCommandCount(db, accountId, "deaths");
    await addRegular(db, accountId, { twitchUserId: "4242", login: "regularfan" }, at);
    await addQuote(db, accountId, { text: "I never miss", game: "VALORANT" }, at);
    await addTimer(db, accountId, { name: "socials", message: "Follow!", intervalMinutes: 15 }, at);
    const action = await createAction(db, accountId, RAID_ACTION, at);
    const steps = [{ type: "chat" as const, ok: true, error: null }];
    const run = { actionId: action?.id ?? 0, at, ok: true, cause: "alert" as const, user: "Raider", steps };
    await recordActionRun(db, accountId, run);
  });
}

const RAID_ACTION: ActionInput = {
  name: "Raid",
  enabled: true,
  cooldownSeconds: 0,
  trigger: { type: "alert", kind: "raid", min: 0, reward: null },
  steps: [{ type: "chat", text: "Welcome raiders!" }],
};

/** How many rows of each chat-bot table belong to the account. */
function chatBotRows(accountId: number) {
  return onDatabase(async (db) => {
    const ofAccount = (rows: { accountId: number }[]) => rows.filter((r) => r.accountId === accountId).length;
    return {
      customCommands: ofAccount(await db.all((d, t) => d.select().from(t.customCommands))),
      regulars: ofAccount(await db.all((d, t) => d.select().from(t.regulars))),
      quotes: ofAccount(await db.all((d, t) => d.select().from(t.quotes))),
      quoteCounters: ofAccount(await db.all((d, t) => d.select().from(t.quoteCounters))),
      timers: ofAccount(await db.all((d, t) => d.select().from(t.timers))),
      actions: ofAccount(await db.all((d, t) => d.select().from(t.actions))),
      actionRuns: ofAccount(await db.all((d, t) => d.select().from(t.actionRuns))),
    };
  });
}

function expectNoSecrets(text: string) {
  for (const secret of [alice.apiKey, alice.overlayToken, bob.apiKey, bob.overlayToken]) {
    expect(text).not.toContain(secret);
  }
}

describe("cuebot users", () => {
  test("users list --json: [{id, login, displayName, role, createdAt}]", async () => {
    const result = await cuebot("users", "list", "--json");
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as Record<string, string>[];
    expect(rows.map((r) => Object.keys(r))).toEqual([
      ["id", "login", "displayName", "role", "createdAt"],
      ["id", "login", "displayName", "role", "createdAt"],
    ]);
    expect(rows.map((r) => [r.id, r.login, r.displayName, r.role])).toEqual([
      [alice.account.twitchUserId, "alice", "Alice", "Default"],
      [bob.account.twitchUserId, "bob", "BoB", "Default"],
    ]);
    for (const row of rows) expect(row.createdAt).toMatch(ISO);
    expectNoSecrets(result.stdout);
  });

  test("users list for people: a table, and (none) when empty", async () => {
    const result = await cuebot("users", "list");
    expect(result.code).toBe(0);
    const [header, ...lines] = result.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^LOGIN\s+DISPLAY NAME\s+ROLE\s+ID\s+CREATED$/);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^alice\s+Alice\s+Default\s+\d+\s+\d{4}-\d\d-\d\d$/);

    const emptyDir = await initDataDir(scratch.dir());
    const empty = await scratch.run(["users", "list", "--data-dir", emptyDir], { cwd });
    expect(empty.stdout).toBe("(none)\n");
    const emptyJson = await scratch.run(["users", "list", "--json", "--data-dir", emptyDir], { cwd });
    expect(JSON.parse(emptyJson.stdout)).toEqual([]);
  });

  test("users show: one account, never its key or tokens", async () => {
    const human = await cuebot("users", "show", "alice");
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("login:           alice");
    expect(human.stdout).toContain("display name:    Alice");
    expect(human.stdout).toContain("role:            Default");
    expectNoSecrets(human.stdout);

    const json = await cuebot("users", "show", "alice", "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: alice.account.twitchUserId,
      login: "alice",
      displayName: "Alice",
      role: "Default",
      panelLimitOverride: null,
      timezone: "UTC",
      grantedScopes: [],
    });
    expectNoSecrets(json.stdout);
  });

  test("users export: the account's data as JSON on stdout, never keys or tokens", async () => {
    await cuebot("role", "set", "alice", "vip");
    const result = await cuebot("users", "export", "alice");
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as {
      format: string;
      profile: { login: string };
      role: string;
      auditLog: { action: string }[];
      settings: unknown[];
      events: unknown[];
    };
    expect(document.format).toBe("cuebot-account-export/1");
    expect(document.profile.login).toBe("alice");
    expect(document.role).toBe("VIP");
    expect(document.auditLog.map((a) => a.action)).toEqual(["account.create", "role.set"]);
    expect(document).toHaveProperty("overlayState");
    expect(Array.isArray(document.settings)).toBe(true);
    expect(Array.isArray(document.events)).toBe(true);
    expectNoSecrets(result.stdout);
  });

  test("users export: the OBS settings, saying a password is set but never what it is", async () => {
    const password = "obs-secret-4455";
    await onDatabase((db, core) =>
      writeObsSettings(
        db,
        core.secrets,
        alice.account.id,
        { enabled: true, url: "ws://192.168.1.20:4455", via: "server", password },
        Date.UTC(2026, 10, 26, 18, 30),
      ),
    );
    const result = await cuebot("users", "export", "alice");
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(password);
    expect((JSON.parse(result.stdout) as { obs: unknown }).obs).toEqual({
      enabled: true,
      url: "ws://192.168.1.20:4455",
      via: "server",
      passwordSet: true,
      state: "off",
    });
    const bobs = JSON.parse((await cuebot("users", "export", "bob")).stdout) as { obs: unknown };
    expect(bobs.obs).toEqual({
      enabled: false,
      url: "ws://127.0.0.1:4455",
      via: "server",
      passwordSet: false,
      state: "off",
    });
  });

  test("users export: the actions, each with its last run and run log", async () => {
    const at = Date.UTC(2026, 10, 26, 18, 30);
    await seedChatBot(alice.account.id, at);
    const result = await cuebot("users", "export", "alice");
    expect(result.code).toBe(0);
    const { actions } = JSON.parse(result.stdout) as {
      actions: { name: string; lastRun: unknown; runs: unknown[] }[];
    };
    const when = new Date(at).toISOString();
    expect(actions.map((a) => [a.name, a.lastRun, a.runs])).toEqual([
      [
        "Raid",
        { at: when, ok: true, error: null },
        [
          {
            at: when,
            ok: true,
            cause: "alert",
            user: "Raider",
            steps: [{ type: "chat", ok: true, error: null }],
          },
        ],
      ],
    ]);
    expect(
      (JSON.parse((await cuebot("users", "export", "bob")).stdout) as { actions: unknown[] }).actions,
    ).toEqual([]);
  });

  test("users export: the chat section holds the custom commands with their counts, regulars, quotes and timers", async () => {
    const at = Date.UTC(2026, 10, 26, 18, 30);
    await seedChatBot(alice.account.id, at);
    const result = await cuebot("users", "export", "alice");
    expect(result.code).toBe(0);
    const { chat } = JSON.parse(result.stdout) as { chat: Record<string, unknown> };
    const when = new Date(at).toISOString();
    expect(chat.customCommands).toEqual([
      {
        name: "deaths",
        response: "$(count) deaths",
        userLevel: "everyone",
        cooldownSeconds: 0,
        userCooldownSeconds: 0,
        aliasTarget: null,
        count: 1,
        createdAt: when,
        updatedAt: when,
      },
    ]);
    expect(chat.regulars).toEqual([{ id: "4242", login: "regularfan", createdAt: when }]);
    expect(chat.quotes).toEqual([
      { number: 1, text: "I never miss", game: "VALORANT", createdAt: when, updatedAt: when },
    ]);
    expect(chat.timers).toEqual([
      {
        id: expect.any(Number),
        name: "socials",
        message: "Follow!",
        intervalMinutes: 15,
        minChatLines: 2,
        enabled: true,
        lastPostedAt: null,
        createdAt: when,
        updatedAt: when,
      },
    ]);
    // Bob's export holds none of Alice's.
    const bobs = JSON.parse((await cuebot("users", "export", "bob")).stdout) as {
      chat: Record<string, unknown>;
    };
    expect([bobs.chat.customCommands, bobs.chat.regulars, bobs.chat.quotes, bobs.chat.timers]).toEqual([
      [],
      [],
      [],
      [],
    ]);
  });

  test("users export --out FILE writes the same document to a file only its owner can read", async () => {
    const file = join(cwd, "alice.json");
    const result = await cuebot("users", "export", "alice", "--out", file);
    expect(result).toEqual({ code: 0, stdout: `exported alice to ${file}\n`, stderr: "" });
    const document = JSON.parse(readFileSync(file, "utf8")) as { profile: { login: string } };
    expect(document.profile.login).toBe("alice");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expectNoSecrets(readFileSync(file, "utf8"));

    const json = await cuebot("users", "export", "bob", "--out", join(cwd, "bob.json"), "--json");
    expect(JSON.parse(json.stdout)).toEqual({ login: "bob", file: join(cwd, "bob.json") });

    // Writing over an existing, world-readable file narrows it too.
    const existing = join(cwd, "old.json");
    writeFileSync(existing, "{}", { mode: 0o644 });
    chmodSync(existing, 0o644);
    expect((await cuebot("users", "export", "alice", "--out", existing)).code).toBe(0);
    expect(statSync(existing).mode & 0o777).toBe(0o600);
    // So is the database, whatever folder it lives in.
    expect(statSync(join(dataDir, "cuebot.db")).mode & 0o777).toBe(0o600);
  });

  test("users export --out into a missing folder: exit 1 naming the file", async () => {
    const file = join(cwd, "missing", "alice.json");
    const result = await cuebot("users", "export", "alice", "--out", file);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`cuebot: cannot write ${file} (ENOENT)\n`);
  });

  test("users delete --yes removes the account and everything of it", async () => {
    await seedChatBot(alice.account.id, Date.now());
    await seedChatBot(bob.account.id, Date.now());
    const result = await cuebot("users", "delete", "alice", "--yes");
    expect(result).toEqual({ code: 0, stdout: "deleted alice\n", stderr: "" });
    const none = {
      customCommands: 0,
      regulars: 0,
      quotes: 0,
      quoteCounters: 0,
      timers: 0,
      actions: 0,
      actionRuns: 0,
    };
    expect(await chatBotRows(alice.account.id)).toEqual(none);
    expect(await chatBotRows(bob.account.id)).toEqual({
      ...none,
      customCommands: 1,
      regulars: 1,
      quotes: 1,
      quoteCounters: 1,
      timers: 1,
      actions: 1,
      actionRuns: 1,
    });
    const list = JSON.parse((await cuebot("users", "list", "--json")).stdout) as { login: string }[];
    expect(list.map((a) => a.login)).toEqual(["bob"]);
    expect((await cuebot("key", "show", "alice")).code).toBe(1);

    const json = await cuebot("users", "delete", "bob", "--yes", "--json");
    expect(JSON.parse(json.stdout)).toEqual({ login: "bob", deleted: true, providerTokenRevoked: false });
    expect((await cuebot("users", "list")).stdout).toBe("(none)\n");
  });

  test("users delete without --yes: exit 2 and nothing is deleted", async () => {
    const result = await cuebot("users", "delete", "alice");
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      'cuebot: refusing to delete "alice" without --yes (this removes the account and all of its data)\n',
    );
    expect((await cuebot("key", "show", "alice")).stdout).toBe(`${alice.apiKey}\n`);
    // Usage before lookup: an unknown login without --yes is still the usage error.
    expect((await cuebot("users", "delete", "ghost")).code).toBe(2);
  });

  test("an unknown login: exit 1 with the contract's message for show, export and delete", async () => {
    for (const args of [
      ["users", "show", "ghost"],
      ["users", "export", "ghost"],
      ["users", "delete", "ghost", "--yes"],
    ]) {
      expect(await cuebot(...args)).toEqual({ code: 1, stdout: "", stderr: NO_ACCOUNT });
    }
  });
});
