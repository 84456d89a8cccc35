import { afterEach, describe, expect, test } from "bun:test";
import { writeObsSettings } from "../../../db/obs.ts";
import { obsView } from "../../../server/obs/dashboard.ts";
import { RELAY_PATHS } from "../../../server/obs/relay-protocol.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";

/**
 * The overlay page's POSTs (`via: overlay`): its view of OBS and its answers, only with the overlay
 * token, each bad field named (400, nothing counted), a bounded body, and a page's flood refused.
 */

let t: TestContext;
afterEach(async () => {
  await t.cleanup();
});

async function setUp() {
  t = await createTestContext();
  const { account, overlayToken } = await createTestAccount(t.ctx);
  const settings = { enabled: true, url: "ws://127.0.0.1:4455", via: "overlay" as const, password: "pw-1" };
  await writeObsSettings(t.ctx.db, t.ctx.secrets, account.id, settings, Date.now());
  const post = (path: string, body: unknown, token = overlayToken) => {
    const text = JSON.stringify(body);
    return t.request(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": String(new TextEncoder().encode(text).length),
        "x-overlay-token": token,
      },
      body: text,
    });
  };
  return { accountId: account.id, post };
}

const REPORT = {
  page: "p1",
  state: "connected",
  obsVersion: "29.0.2",
  scenes: ["Live"],
  sources: [],
  code: null,
};

describe("POST the page's view of OBS", () => {
  test("counted: the dashboard shows it", async () => {
    const { accountId, post } = await setUp();
    const res = await post(RELAY_PATHS.state, REPORT);
    expect(res.status).toBe(200);
    expect((await obsView(t.ctx, accountId)).state).toBe("connected");
    expect((await obsView(t.ctx, accountId)).scenes).toEqual(["Live"]);
  });

  test("a bad field is named and nothing counted; no token or a wrong one is 401", async () => {
    const { accountId, post } = await setUp();
    const res = await post(RELAY_PATHS.state, { ...REPORT, state: "off" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("bad_request");
    expect(body.error.message).toContain('"state"');
    expect((await obsView(t.ctx, accountId)).state).toBe("connecting");
    expect((await post(RELAY_PATHS.state, REPORT, "not-a-token")).status).toBe(401);
    const noToken = await t.request(RELAY_PATHS.state, { method: "POST", body: JSON.stringify(REPORT) });
    expect(noToken.status).toBe(401);
    expect((await post(RELAY_PATHS.answer, { page: "p1", id: "x", ok: "maybe" })).status).toBe(400);
  });

  test("a body past 64 KiB is refused (413); a flood gets the contract's 429, a made-up page id no new budget", async () => {
    const { post } = await setUp();
    const huge = { ...REPORT, scenes: Array(1_000).fill("x".repeat(200)) };
    expect((await post(RELAY_PATHS.state, huge)).status).toBe(413);
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++)
      statuses.push((await post(RELAY_PATHS.state, { ...REPORT, page: `p${i % 3}` })).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await post(RELAY_PATHS.state, { ...REPORT, page: "never-seen-before" });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    // A step's answer is not kept out by the reports' flood.
    expect((await post(RELAY_PATHS.answer, { page: "p1", id: "x", ok: true, wasVisible: null })).status).toBe(
      200,
    );
  });
});
