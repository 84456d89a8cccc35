import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listen, type RunningServer } from "../../../server/listen.ts";
import { type IdentityHarness, startIdentityHarness } from "../../helpers/twitch.ts";

/**
 * The routes under /auth answer a browser with a readable page and every other caller with the
 * contract's error body (CONTRACT §5), over real loopback HTTP.
 */
let h: IdentityHarness;
let server: RunningServer;
beforeAll(async () => {
  h = await startIdentityHarness({
    configure: (c) => {
      c.port = 0;
      // Each request comes "through the proxy" from its own address: /auth allows 15 per 5 min each.
      c.trustProxy = true;
    },
  });
  server = listen(h.ctx, h.app);
});
afterAll(async () => {
  await server.stop(1000);
  await h.stop();
});

const REFUSED: [string, string, number, string][] = [
  ["GET", "/auth/chat-bot", 401, "not_authenticated"],
  ["GET", "/auth/callback?code=abc&state=forged", 400, "invalid_state"],
  ["GET", "/auth/callback", 400, "invalid_state"],
  ["GET", "/auth/callback?error=access_denied&state=forged", 400, "invalid_state"],
];

/** Accept headers of callers that are not browsers: an API client, curl, a fuzzer, none at all. */
const NOT_A_BROWSER: (string | undefined)[] = ["application/json", "*/*", "text/plain", undefined];

let client = 0;
function get(path: string, accept: string | undefined): Promise<Response> {
  const from = { "x-forwarded-for": `198.51.100.${++client}` };
  return fetch(`${server.url}${path}`, { redirect: "manual", headers: accept ? { accept, ...from } : from });
}

describe("refusals under /auth: the contract's body unless a browser asks for a page", () => {
  for (const [method, path, status, code] of REFUSED) {
    for (const accept of NOT_A_BROWSER) {
      test(`${method} ${path} with Accept ${accept ?? "(none)"} → ${status} ${code} as JSON`, async () => {
        const res = await get(path, accept);
        expect(res.status).toBe(status);
        expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
        const body = (await res.json()) as { status: number; error: { code: string; message: string } };
        expect(body.status).toBe(status);
        expect(body.error.code).toBe(code);
        expect(body.error.message.length).toBeGreaterThan(10);
      });
    }

    // Media types are case-insensitive (RFC 9110 §8.3.1): `Text/HTML` asks for the page too.
    for (const accept of ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "Text/HTML"]) {
      test(`${method} ${path} from a browser (Accept: ${accept}) → the ${status} page`, async () => {
        const res = await get(path, accept);
        expect(res.status).toBe(status);
        expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(await res.text()).toContain("<h1>");
      });
    }
  }

  test("a refused callback still clears the login cookies, whichever form the answer takes", async () => {
    const res = await get("/auth/callback?code=abc&state=forged", "application/json");
    const cleared = res.headers.getSetCookie().filter((cookie) => cookie.includes("Max-Age=0"));
    expect(cleared.map((cookie) => cookie.split("=")[0])).toEqual([
      "cuebot_oauth_state",
      "cuebot_login_tz",
      "cuebot_login_purpose",
      "cuebot_login_asker",
    ]);
  });
});
