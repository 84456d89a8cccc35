import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq, gte, sql } from "drizzle-orm";
import { openPostgres, type PgHandle } from "../../../db/pg/connection.ts";
import {
  accounts,
  auditLog,
  commandSettings,
  events,
  oauthTokens,
  overlayState,
} from "../../../db/pg/schema.ts";
import {
  createTestDatabase,
  dropTestDatabase,
  explainSkip,
  postgresAvailable,
  type TestDatabase,
} from "../../helpers/engines.ts";

explainSkip("postgres");

/** What cuebot stores must round-trip exactly through Drizzle + Bun.sql, and be real JSON in SQL. */
describe.skipIf(!postgresAvailable)("PostgreSQL column types through drizzle-orm/bun-sql", () => {
  let database: TestDatabase;
  let pg: PgHandle;
  // An odd millisecond, far beyond 2^31, as every stored instant is.
  const at = Date.UTC(2026, 10, 24, 12, 34, 56, 789);

  beforeAll(async () => {
    database = await createTestDatabase();
    pg = openPostgres(database.url, { max: 2 });
  });

  afterAll(async () => {
    await pg?.close();
    if (database) await dropTestDatabase(database);
  });

  async function newAccount(login: string) {
    const [row] = await pg.db
      .insert(accounts)
      .values({ twitchUserId: `id-${login}`, login, displayName: login, createdAt: at, updatedAt: at + 1 })
      .returning();
    return row!;
  }

  test("ids come from the identity, instants and booleans read back as numbers and booleans", async () => {
    const first = await newAccount("alpha");
    const second = await newAccount("beta");
    expect(second.id).toBe(first.id + 1);
    const [read] = await pg.db.select().from(accounts).where(eq(accounts.id, first.id));
    expect(read).toEqual({
      id: first.id,
      twitchUserId: "id-alpha",
      login: "alpha",
      displayName: "alpha",
      profileImageUrl: "",
      timezone: "UTC",
      role: "Default",
      panelLimitOverride: null,
      needsReauth: false,
      createdAt: at,
      updatedAt: at + 1,
    });
    expect(typeof read!.createdAt).toBe("number");
  });

  test("a millisecond instant round-trips exactly and compares in SQL", async () => {
    const account = await newAccount("gamma");
    await pg.db.insert(events).values([
      { accountId: account.id, at, command: "dice", outcome: "ok" },
      { accountId: account.id, at: at + 1, command: "dice", outcome: "ok", latencyMs: 7 },
    ]);
    const rows = await pg.db
      .select()
      .from(events)
      .where(gte(events.at, at + 1));
    expect(rows.map((r) => [r.at, r.latencyMs])).toEqual([[at + 1, 7]]);
  });

  test("an explicit id is kept (identity BY DEFAULT), as `db copy` needs", async () => {
    const [row] = await pg.db
      .insert(accounts)
      .values({
        id: 1000,
        twitchUserId: "id-kept",
        login: "kept",
        displayName: "k",
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: accounts.id });
    expect(row!.id).toBe(1000);
  });

  test("JSON columns are stored as jsonb objects and arrays, not JSON strings, and read back as text", async () => {
    const account = await newAccount("delta");
    const options = JSON.stringify({ text: "rolled {n}", durationSeconds: 30, nested: { a: [1, 2] } });
    await pg.db
      .insert(commandSettings)
      .values({ accountId: account.id, command: "roulette", options, updatedAt: at });
    await pg.db.insert(oauthTokens).values({
      accountId: account.id,
      accessTokenEncrypted: "a",
      refreshTokenEncrypted: "r",
      scopes: JSON.stringify(["chat:read", "moderator:read:followers"]),
      expiresAt: at,
      updatedAt: at,
    });
    await pg.db.insert(overlayState).values({ accountId: account.id, updatedAt: at });
    await pg.db.insert(auditLog).values({
      at,
      accountId: account.id,
      login: "delta",
      actor: "cli",
      action: "role",
      detail: '{"to":"VIP"}',
    });

    const [kinds] = await pg.sql.unsafe(
      `SELECT
         (SELECT jsonb_typeof(options) FROM command_settings WHERE account_id = $1) AS options,
         (SELECT options->>'text' FROM command_settings WHERE account_id = $1) AS option_text,
         (SELECT jsonb_typeof(scopes) FROM oauth_tokens WHERE account_id = $1) AS scopes,
         (SELECT jsonb_array_length(scopes) FROM oauth_tokens WHERE account_id = $1) AS scope_count,
         (SELECT jsonb_typeof(state) FROM overlay_state WHERE account_id = $1) AS state,
         (SELECT detail->>'to' FROM audit_log WHERE account_id = $1) AS detail_to`,
      [account.id],
    );
    expect(kinds).toEqual({
      options: "object",
      option_text: "rolled {n}",
      scopes: "array",
      scope_count: 2,
      state: "object",
      detail_to: "VIP",
    });

    const [settings] = await pg.db
      .select()
      .from(commandSettings)
      .where(eq(commandSettings.accountId, account.id));
    expect(JSON.parse(settings!.options)).toEqual(JSON.parse(options));
    const [tokens] = await pg.db.select().from(oauthTokens).where(eq(oauthTokens.accountId, account.id));
    expect(JSON.parse(tokens!.scopes)).toEqual(["chat:read", "moderator:read:followers"]);
    const [overlay] = await pg.db.select().from(overlayState).where(eq(overlayState.accountId, account.id));
    expect(overlay!.state).toBe("{}");
  });

  test("an update through a SQL expression keeps the column types (overlay version bump)", async () => {
    const account = await newAccount("epsilon");
    await pg.db.insert(overlayState).values({ accountId: account.id, state: '{"v":1}', updatedAt: at });
    const [row] = await pg.db
      .insert(overlayState)
      .values({ accountId: account.id, state: '{"v":2}', updatedAt: at + 5 })
      .onConflictDoUpdate({
        target: overlayState.accountId,
        set: { state: '{"v":2}', version: sql`${overlayState.version} + 1`, updatedAt: at + 5 },
      })
      .returning();
    expect(row).toEqual({ accountId: account.id, state: '{"v":2}', version: 1, updatedAt: at + 5 });
  });

  test("a statement running past the pool's statement timeout is cancelled by the server", async () => {
    const short = openPostgres(database.url, { max: 1, statementTimeoutMs: 100 });
    try {
      const error = await short.sql.unsafe("SELECT pg_sleep(5)").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error & { errno?: string }).errno).toBe("57014"); // query_canceled
    } finally {
      await short.close();
    }
  });
});
