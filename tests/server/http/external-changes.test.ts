// A running server must see what the CLI changes (key rotation, roles) without a restart: another
// connection's commit moves SQLite's data_version, the server's poll calls check(), caches flush.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeChatEnabled, writeChatState } from "../../../db/chat.ts";
import { touchCredential } from "../../../db/credentials.ts";
import { sha256Hex } from "../../../db/lookup-hash.ts";
import { storeProviderTokens } from "../../../db/oauth-tokens.ts";
import { publishOverlayState } from "../../../db/overlay.ts";
import { createApp } from "../../../server/app.ts";
import {
  assignRole,
  requireAccount,
  rotateApiKey,
  rotateOverlayToken,
} from "../../../server/core/accounts.ts";
import { loadConfig } from "../../../server/core/config.ts";
import { createLogger } from "../../../server/core/log.ts";
import { listen } from "../../../server/listen.ts";
import { type Context, openContext } from "../../../server/runtime.ts";
import { waitFor } from "../../helpers/chat.ts";
import { initDataDir, Scratch } from "../../helpers/cli.ts";
import {
  createTestAccount,
  createTestContext,
  onPostgres,
  TEST_CLIENT_IP_HEADER,
  type TestContext,
} from "../../helpers/context.ts";
import { commandEvent } from "../../helpers/events.ts";

const TOKENS = { accessToken: "a", refreshToken: "r", scopes: ["user:read:chat"], expiresAt: 1 };

let server: TestContext;

/** What the other process writes when it serves a request with the key: when the key was last used. */
function noteKeyUsedByCli(accountId: number, apiKey: string): void {
  touchCredential(cli.db, "api-key", { accountId, lookupHash: sha256Hex(apiKey) }, Date.now(), (error) => {
    throw error;
  });
}
/** A second context on the same data folder, with its own connection: what the CLI process opens. */
let cli: Context;
beforeEach(async () => {
  server = await createTestContext();
  // On PostgreSQL the test's database is named in the server's config only: the "CLI" shares it.
  cli = await openContext(
    onPostgres ? { ...server.ctx.config } : loadConfig({ dataDir: server.dataDir, env: {} }),
    {
      log: createLogger({ level: "error", format: "json", write: () => {} }),
    },
  );
});
afterEach(async () => {
  await cli.close();
  await server.cleanup();
});

describe.skipIf(onPostgres)("ExternalChanges (SQLite: data_version, then the cache-changes counter)", () => {
  test("fires after another connection commits, and only then", async () => {
    let flushes = 0;
    server.ctx.externalChanges.subscribe(() => flushes++);
    expect(server.ctx.externalChanges.check()).toBe(false);

    // The server's own writes are not outside changes.
    await createTestAccount(server.ctx, { login: "alice" });
    expect(server.ctx.externalChanges.check()).toBe(false);

    await assignRole(cli, await requireAccount(cli, "alice"), "Pro", "cli");
    expect(server.ctx.externalChanges.check()).toBe(true);
    expect(flushes).toBe(1);
    expect(server.ctx.externalChanges.check()).toBe(false);
    expect(flushes).toBe(1);
  });

  /** An account the server itself created (nothing outside to see yet), and its flushes from now on. */
  async function serverAccountWatched() {
    const { account } = await createTestAccount(server.ctx, { login: "alice" });
    expect(server.ctx.externalChanges.check()).toBe(false);
    let flushes = 0;
    server.ctx.externalChanges.subscribe(() => flushes++);
    return { account, flushes: () => flushes };
  }

  test("the server's own change to a cached table is its own: another connection's analytics commit after it flushes nothing", async () => {
    const { account, flushes } = await serverAccountWatched();
    await assignRole(server.ctx, account, "Pro", "panel");
    // What the database worker does every second under load: commit analytics rows on its connection.
    cli.events.record(commandEvent(account.id, 1));
    await cli.events.flush();
    expect(server.ctx.externalChanges.check()).toBe(false);
    expect(flushes()).toBe(0);
  });

  test("another process's change that lands just before the server's own write is still seen", async () => {
    const { account, flushes } = await serverAccountWatched();
    await assignRole(cli, await requireAccount(cli, "alice"), "Pro", "cli");
    // No request looked in between: the server's own write finds it.
    await assignRole(server.ctx, account, "VIP", "panel");
    expect(flushes()).toBe(1);
    expect(server.ctx.externalChanges.check()).toBe(false);
    expect(flushes()).toBe(1);
  });

  test("another instance's analytics events and overlay publishes flush nothing; a change to what is cached does", async () => {
    // The account arrives from the other process: a cached table changed.
    const { account, apiKey } = await createTestAccount(cli, { login: "alice" });
    expect(server.ctx.externalChanges.check()).toBe(true);
    let flushes = 0;
    server.ctx.externalChanges.subscribe(() => flushes++);

    // A second instance on the same file writes a command event per bot call: caches must survive it,
    // or every request on this instance would start from cold.
    for (let i = 0; i < 3; i++) {
      cli.events.record({
        accountId: account.id,
        at: Date.now(),
        command: "coinflip",
        caller: "viewer",
        outcome: "ok",
        latencyMs: 1,
        test: false,
        refused: null,
      });
      await cli.events.flush();
      expect(server.ctx.externalChanges.check()).toBe(false);
    }
    await publishOverlayState(cli.db, account.id, { title: "hi" }, Date.now());
    expect(server.ctx.externalChanges.check()).toBe(false);
    // Bookkeeping on cached tables is not a change to what is cached: a key's last use, the chat
    // state the instance holding chat reports.
    noteKeyUsedByCli(account.id, apiKey);
    expect(server.ctx.externalChanges.check()).toBe(false);
    await writeChatEnabled(cli.db, account.id, false, Date.now());
    expect(server.ctx.externalChanges.check()).toBe(true);
    await writeChatState(cli.db, account.id, "connected", null, Date.now());
    expect(server.ctx.externalChanges.check()).toBe(false);
    // A write that leaves a cached column as it was: the switch set again, a refresh with the same scopes.
    await writeChatEnabled(cli.db, account.id, false, Date.now());
    await storeProviderTokens(cli.db, cli.secrets, account.id, TOKENS, Date.now());
    expect(server.ctx.externalChanges.check()).toBe(true);
    await storeProviderTokens(
      cli.db,
      cli.secrets,
      account.id,
      { ...TOKENS, accessToken: "refreshed" },
      Date.now(),
    );
    expect(server.ctx.externalChanges.check()).toBe(false);
    flushes = 0;

    await rotateOverlayToken(cli, await requireAccount(cli, "alice"), "cli");
    expect(server.ctx.externalChanges.check()).toBe(true);
    expect(flushes).toBe(1);
  });

  test("an API key rotated by the other process stops working once check() ran", async () => {
    const { account, apiKey: oldKey } = await createTestAccount(server.ctx, { login: "alice" });
    expect((await server.ctx.accounts.byCredential("api-key", oldKey))?.id).toBe(account.id);

    const newKey = await rotateApiKey(cli, await requireAccount(cli, "alice"), "cli");
    expect((await server.ctx.accounts.byCredential("api-key", oldKey))?.id).toBe(account.id);
    expect(server.ctx.externalChanges.check()).toBe(true);

    expect(await server.ctx.accounts.byCredential("api-key", oldKey)).toBeNull();
    expect((await server.ctx.accounts.byCredential("api-key", newKey))?.id).toBe(account.id);
  });

  test("a role set by the other process shows in the server's cached account after check()", async () => {
    const { account, overlayToken } = await createTestAccount(server.ctx, { login: "alice" });
    expect((await server.ctx.accounts.account(account.id))?.role).toBe("Default");
    await assignRole(cli, await requireAccount(cli, "alice"), "Partner", "cli");
    expect((await server.ctx.accounts.account(account.id))?.role).toBe("Default");
    server.ctx.externalChanges.check();
    expect((await server.ctx.accounts.account(account.id))?.role).toBe("Partner");

    expect((await server.ctx.accounts.byCredential("overlay-token", overlayToken))?.id).toBe(account.id);
    const newToken = await rotateOverlayToken(cli, await requireAccount(cli, "alice"), "cli");
    // Until the poll sees the commit, the cached answer stands.
    expect((await server.ctx.accounts.byCredential("overlay-token", overlayToken))?.id).toBe(account.id);
    server.ctx.externalChanges.check();
    expect(await server.ctx.accounts.byCredential("overlay-token", overlayToken)).toBeNull();
    expect((await server.ctx.accounts.byCredential("overlay-token", newToken))?.id).toBe(account.id);
  });
});

const CLIENT = { headers: { [TEST_CLIENT_IP_HEADER]: "203.0.113.7" } };

describe.skipIf(onPostgres)("every request looks, also within one turn of the event loop", () => {
  test("a key rotated between two requests that one turn handles: the second is refused", async () => {
    const { apiKey } = await createTestAccount(server.ctx, { login: "alice" });
    const app = createApp(server.ctx);
    const coinflip = () =>
      app.handle(new Request(`http://localhost/api/bot/coinflip?apiKey=${apiKey}`, CLIENT));
    // No await of a timer or I/O between these: one macrotask, as when Bun reads a request that
    // arrived while another one held the event loop.
    expect((await coinflip()).status).toBe(200);
    await rotateApiKey(cli, await requireAccount(cli, "alice"), "cli");
    expect((await coinflip()).status).toBe(401);
  });
});

describe.skipIf(onPostgres)("a server told of changes by the commands (alone on its SQLite file)", () => {
  test("it does not ask per request, but a request after a second without a look asks first", async () => {
    const { apiKey } = await createTestAccount(server.ctx, { login: "alice" });
    const app = createApp(server.ctx, { changesAnnounced: true });
    const coinflip = () =>
      app.handle(new Request(`http://localhost/api/bot/coinflip?apiKey=${apiKey}`, CLIENT));
    expect((await coinflip()).status).toBe(200);
    // A commit nobody announced (a command that gave up waiting on a stalled server): not seen yet…
    await rotateApiKey(cli, await requireAccount(cli, "alice"), "cli");
    expect((await coinflip()).status).toBe(200);
    // …but the first request once the last look is a second old looks before it reads the caches.
    await Bun.sleep(1_100);
    expect((await coinflip()).status).toBe(401);
  });
});

describe.skipIf(!onPostgres)("changes on PostgreSQL arrive as notifications when the writer commits", () => {
  /** Counts flushes; `settled(n)` waits until exactly n arrived (notifications arrive in commit order). */
  function countFlushes() {
    let flushes = 0;
    server.ctx.externalChanges.subscribe(() => flushes++);
    return {
      count: () => flushes,
      settled: async (n: number) => {
        await waitFor(() => flushes >= n, 2000);
        await Bun.sleep(50);
        return flushes;
      },
    };
  }

  test("a role set or a key rotated by the other process flushes the server's caches", async () => {
    const flushes = countFlushes();
    // The server's own writes come back to it too (one notification per transaction).
    const { account, apiKey: oldKey } = await createTestAccount(server.ctx, { login: "alice" });
    expect(await flushes.settled(1)).toBe(1);
    expect((await server.ctx.accounts.account(account.id))?.role).toBe("Default");
    await assignRole(cli, await requireAccount(cli, "alice"), "Partner", "cli");
    expect(await flushes.settled(2)).toBe(2);
    expect((await server.ctx.accounts.account(account.id))?.role).toBe("Partner");

    expect((await server.ctx.accounts.byCredential("api-key", oldKey))?.id).toBe(account.id);
    const newKey = await rotateApiKey(cli, await requireAccount(cli, "alice"), "cli");
    expect(await flushes.settled(3)).toBe(3);
    expect(await server.ctx.accounts.byCredential("api-key", oldKey)).toBeNull();
    expect((await server.ctx.accounts.byCredential("api-key", newKey))?.id).toBe(account.id);
  });

  test("an admin command's notice flushes at once, before PostgreSQL's notification can arrive", async () => {
    const flushes = countFlushes();
    const { apiKey } = await createTestAccount(server.ctx, { login: "alice" });
    expect(await flushes.settled(1)).toBe(1);
    expect(await server.ctx.accounts.byCredential("api-key", apiKey)).not.toBeNull();
    // What the notice socket calls (server/start.ts) while `cuebot key rotate` waits for its answer:
    // the flush happens in this turn, so the command's next request is served with the change.
    server.ctx.externalChanges.announced();
    expect(flushes.count()).toBe(2);
  });

  test("analytics events, overlay publishes and bookkeeping columns send nothing; the next real change one", async () => {
    const { account, apiKey } = await createTestAccount(cli, { login: "alice" });
    await Bun.sleep(100);
    const flushes = countFlushes();
    await writeChatEnabled(cli.db, account.id, true, Date.now());
    expect(await flushes.settled(1)).toBe(1);
    for (let i = 0; i < 3; i++) {
      cli.events.record({
        accountId: account.id,
        at: Date.now(),
        command: "dice",
        caller: "v",
        outcome: "ok",
        latencyMs: 1,
        test: false,
        refused: null,
      });
    }
    await cli.events.flush();
    await publishOverlayState(cli.db, account.id, { title: "hi" }, Date.now());
    noteKeyUsedByCli(account.id, apiKey);
    await writeChatState(cli.db, account.id, "connected", null, Date.now());
    await writeChatEnabled(cli.db, account.id, true, Date.now());
    // None of those flushed; the next change to what is cached does, once.
    await storeProviderTokens(cli.db, cli.secrets, account.id, TOKENS, Date.now());
    expect(await flushes.settled(2)).toBe(2);
    // A refresh that keeps the scopes changes nothing cached.
    await storeProviderTokens(
      cli.db,
      cli.secrets,
      account.id,
      { ...TOKENS, accessToken: "refreshed" },
      Date.now(),
    );
    await assignRole(cli, account, "Pro", "cli");
    expect(await flushes.settled(3)).toBe(3);
  });
});

describe("a running server and the real CLI process", () => {
  const scratch = new Scratch();
  afterEach(() => scratch.cleanup());

  test("key rotate in another process reaches the listening server's cache within a second", async () => {
    const cwd = scratch.dir();
    const dataDir = await initDataDir(cwd);
    const ctx = await openContext(loadConfig({ dataDir, env: {} }), {
      log: createLogger({ level: "error", format: "json", write: () => {} }),
    });
    try {
      ctx.config.port = 0;
      const { apiKey: oldKey } = await createTestAccount(ctx, { login: "alice" });
      const running = listen(ctx, createApp(ctx));
      try {
        expect(await ctx.accounts.byCredential("api-key", oldKey)).not.toBeNull();
        const rotated = await scratch.run(["key", "rotate", "alice", "--data-dir", dataDir], { cwd });
        expect(rotated.code).toBe(0);
        const newKey = rotated.stdout.trim();
        const deadline = performance.now() + 1_000;
        while (
          (await ctx.accounts.byCredential("api-key", oldKey)) !== null &&
          performance.now() < deadline
        ) {
          await Bun.sleep(25);
        }
        expect(await ctx.accounts.byCredential("api-key", oldKey)).toBeNull();
        expect(await ctx.accounts.byCredential("api-key", newKey)).not.toBeNull();
      } finally {
        await running.stop(0);
      }
    } finally {
      await ctx.close();
    }
  });
});
