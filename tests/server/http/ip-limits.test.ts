import { afterEach, describe, expect, test } from "bun:test";
import { ManualClock } from "../../../server/core/clock.ts";
import { authenticateBot } from "../../../server/http/auth.ts";
import type { Context } from "../../../server/runtime.ts";
import {
  createTestAccount,
  createTestContext,
  TEST_CLIENT_IP_HEADER,
  type TestContext,
} from "../../helpers/context.ts";

let t: TestContext | undefined;
afterEach(() => t?.cleanup());

/** A bot route guarded exactly like the real ones: a wrong key is a failed authentication, a good key meets the bot quota. */
function withBotRoute(test: TestContext, ctx: Context) {
  test.app.get("/api/bot/test-route", async ({ request, set }) => {
    const { refusal } = await authenticateBot(ctx, request, set);
    return refusal ?? { status: 200, data: { text: "ok" } };
  });
}

async function setup(options: { trustProxy?: boolean } = {}) {
  const clock = new ManualClock();
  t = await createTestContext({
    clock,
    configure: (config) => {
      config.trustProxy = options.trustProxy ?? false;
    },
  });
  withBotRoute(t, t.ctx);
  const test = t;
  const from = (ip: string, path: string, headers: Record<string, string> = {}) =>
    test.request(path, { headers: { [TEST_CLIENT_IP_HEADER]: ip, ...headers } });
  return { t: test, clock, from };
}

async function limitHeaders(res: Response) {
  return {
    limit: res.headers.get("x-ratelimit-limit"),
    remaining: res.headers.get("x-ratelimit-remaining"),
    retryAfter: res.headers.get("retry-after"),
  };
}

async function expectRateLimited(res: Response, limit: number) {
  expect(res.status).toBe(429);
  const body = await res.json();
  expect(body.status).toBe(429);
  expect(body.error.code).toBe("rate_limited");
  expect(typeof body.error.message).toBe("string");
  const headers = await limitHeaders(res);
  expect(headers.limit).toBe(String(limit));
  expect(headers.remaining).toBe("0");
  expect(Number(headers.retryAfter)).toBeGreaterThanOrEqual(1);
  return Number(headers.retryAfter);
}

describe("per-IP limits through the app", () => {
  test("/healthz is never limited and carries no limit headers", async () => {
    const { from } = await setup();
    for (let i = 0; i < 350; i++) {
      const res = await from("192.0.2.1", "/healthz");
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    }
  });

  test("public pages and static assets share 300 per minute per address", async () => {
    const { from, clock } = await setup();
    const paths = ["/", "/docs", "/docs/json", "/chunk-abc123.js"];
    for (let i = 0; i < 300; i++) {
      const res = await from("192.0.2.1", paths[i % paths.length]!);
      expect(await limitHeaders(res)).toEqual({ limit: "300", remaining: String(299 - i), retryAfter: null });
    }
    const retryAfter = await expectRateLimited(await from("192.0.2.1", "/docs"), 300);
    // Another address has its own allowance.
    expect((await from("192.0.2.2", "/docs")).headers.get("x-ratelimit-remaining")).toBe("299");
    clock.advance((retryAfter - 1) * 1000);
    expect((await from("192.0.2.1", "/")).status).toBe(429);
    clock.advance(1000);
    expect((await from("192.0.2.1", "/")).status).not.toBe(429);
  });

  test("/auth/* allows 15 requests per 5 minutes per address", async () => {
    const { from, clock } = await setup();
    for (let i = 0; i < 15; i++) {
      const res = await from("192.0.2.1", i % 2 ? "/auth/login" : "/auth/callback?code=x&state=y");
      expect(await limitHeaders(res)).toEqual({ limit: "15", remaining: String(14 - i), retryAfter: null });
    }
    const retryAfter = await expectRateLimited(await from("192.0.2.1", "/auth/login"), 15);
    expect(retryAfter).toBeGreaterThan(60);
    expect(retryAfter).toBeLessThanOrEqual(600);
    clock.advance(retryAfter * 1000);
    expect((await from("192.0.2.1", "/auth/login")).headers.get("x-ratelimit-limit")).toBe("15");
    expect((await from("192.0.2.1", "/auth/login")).status).toBe(429);
  });

  test("anonymous requests to protected routes: 100 per minute, and the 401 shows that limit", async () => {
    const { from } = await setup();
    const first = await from("192.0.2.1", "/api/bot/test-route");
    expect(first.status).toBe(401);
    expect((await first.json()).error.code).toBe("missing_api_key");
    expect(await limitHeaders(first)).toEqual({ limit: "100", remaining: "99", retryAfter: null });
    // Unknown API routes count too, so scanning is limited.
    for (let i = 0; i < 99; i++) {
      const res = await from("192.0.2.1", i % 2 ? "/api/bot/test-route" : "/api/no-such-route");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(98 - i));
    }
    await expectRateLimited(await from("192.0.2.1", "/api/bot/test-route"), 100);
  });

  test("a 429 to a chat bot is its text line with status 200 and the limit headers", async () => {
    const { from } = await setup();
    for (let i = 0; i < 100; i++) await from("192.0.2.1", "/api/game/rank/eu/player/tag");
    const res = await from("192.0.2.1", "/api/game/rank/eu/player/tag", { "nightbot-user": "name=x" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(res.headers.get("x-cuebot-status")).toBe("429");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await res.text()).toContain("try again in");
  });

  test("with an API key the address limit does not apply; the account's bot quota does", async () => {
    const { t, from } = await setup();
    const { apiKey } = await createTestAccount(t.ctx);
    for (let i = 0; i < 100; i++) await from("192.0.2.1", "/api/bot/test-route");
    await expectRateLimited(await from("192.0.2.1", "/api/bot/test-route"), 100);
    for (let i = 0; i < 30; i++) {
      const res = await from("192.0.2.1", "/api/bot/test-route", { "x-api-key": apiKey });
      expect(res.status).toBe(200);
      expect(await limitHeaders(res)).toEqual({ limit: "30", remaining: String(29 - i), retryAfter: null });
    }
    const refused = await from("192.0.2.1", `/api/bot/test-route?apiKey=${apiKey}`);
    await expectRateLimited(refused, 30);
  });

  test("failed authentications: 60 per minute per address, then 429 for every further failure only", async () => {
    const { t, from } = await setup();
    const { apiKey } = await createTestAccount(t.ctx);
    const wrongKey = "00000000-0000-4000-8000-000000000000";
    for (let i = 0; i < 60; i++) {
      const res = await from("192.0.2.1", "/api/bot/test-route", { "x-api-key": wrongKey });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe("invalid_api_key");
      expect(await limitHeaders(res)).toEqual({ limit: "60", remaining: String(59 - i), retryAfter: null });
    }
    await expectRateLimited(await from("192.0.2.1", "/api/bot/test-route", { "x-api-key": wrongKey }), 60);
    await expectRateLimited(await from("192.0.2.1", "/api/bot/test-route", { "x-api-key": "garbage" }), 60);
    // The right key from the same address still works, and other addresses are unaffected.
    expect((await from("192.0.2.1", "/api/bot/test-route", { "x-api-key": apiKey })).status).toBe(200);
    expect((await from("192.0.2.9", "/api/bot/test-route", { "x-api-key": wrongKey })).status).toBe(401);
  });

  test("a credential that does not authenticate this route does not lift the anonymous limit", async () => {
    const { from } = await setup();
    // The game API and bot routes take an API key; a session cookie or overlay token there is nothing.
    const strays: Record<string, string>[] = [{ cookie: "app_sess=junk" }, { "x-overlay-token": "junk" }];
    for (const headers of strays) {
      const res = await from("192.0.2.44", "/api/game/rank/eu/Somebody/EUW", headers);
      expect(res.headers.get("x-ratelimit-limit")).toBe("100");
    }
    const bot = await from("192.0.2.45", "/api/followage?channel=a&user=b", { cookie: "app_sess=junk" });
    expect(bot.status).toBe(401);
    expect(bot.headers.get("x-ratelimit-limit")).toBe("100");
    // The panel takes the session: a cookie there is judged by the auth layer (a junk one is a failed authentication).
    const panel = await from("192.0.2.46", "/api/dashboard/profile", { cookie: "app_sess=junk" });
    expect(panel.status).toBe(401);
    expect(panel.headers.get("x-ratelimit-limit")).toBe("60");
  });

  test("a key on an /api path no route serves, or with a trailing slash, stays under the anonymous limit", async () => {
    const { from } = await setup();
    const unknown = await from("192.0.2.47", "/api/nothing?apiKey=x");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-ratelimit-limit")).toBe("100");
    const slash = await from("192.0.2.48", "/api/system/validate/?apiKey=x");
    expect(slash.headers.get("x-ratelimit-limit")).not.toBeNull();
  });

  test("IPv6 clients are limited per /64", async () => {
    const { from } = await setup();
    for (let i = 0; i < 15; i++) await from(`2001:db8:1:1::${i + 1}`, "/auth/login");
    await expectRateLimited(await from("2001:db8:1:1:abcd::99", "/auth/login"), 15);
    const neighbour = await from("2001:db8:1:2::1", "/auth/login");
    expect(neighbour.headers.get("x-ratelimit-remaining")).toBe("14");
  });

  test("behind a trusted proxy the right-most X-Forwarded-For entry is the client", async () => {
    const { from } = await setup({ trustProxy: true });
    const proxy = "127.0.0.1";
    for (let i = 0; i < 15; i++) {
      // The left-most entries are whatever the client wrote: changing them changes nothing.
      await from(proxy, "/auth/login", { "x-forwarded-for": `10.0.0.${i}, 203.0.113.5` });
    }
    await expectRateLimited(
      await from(proxy, "/auth/login", { "x-forwarded-for": "10.9.9.9, 203.0.113.5" }),
      15,
    );
    const other = await from(proxy, "/auth/login", { "x-forwarded-for": "203.0.113.6" });
    expect(other.headers.get("x-ratelimit-remaining")).toBe("14");
    const direct = await from(proxy, "/auth/login");
    expect(direct.headers.get("x-ratelimit-remaining")).toBe("14");
  });

  test("without proxy trust X-Forwarded-For is ignored and a warning is logged once", async () => {
    const { t, from } = await setup();
    for (let i = 0; i < 15; i++) {
      await from("192.0.2.1", "/auth/login", { "x-forwarded-for": `203.0.113.${i}` });
    }
    await expectRateLimited(
      await from("192.0.2.1", "/auth/login", { "x-forwarded-for": "203.0.113.99" }),
      15,
    );
    const warnings = t.logs.filter((line) => line.includes("X-Forwarded-For"));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!).level).toBe("warn");
  });
});
