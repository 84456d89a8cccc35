import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeObsSettings } from "../../../db/obs.ts";
import { ObsNotConnected } from "../../../server/obs/connection.ts";
import { ObsRelay, type ObsRelayBus, type RelayBusMessage } from "../../../server/obs/relay.ts";
import { RelayPages } from "../../../server/obs/relay-pages.ts";
import type { RelayReport } from "../../../server/obs/relay-protocol.ts";
import { ObsStepFailed } from "../../../server/obs/steps.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";

/**
 * The overlay relay's server side (`via: overlay`): the settings only down open overlay streams and
 * only while the account relays, at once after a change; a step to the first page connected to OBS
 * and its answer by id; no page within 10 s → not connected, saying so; a silent page forgotten; and
 * the same across instances through a bus (a loopback here, Redis in tests/server/redis/).
 */

let t: TestContext;
const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const TIMINGS = { waitMs: 400, answerMs: 400 };

async function setUp(via: "overlay" | "server" = "overlay") {
  t = await createTestContext();
  closers.push(() => t.cleanup());
  const { account } = await createTestAccount(t.ctx);
  const settings = { enabled: true, url: "ws://127.0.0.1:4455", via, password: "obs-secret-41" };
  await writeObsSettings(t.ctx.db, t.ctx.secrets, account.id, settings, Date.now());
  return account.id;
}

function relay(bus: ObsRelayBus | null = null): ObsRelay {
  const made = new ObsRelay(t.ctx, bus, TIMINGS);
  closers.push(() => made.close());
  return made;
}

/** An open alert stream: the SSE blocks written to it, by event. */
function stream(on: ObsRelay, accountId: number, page: string | null) {
  const blocks: string[] = [];
  const detach = on.attach(accountId, page, (text) => blocks.push(text));
  const events = (name: string) =>
    blocks
      .filter((block) => block.startsWith(`event: ${name}\n`))
      .map((block) => JSON.parse(block.split("data: ")[1] ?? "null") as Record<string, unknown>);
  return { blocks, events, detach };
}

const report = (page: string, state: RelayReport["state"] = "connected"): RelayReport => ({
  page,
  state,
  obsVersion: state === "connected" ? "29.0.2" : null,
  scenes: state === "connected" ? ["Live", "BRB"] : [],
  sources: [],
  code: state === "auth_failed" ? 4009 : null,
});

setDefaultTimeout(20_000);

/** Waits for what the relay does after a store read (a loaded CI's PostgreSQL once took past 2 s). */
async function waitFor(done: () => boolean, ms = 8_000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > ms) throw new Error("not reached");
    await Bun.sleep(10);
  }
}

class LoopbackBus implements ObsRelayBus {
  readonly #handlers: ((message: RelayBusMessage | null) => void)[] = [];
  readonly sent: string[] = [];
  async send(message: RelayBusMessage): Promise<void> {
    const text = JSON.stringify(message);
    this.sent.push(text);
    for (const handler of this.#handlers) handler(JSON.parse(text));
  }
  listen(handler: (message: RelayBusMessage | null) => void): void {
    this.#handlers.push(handler);
  }
}

describe("the settings", () => {
  test("sent down each open stream while the account relays, again at once after a change, then off", async () => {
    const accountId = await setUp();
    const on = relay();
    const open = stream(on, accountId, "p1");
    await waitFor(() => open.events("obs").length === 1);
    expect(open.events("obs")[0]).toEqual({
      enabled: true,
      url: "ws://127.0.0.1:4455",
      password: "obs-secret-41",
    });
    const settings = {
      enabled: true,
      url: "ws://127.0.0.1:4455",
      via: "server" as const,
      password: undefined,
    };
    await writeObsSettings(t.ctx.db, t.ctx.secrets, accountId, settings, Date.now());
    on.settingsChanged(accountId);
    await waitFor(() => open.events("obs").length === 2);
    expect(open.events("obs")[1]).toEqual({ enabled: false });
    // Saved again unchanged, they are sent again: a page OBS kicked tries again only then.
    on.settingsChanged(accountId);
    await waitFor(() => open.events("obs").length === 3);
  });

  test("an account that does not relay sends its pages no password; a stream naming no page gets nothing", async () => {
    const accountId = await setUp("server");
    const on = relay();
    const open = stream(on, accountId, "p1");
    await waitFor(() => open.events("obs").length === 1);
    expect(open.blocks.join("")).not.toContain("obs-secret-41");
    const settings = {
      enabled: true,
      url: "ws://127.0.0.1:4455",
      via: "overlay" as const,
      password: undefined,
    };
    await writeObsSettings(t.ctx.db, t.ctx.secrets, accountId, settings, Date.now());
    const preview = stream(on, accountId, null);
    on.settingsChanged(accountId);
    await waitFor(() => open.events("obs").length === 2);
    expect(preview.blocks).toEqual([]);
  });
});

describe("a step", () => {
  test("goes to the first page connected to OBS; its answer comes back by id; others' answers are ignored", async () => {
    const accountId = await setUp();
    const on = relay();
    const first = stream(on, accountId, "p1");
    const second = stream(on, accountId, "p2");
    on.report(accountId, report("p1", "auth_failed"));
    on.report(accountId, report("p2"));
    const done = on.step(accountId, { type: "obs.source", scene: "Live", source: "Cam", visible: false });
    await waitFor(() => second.events("obs-step").length === 1);
    expect(first.events("obs-step")).toEqual([]);
    const order = second.events("obs-step")[0] as { id: string; step: unknown };
    expect(order.step).toEqual({ type: "obs.source", scene: "Live", source: "Cam", visible: false });
    on.answer(accountId, { page: "p1", id: order.id, ok: true, wasVisible: false });
    on.answer(accountId + 1, { page: "p2", id: order.id, ok: true, wasVisible: false });
    on.answer(accountId, { page: "p2", id: order.id, ok: true, wasVisible: true });
    expect(await done).toEqual({ wasVisible: true });
  });

  test("OBS lacking the scene reads as on the server's connection (ObsStepFailed with the page's sentence)", async () => {
    const accountId = await setUp();
    const on = relay();
    const page = stream(on, accountId, "p1");
    on.report(accountId, report("p1"));
    const done = on.step(accountId, { type: "obs.scene", scene: "Nope" });
    await waitFor(() => page.events("obs-step").length === 1);
    const { id } = page.events("obs-step")[0] as { id: string };
    on.answer(accountId, { page: "p1", id, ok: false, failed: "step", error: 'OBS has no scene "Nope".' });
    await expect(done).rejects.toBeInstanceOf(ObsStepFailed);
    await expect(done).rejects.toThrow('OBS has no scene "Nope".');
  });

  test("a text longer than the page accepts fails at once, naming why, and nothing is sent", async () => {
    const accountId = await setUp();
    const on = relay();
    const page = stream(on, accountId, "p1");
    on.report(accountId, report("p1"));
    const long = on.step(accountId, { type: "obs.text", source: "Title", text: "\u0301".repeat(10_001) });
    await expect(long).rejects.toBeInstanceOf(ObsStepFailed);
    await expect(long).rejects.toThrow("longer than 10,000 characters");
    expect(page.events("obs-step")).toEqual([]);
  });

  test("no page connected to OBS: waits, then ObsNotConnected saying no overlay page is connected", async () => {
    const accountId = await setUp();
    const on = relay();
    on.report(accountId, report("p1", "unreachable"));
    const started = Date.now();
    const done = on.step(accountId, { type: "obs.scene", scene: "Live" });
    await expect(done).rejects.toBeInstanceOf(ObsNotConnected);
    await expect(done).rejects.toThrow("no overlay page is connected to OBS");
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMINGS.waitMs - 20);
  });

  test("at shutdown (the context closes) a step waiting for a page ends at once, not after its 10 s", async () => {
    const accountId = await setUp();
    const waiting = t.ctx.obs.relay.step(accountId, { type: "obs.scene", scene: "Live" });
    await Bun.sleep(50);
    const started = Date.now();
    await t.ctx.close();
    await expect(waiting).rejects.toBeInstanceOf(ObsNotConnected);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test("a page that connects during the wait gets the step; one that never answers: not connected, saying so", async () => {
    const accountId = await setUp();
    const on = relay();
    const page = stream(on, accountId, "p1");
    const done = on.step(accountId, { type: "obs.scene", scene: "Live" });
    await Bun.sleep(100);
    on.report(accountId, report("p1"));
    await waitFor(() => page.events("obs-step").length === 1);
    await expect(done).rejects.toThrow("the overlay page did not answer");
  });
});

describe("the pages", () => {
  test("the state is the first connected page's; a page not heard for the time to live stops counting", async () => {
    let now = 1_000;
    const pages = new RelayPages(() => now, 200);
    const target = { url: "ws://127.0.0.1:4455", hasPassword: true, since: 5 };
    expect(pages.seen(1, target).reason).toContain("No overlay page is connected");
    pages.heard(1, report("a", "unreachable"));
    expect(pages.seen(1, target)).toMatchObject({ state: "unreachable", since: 1_000 });
    expect(pages.seen(1, target).reason).toContain("OBS is not running");
    now = 2_000;
    pages.heard(1, report("b"));
    expect(pages.seen(1, target)).toMatchObject({
      state: "connected",
      since: 2_000,
      scenes: ["Live", "BRB"],
    });
    pages.heard(1, report("b"));
    expect(pages.seen(1, target).since).toBe(2_000);
    await Bun.sleep(250);
    expect(pages.seen(1, target).state).toBe("connecting");
    expect(pages.connected(1)).toBeNull();
  });

  test("a wrong password reads auth_failed with the server's own words", () => {
    const pages = new RelayPages(() => 1);
    pages.heard(1, report("a", "auth_failed"));
    const seen = pages.seen(1, { url: "ws://x:4455", hasPassword: true, since: null });
    expect(seen.state).toBe("auth_failed");
    expect(seen.reason).toContain("Wrong password");
  });

  test("a flood of page ids: at most 20 count per account", () => {
    const pages = new RelayPages(() => 1);
    for (let i = 0; i < 20; i++) expect(pages.heard(1, report(`p${i}`))).toBe(true);
    expect(pages.heard(1, report("p20"))).toBe(false);
    expect(pages.heard(1, report("p3", "error"))).toBe(true);
    expect(pages.heard(2, report("p20"))).toBe(true);
  });
});

describe("across instances (a bus)", () => {
  test("the stream on A, the step from B, the report and the answer POSTed to C; no password on the bus", async () => {
    const accountId = await setUp();
    const bus = new LoopbackBus();
    const [a, b, c] = [relay(bus), relay(bus), relay(bus)];
    const page = stream(a, accountId, "p1");
    c.report(accountId, report("p1"));
    await waitFor(() => b.seen(accountId, { url: "", hasPassword: true, since: null }).state === "connected");
    const done = b.step(accountId, { type: "obs.text", source: "Title", text: "hi" });
    await waitFor(() => page.events("obs-step").length === 1);
    const { id } = page.events("obs-step")[0] as { id: string };
    c.answer(accountId, { page: "p1", id, ok: true, wasVisible: null });
    expect(await done).toEqual({});
    c.settingsChanged(accountId);
    await waitFor(() => page.events("obs").length === 1);
    expect(bus.sent.join("\n")).not.toContain("obs-secret-41");
  });
});
