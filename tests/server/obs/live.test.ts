/**
 * The live layer's OBS part (server/obs/live.ts): which accounts this instance connects, and where a
 * step goes, following settings another process changes (the change feed).
 */
import { afterEach, expect, test } from "bun:test";
import { writeObsSettings } from "../../../db/obs.ts";
import { createLogger } from "../../../server/core/log.ts";
import { ObsLive } from "../../../server/obs/live.ts";
import { type Context, openContext } from "../../../server/runtime.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";

let t: TestContext;
let other: Context | null = null;
let live: ObsLive | null = null;
afterEach(async () => {
  await live?.close();
  await other?.close();
  await t.cleanup();
  live = null;
  other = null;
});

const OVERLAY = { enabled: true, url: "ws://127.0.0.1:4455", via: "overlay" as const, password: "pw" };

test("an account relayed by its overlay page and turned off by another instance: a step is refused at once", async () => {
  t = await createTestContext();
  const { account } = await createTestAccount(t.ctx);
  await writeObsSettings(t.ctx.db, t.ctx.secrets, account.id, OVERLAY, Date.now());
  live = new ObsLive(t.ctx);
  live.start();
  await Bun.sleep(200);
  // Another instance (or the CLI) turns OBS off: this one hears it through the change feed.
  other = await openContext(t.ctx.config, {
    log: createLogger({ level: "error", format: "json", write: () => {} }),
  });
  await writeObsSettings(other.db, other.secrets, account.id, { ...OVERLAY, enabled: false }, Date.now());
  // SQLite: the change is looked for; PostgreSQL: its notification arrives. Then the sync reads it.
  t.ctx.externalChanges.check();
  await Bun.sleep(500);
  const started = performance.now();
  const error = await live.step(account.id, { type: "obs.scene", scene: "Live" }).then(
    () => null,
    (failure: Error) => failure.message,
  );
  // Before the fix the relayed account was never looked at again: the step waited 10 s for a page.
  expect(error).toStartWith("OBS is not connected: the connection is off");
  expect(performance.now() - started).toBeLessThan(1000);
}, 30_000);
