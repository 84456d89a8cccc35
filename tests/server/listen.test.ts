import { afterEach, expect, test } from "bun:test";
import type { Config } from "../../server/core/config.ts";
import { listen, type RunningServer } from "../../server/listen.ts";
import { createTestContext, onPostgres, type TestContext } from "../helpers/context.ts";

let t: TestContext | undefined;
let server: RunningServer | undefined;
const anyFreePort = (config: Config) => {
  config.port = 0;
};

afterEach(async () => {
  await server?.stop(0);
  await t?.cleanup();
  server = undefined;
  t = undefined;
});

test("stopping lets an in-flight request finish, then refuses new connections", async () => {
  t = await createTestContext({ configure: anyFreePort });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started!: () => void;
  const inHandler = new Promise<void>((resolve) => {
    started = resolve;
  });
  // The real app plus one slow route (Elysia adds routes to the instance itself), so the request is
  // inside a handler when the stop begins.
  t.app.get("/slow", async () => {
    started();
    await gate;
    return "finished";
  });
  server = listen(t.ctx, t.app);

  const inFlight = fetch(`${server.url}/slow`);
  await inHandler;
  let stopped = false;
  const stopping = server.stop().then(() => {
    stopped = true;
  });
  await Bun.sleep(50);
  expect(stopped).toBe(false);
  release();

  const res = await inFlight;
  expect(res.status).toBe(200);
  expect(await res.text()).toBe("finished");
  await stopping;
  expect(stopped).toBe(true);
  await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
});

test("a request still running after the grace period is cut off and stop() returns", async () => {
  t = await createTestContext({ configure: anyFreePort });
  t.app.get("/stuck", () => new Promise<string>(() => {}));
  server = listen(t.ctx, t.app);
  const stuck = fetch(`${server.url}/stuck`).catch(() => "cut off");
  await Bun.sleep(50);
  const startedAt = performance.now();
  await server.stop(200);
  expect(performance.now() - startedAt).toBeLessThan(2_000);
  expect(await stuck).toBe("cut off");
  expect(t.logs.some((line) => line.includes("in-flight requests did not finish in time"))).toBe(true);
});

/** Counts the server's own looks for outside changes (requests are not made meanwhile). */
function countLooks(ctx: TestContext["ctx"]): { readonly count: number } {
  const looks = { count: 0 };
  const check = ctx.externalChanges.check.bind(ctx.externalChanges);
  ctx.externalChanges.check = () => {
    looks.count++;
    return check();
  };
  return looks;
}

test("an idle server whose admin commands announce their changes has no timer looking at the database", async () => {
  t = await createTestContext({ configure: anyFreePort });
  const looks = countLooks(t.ctx);
  server = listen(t.ctx, t.app, { changesAnnounced: true });
  // It used to look 4 times a second (and its worker checkpointed 100 times a second) for nothing.
  await Bun.sleep(1_200);
  expect(looks.count).toBe(0);
});

// On PostgreSQL no timer looks: changes are pushed (LISTEN/NOTIFY, core/postgres-storage.ts).
test.skipIf(onPostgres)(
  "where changes are not announced (demo, instances sharing a file), the timer still looks for them",
  async () => {
    t = await createTestContext({ configure: anyFreePort });
    const looks = countLooks(t.ctx);
    server = listen(t.ctx, t.app);
    for (let i = 0; i < 100 && looks.count === 0; i++) await Bun.sleep(50);
    expect(looks.count).toBeGreaterThan(0);
  },
);
