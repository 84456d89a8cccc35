import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import type { AccountProfile } from "../../db/accounts.ts";
import { createApp } from "../../server/app.ts";
import type { Random } from "../../server/bot/chance.ts";
import { provisionAccount } from "../../server/core/accounts.ts";
import type { Clock } from "../../server/core/clock.ts";
import { type Config, loadConfig } from "../../server/core/config.ts";
import { DATABASE_FILE, prepareDataDir } from "../../server/core/data-dir.ts";
import { createLogger } from "../../server/core/log.ts";
import type { GameServiceOptions } from "../../server/game/service.ts";
import { type Context, openContext } from "../../server/runtime.ts";
import { createTestDatabase, dropTestDatabase } from "./engines.ts";

export interface TestContext {
  ctx: Context;
  app: ReturnType<typeof createApp>;
  dataDir: string;
  /** Every log line written, as text (JSON lines). */
  logs: string[];
  /** Sends a request through the whole app (`path` like "/healthz?x=1"). */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Rows of a query run straight on the test's database, whichever it is (plain SQL both accept). */
  sql(text: string): Promise<Record<string, unknown>[]>;
  cleanup(): Promise<void>;
}

/**
 * `CUEBOT_TEST_DATABASE=postgres` runs the tests on PostgreSQL (a fresh database per test, from a
 * migrated template) instead of a fresh SQLite file: CI runs the suite both ways.
 */
export const onPostgres = process.env.CUEBOT_TEST_DATABASE === "postgres";

/** Names the client address of a request under `app.handle`, where there is no socket. */
export const TEST_CLIENT_IP_HEADER = "x-test-client-ip";

export function tempDir(prefix = "cuebot-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface TestContextOptions {
  clock?: Clock;
  /** The context's source of chance (tests/helpers/chance.ts), instead of Math.random. */
  random?: Random;
  /** The game provider client's options (a shorter timeout). */
  game?: GameServiceOptions;
  env?: Record<string, string>;
  /** Adjusts the loaded config before the context is built. */
  configure?: (config: Config) => void;
}

/** A fresh data folder, database, context and app per test: nothing is shared between tests. */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const dataDir = tempDir();
  prepareDataDir(dataDir);
  const config = loadConfig({ dataDir, env: options.env ?? {} });
  options.configure?.(config);
  const database = onPostgres ? await createTestDatabase() : null;
  if (database) config.databaseUrl = database.url;
  const logs: string[] = [];
  const log = createLogger({ level: "debug", format: "json", write: (line) => logs.push(line) });
  const ctx = await openContext(config, {
    log,
    testClientAddressHeader: TEST_CLIENT_IP_HEADER,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.game ? { game: options.game } : {}),
  });
  const app = createApp(ctx);
  let client: SQL | null = null;
  // A connection of its own, so it still reads after the context closed.
  let file: Database | null = null;
  return {
    ctx,
    app,
    dataDir,
    logs,
    request: (path, init) => app.handle(new Request(`http://localhost${path}`, init)),
    async sql(text) {
      if (!database) {
        file ??= new Database(join(dataDir, DATABASE_FILE));
        return file.query(text).all() as Record<string, unknown>[];
      }
      client ??= new SQL({ url: database.url, max: 1 });
      return (await client.unsafe(text)) as Record<string, unknown>[];
    },
    async cleanup() {
      await ctx.close();
      await client?.close();
      file?.close();
      if (database) await dropTestDatabase(database);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let nextUserId = 1000;

/** Creates an account the way first login does (account + API key + overlay token). */
export async function createTestAccount(ctx: Context, profile: Partial<AccountProfile> = {}) {
  const id = String(nextUserId++);
  return await provisionAccount(ctx, {
    twitchUserId: profile.twitchUserId ?? id,
    login: profile.login ?? `streamer${id}`,
    displayName: profile.displayName ?? `Streamer${id}`,
    profileImageUrl: profile.profileImageUrl ?? "",
    timezone: profile.timezone ?? "UTC",
  });
}
