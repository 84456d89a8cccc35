import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openPostgres, type PgHandle } from "../../../db/pg/connection.ts";
import { CopyError, copyOrder, copySqliteToPostgres } from "../../../db/pg/copy.ts";
import * as pg from "../../../db/pg/schema.ts";
import { type DatabaseHandle, openDatabase } from "../../../db/sqlite/connection.ts";
import { migrate } from "../../../db/sqlite/migrate.ts";
import * as lite from "../../../db/sqlite/schema.ts";
import { tempDir } from "../../helpers/context.ts";
import {
  createTestDatabase,
  dropTestDatabase,
  explainSkip,
  postgresAvailable,
  type TestDatabase,
} from "../../helpers/engines.ts";

explainSkip("postgres");

const AT = Date.UTC(2026, 10, 24, 9, 30, 0, 123);

/** An embedded database with a little of everything: several accounts, every table, odd values. */
function seededSqlite(dir: string): DatabaseHandle {
  const handle = openDatabase(join(dir, "cuebot.db"));
  migrate(handle.sqlite);
  const { db } = handle;
  for (let i = 1; i <= 3; i++) {
    db.insert(lite.accounts)
      .values({
        twitchUserId: `10${i}`,
        login: `streamer${i}`,
        displayName: i === 2 ? "Ünïcødé 🎲 ‘quotes’" : `Streamer${i}`,
        role: i === 3 ? "Partner" : "Default",
        panelLimitOverride: i === 1 ? 2000 : null,
        needsReauth: i === 2,
        createdAt: AT + i,
        updatedAt: AT + 10 * i,
      })
      .run();
  }
  db.insert(lite.apiKeys)
    .values({ accountId: 1, lookupHash: "h1", encrypted: "e1", createdAt: AT, lastUsedAt: null })
    .run();
  db.insert(lite.overlayTokens)
    .values({ accountId: 2, lookupHash: "h2", encrypted: "e2", createdAt: AT, lastUsedAt: AT + 5 })
    .run();
  db.insert(lite.sessions)
    .values([
      { idHash: "Zeta", accountId: 1, expiresAt: AT + 1e9, createdAt: AT, lastSeenAt: AT, userAgent: "curl" },
      { idHash: "alpha", accountId: 2, expiresAt: AT + 1e9, createdAt: AT, lastSeenAt: AT },
    ])
    .run();
  db.insert(lite.oauthTokens)
    .values({
      accountId: 1,
      accessTokenEncrypted: "a",
      refreshTokenEncrypted: "r",
      scopes: '["chat:read","user:read:email"]',
      expiresAt: AT,
      updatedAt: AT,
    })
    .run();
  db.insert(lite.auditLog)
    .values([
      {
        at: AT,
        accountId: 1,
        login: "streamer1",
        actor: "cli",
        action: "role",
        detail: '{"to":"VIP","from":"Default"}',
      },
      { at: AT + 1, accountId: null, login: "gone", actor: "cli", action: "delete" },
    ])
    .run();
  db.insert(lite.commandSettings)
    .values({
      accountId: 3,
      command: "roulette",
      enabled: false,
      cooldownSeconds: 30,
      options: '{ "text": "spin {n}", "durationSeconds": 45 }',
      updatedAt: AT,
    })
    .run();
  db.insert(lite.overlayState)
    .values({ accountId: 1, state: '{"title":"hi","items":[1,2]}', version: 4, updatedAt: AT })
    .run();
  db.insert(lite.customCommands)
    .values([
      {
        accountId: 1,
        name: "discord",
        response: "Ünïcødé 🎲 $(user)",
        userLevel: "subscriber",
        cooldownSeconds: 5,
        aliasTarget: null,
        count: 2_147_483_647,
        createdAt: AT,
        updatedAt: AT + 1,
      },
      { accountId: 2, name: "deaths", response: "+1", aliasTarget: "commands", createdAt: AT, updatedAt: AT },
    ])
    .run();
  db.insert(lite.regulars).values({ accountId: 1, twitchUserId: "42", login: "alice", createdAt: AT }).run();
  db.insert(lite.quotes)
    .values([
      {
        accountId: 1,
        number: 1,
        text: "GG",
        searchText: "gg",
        game: "VALORANT",
        createdAt: AT,
        updatedAt: AT,
      },
      {
        accountId: 1,
        number: 3,
        text: "ÉCOLE",
        searchText: "école",
        game: null,
        createdAt: AT,
        updatedAt: AT,
      },
    ])
    .run();
  db.insert(lite.quoteCounters).values({ accountId: 1, lastNumber: 3 }).run();
  db.insert(lite.timers)
    .values([
      { accountId: 1, name: "socials", message: "follow", intervalMinutes: 15, createdAt: AT, updatedAt: AT },
      {
        accountId: 3,
        name: "quiet",
        message: "hydrate",
        intervalMinutes: 60,
        minChatLines: 0,
        enabled: false,
        lastPostedAt: AT + 9,
        createdAt: AT,
        updatedAt: AT,
      },
    ])
    .run();
  db.insert(lite.alertChannels)
    .values({
      accountId: 2,
      enabled: true,
      state: "needs_consent",
      stateSince: AT,
      reason: "bits:read",
      updatedAt: AT,
    })
    .run();
  db.insert(lite.moderationChannels)
    .values({
      accountId: 1,
      enabled: true,
      state: "error",
      stateSince: AT,
      reason: "not a mod",
      updatedAt: AT,
    })
    .run();
  db.insert(lite.moderationRules)
    .values({
      accountId: 1,
      filters: JSON.stringify({ caps: { percent: 80 }, terms: { list: ["ÉCOLE", "~/a+b/i"] } }),
      shield: JSON.stringify({ minutes: 10 }),
      shieldUntil: AT + 300_000,
      updatedAt: AT,
    })
    .run();
  db.insert(lite.moderationLog)
    .values({
      accountId: 1,
      at: AT,
      userId: "42",
      userLogin: "alice",
      userName: "Älice",
      filter: "links",
      action: "timeout",
      seconds: 600,
      text: "visit example . com 🙂",
      undone: true,
    })
    .run();
  db.insert(lite.obsSettings)
    .values({
      accountId: 1,
      enabled: true,
      url: "ws://127.0.0.1:4455",
      via: "server",
      passwordSealed: "sealed-obs-password",
      state: "connected",
      stateSince: AT,
      reason: null,
      obsVersion: "29.0.2",
      scenes: JSON.stringify(["Starting soon", "Écran principal 🎮"]),
      sources: JSON.stringify(["Raid text"]),
      updatedAt: AT,
    })
    .run();
  db.insert(lite.actions)
    .values({
      accountId: 1,
      name: "Raid ✨ scène",
      enabled: true,
      cooldownSeconds: 30,
      trigger: JSON.stringify({ type: "alert", kind: "raid", min: 5, reward: null }),
      steps: JSON.stringify([
        { type: "obs.scene", scene: "Écran principal 🎮" },
        { type: "chat", text: "Welcome {user}!" },
      ]),
      lastRunAt: AT,
      lastRunOk: false,
      lastRunError: 'OBS has no scene "Écran principal 🎮".',
      createdAt: AT,
      updatedAt: AT,
    })
    .run();
  db.insert(lite.actionRuns)
    .values({
      actionId: 1,
      accountId: 1,
      at: AT,
      ok: false,
      cause: "alert",
      user: "Älice",
      steps: JSON.stringify([
        { type: "obs.scene", ok: false, error: 'OBS has no scene "Écran principal 🎮".' },
      ]),
    })
    .run();
  // Every byte value, a NUL first: bytes survive as bytes, not text.
  const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => (i + 0x89) & 0xff));
  db.insert(lite.alertAssets)
    .values({
      accountId: 1,
      kind: "image",
      contentType: "image/png",
      bytes,
      size: bytes.length,
      createdAt: AT,
    })
    .run();
  db.insert(lite.alertSettings)
    .values({
      accountId: 1,
      type: "raid",
      template: "{user} ‘raids’ 🎲",
      imageId: 1,
      chatMessage: null,
      updatedAt: AT,
    })
    .run();
  db.insert(lite.alertEvents)
    .values({
      accountId: 1,
      type: "cheer",
      eventKey: "befa7b53-d79d-478f-86b9-120f112b044e",
      fields: '{"user":"Ünïcødé","amount":100,"months":null,"tier":null,"reward":null,"message":"gg"}',
      createdAt: AT,
    })
    .run();
  db.insert(lite.events)
    .values(
      Array.from({ length: 2500 }, (_, i) => ({
        accountId: (i % 3) + 1,
        at: AT + i,
        command: i % 2 ? "dice" : "followage",
        caller: i % 7 ? `viewer${i % 50}` : "",
        outcome: i % 11 ? "ok" : "rate_limited",
        latencyMs: i % 97,
      })),
    )
    .run();
  return handle;
}

describe.skipIf(!postgresAvailable)("copying an embedded database to PostgreSQL (db copy)", () => {
  let dir: string;
  let source: DatabaseHandle;
  let database: TestDatabase;
  let target: PgHandle;

  beforeAll(async () => {
    dir = tempDir("cuebot-copy-");
    source = seededSqlite(dir);
    database = await createTestDatabase();
    target = openPostgres(database.url, { max: 2 });
  });

  afterAll(async () => {
    source?.close();
    await target?.close();
    if (database) await dropTestDatabase(database);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("parents are copied before the tables that reference them", () => {
    const names = copyOrder().map((t) => t.name);
    expect(names[0]).toBe("accounts");
    expect(names.toSorted()).toEqual([
      "accounts",
      "action_runs",
      "actions",
      "alert_assets",
      "alert_channels",
      "alert_events",
      "alert_settings",
      "api_keys",
      "audit_log",
      "chat_bots",
      "chat_settings",
      "command_settings",
      "custom_commands",
      "events",
      "moderation_channels",
      "moderation_log",
      "moderation_rules",
      "oauth_tokens",
      "obs_settings",
      "overlay_state",
      "overlay_tokens",
      "quote_counters",
      "quotes",
      "regulars",
      "sessions",
      "timers",
    ]);
  });

  test("every row arrives unchanged, ids kept, and new ids continue after them", async () => {
    const report = await copySqliteToPostgres(source, target, { pageSize: 1000 });
    expect(Object.fromEntries(report.tables.map((t) => [t.name, t.rows]))).toEqual({
      accounts: 3,
      action_runs: 1,
      actions: 1,
      alert_assets: 1,
      alert_channels: 1,
      alert_events: 1,
      alert_settings: 1,
      api_keys: 1,
      audit_log: 2,
      chat_bots: 0,
      chat_settings: 0,
      command_settings: 1,
      custom_commands: 2,
      events: 2500,
      moderation_channels: 1,
      moderation_log: 1,
      moderation_rules: 1,
      oauth_tokens: 1,
      obs_settings: 1,
      overlay_state: 1,
      overlay_tokens: 1,
      quote_counters: 1,
      quotes: 2,
      regulars: 1,
      sessions: 2,
      timers: 2,
    });

    const byId = <T>(rows: T[], id: (row: T) => number) => rows.toSorted((a, b) => id(a) - id(b));
    expect(byId(await target.db.select().from(pg.accounts), (r) => r.id)).toEqual(
      byId(source.db.select().from(lite.accounts).all(), (r) => r.id),
    );
    expect(byId(await target.db.select().from(pg.events), (r) => r.id)).toEqual(
      byId(source.db.select().from(lite.events).all(), (r) => r.id),
    );
    expect(await target.db.select().from(pg.apiKeys)).toEqual(source.db.select().from(lite.apiKeys).all());
    // jsonb keeps an object's keys in its own order: the JSON is compared as values.
    const parsedJson = <T extends { steps: string }>(rows: T[]) =>
      rows.map((row) => ({
        ...row,
        ...("trigger" in row ? { trigger: JSON.parse(String(row.trigger)) } : {}),
        steps: JSON.parse(row.steps),
      }));
    expect(parsedJson(await target.db.select().from(pg.actions))).toEqual(
      parsedJson(source.db.select().from(lite.actions).all()),
    );
    expect(parsedJson(await target.db.select().from(pg.actionRuns))).toEqual(
      parsedJson(source.db.select().from(lite.actionRuns).all()),
    );
    expect(await target.db.select().from(pg.obsSettings)).toEqual(
      source.db.select().from(lite.obsSettings).all(),
    );
    expect(await target.db.select().from(pg.overlayTokens)).toEqual(
      source.db.select().from(lite.overlayTokens).all(),
    );
    const audit = byId(await target.db.select().from(pg.auditLog), (r) => r.id);
    expect(audit.map((r) => ({ ...r, detail: JSON.parse(r.detail) }))).toEqual(
      byId(source.db.select().from(lite.auditLog).all(), (r) => r.id).map((r) => ({
        ...r,
        detail: JSON.parse(r.detail),
      })),
    );
    const [overlay] = await target.db.select().from(pg.overlayState);
    expect({ ...overlay, state: JSON.parse(overlay!.state) }).toEqual({
      accountId: 1,
      state: { title: "hi", items: [1, 2] },
      version: 4,
      updatedAt: AT,
    });
    const sessions = await target.db.select().from(pg.sessions);
    expect(sessions.map((s) => s.idHash).sort()).toEqual(["Zeta", "alpha"]);
    const [settings] = await target.db.select().from(pg.commandSettings);
    expect(settings).toMatchObject({
      accountId: 3,
      command: "roulette",
      enabled: false,
      cooldownSeconds: 30,
    });
    expect(JSON.parse(settings!.options)).toEqual({ text: "spin {n}", durationSeconds: 45 });

    const [next] = await target.db
      .insert(pg.accounts)
      .values({ twitchUserId: "999", login: "newcomer", displayName: "N", createdAt: AT, updatedAt: AT })
      .returning({ id: pg.accounts.id });
    expect(next!.id).toBe(4);
    const [event] = await target.db
      .insert(pg.events)
      .values({ accountId: 1, at: AT, command: "dice", outcome: "ok" })
      .returning({ id: pg.events.id });
    expect(event!.id).toBe(2501);

    // Rows of tables without an id compared in a fixed order (their keys as text).
    const sorted = (rows: object[]) => rows.map((row) => JSON.stringify(row)).sort();
    expect(sorted(await target.db.select().from(pg.customCommands))).toEqual(
      sorted(source.db.select().from(lite.customCommands).all()),
    );
    expect(sorted(await target.db.select().from(pg.regulars))).toEqual(
      sorted(source.db.select().from(lite.regulars).all()),
    );
    expect(sorted(await target.db.select().from(pg.quotes))).toEqual(
      sorted(source.db.select().from(lite.quotes).all()),
    );
    expect(await target.db.select().from(pg.quoteCounters)).toEqual([{ accountId: 1, lastNumber: 3 }]);
    expect(byId(await target.db.select().from(pg.timers), (r) => r.id)).toEqual(
      byId(source.db.select().from(lite.timers).all(), (r) => r.id),
    );
    expect(await target.db.select().from(pg.alertAssets)).toEqual(
      source.db.select().from(lite.alertAssets).all(),
    );
    expect(await target.db.select().from(pg.alertSettings)).toEqual(
      source.db.select().from(lite.alertSettings).all(),
    );
    expect(await target.db.select().from(pg.moderationLog)).toEqual(
      source.db.select().from(lite.moderationLog).all(),
    );
    const [rules] = await target.db.select().from(pg.moderationRules);
    expect(JSON.parse(rules!.filters)).toEqual(
      JSON.parse(source.db.select().from(lite.moderationRules).all()[0]!.filters),
    );
    expect(await target.db.select().from(pg.alertChannels)).toEqual(
      source.db.select().from(lite.alertChannels).all(),
    );
    const [alert] = await target.db.select().from(pg.alertEvents);
    expect(JSON.parse(alert!.fields)).toEqual(
      JSON.parse(source.db.select().from(lite.alertEvents).all()[0]!.fields),
    );
    const [timer] = await target.db
      .insert(pg.timers)
      .values({ accountId: 1, name: "new", message: "m", intervalMinutes: 5, createdAt: AT, updatedAt: AT })
      .returning({ id: pg.timers.id });
    expect(timer!.id).toBe(3);
  });

  test("a database that already has rows is refused and left alone", async () => {
    const error = await copySqliteToPostgres(source, target).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CopyError);
    expect((error as Error).message).toBe("the PostgreSQL database is not empty (table accounts has rows)");
  });

  test("an unmigrated database is refused", async () => {
    const empty = await createTestDatabase({ migrated: false });
    const handle = openPostgres(empty.url, { max: 1 });
    try {
      const error = await copySqliteToPostgres(source, handle).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CopyError);
      expect((error as Error).message).toContain("not migrated");
    } finally {
      await handle.close();
      await dropTestDatabase(empty);
    }
  });
});
