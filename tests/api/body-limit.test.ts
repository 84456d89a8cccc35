import { afterEach, describe, expect, test } from "bun:test";
import { listen, type RunningServer } from "../../server/listen.ts";
import { createTestContext, type TestContext } from "../helpers/context.ts";
import { chunk, LAST_CHUNK, rawRequest } from "../helpers/raw-http.ts";
import { type IdentityHarness, startIdentityHarness } from "../helpers/twitch.ts";

let t: TestContext | undefined;
let h: IdentityHarness | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop(1000);
  server = undefined;
  await t?.cleanup();
  await h?.stop();
  t = h = undefined;
});

const TOO_LARGE = {
  status: 413,
  error: { code: "payload_too_large", message: "Request bodies may be at most 64 KiB." },
};

async function listening(): Promise<RunningServer> {
  t = await createTestContext({
    configure: (c) => {
      c.port = 0;
    },
  });
  server = listen(t.ctx, t.app);
  return server;
}

/** A chunked POST of `total` bytes of JSON in 10 KB chunks, on a raw socket. */
function chunkedPost(port: number, path: string, headers: string, total: number) {
  const text = JSON.stringify({ state: { text: "x".repeat(total) } });
  const pieces = text.match(/[\s\S]{1,10000}/g) ?? [];
  return rawRequest(port, [
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${headers}\r\n`,
    ...pieces.map(chunk),
    LAST_CHUNK,
  ]);
}

describe("request bodies are capped before anything parses them", () => {
  test("a body announced larger than 64 KiB → 413 payload_too_large, before authentication", async () => {
    t = await createTestContext({
      configure: (c) => {
        c.port = 0;
      },
    });
    server = listen(t.ctx, t.app);
    const res = await fetch(`${server.url}/api/dashboard/overlay/state`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "app_sess=x", origin: t.ctx.publicUrl },
      body: JSON.stringify({ state: { text: "x".repeat(200_000) } }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(TOO_LARGE);
  });

  test("a body announced larger than 64 KiB is refused on a GET too", async () => {
    const { port } = await listening();
    const res = await rawRequest(port, [
      "GET /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: 70000\r\n\r\n",
    ]);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual(TOO_LARGE);
  });

  test("a 200 KB chunked body is counted as it arrives: 413 payload_too_large, and the connection closes", async () => {
    const { port } = await listening();
    const headers = `Cookie: app_sess=x\r\nOrigin: ${t?.ctx.publicUrl}\r\n`;
    const res = await chunkedPost(port, "/api/dashboard/overlay/state", headers, 200_000);
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(JSON.parse(res.body)).toEqual(TOO_LARGE);
    expect(res.closed).toBe(true);
  });

  test("a chunked body just over 64 KiB is refused, one under it is read and used", async () => {
    h = await startIdentityHarness({
      configure: (c) => {
        c.port = 0;
      },
    });
    server = listen(h.ctx, h.app);
    const { cookie } = await h.login("cuebotdemo");
    const headers = `Cookie: ${cookie}\r\nOrigin: ${h.origin}\r\n`;
    const over = await chunkedPost(server.port, "/api/dashboard/overlay/state", headers, 64 * 1024);
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toEqual(TOO_LARGE);
    const under = await chunkedPost(server.port, "/api/dashboard/overlay/state", headers, 12_000);
    expect(under.status).toBe(200);
    const read = await fetch(`${server.url}/api/dashboard/overlay`, { headers: { cookie } });
    expect(await read.text()).toContain(`"text":"${"x".repeat(12_000)}"`);
  });

  test("a streamed body without a length is cut off by the server", async () => {
    t = await createTestContext({
      configure: (c) => {
        c.port = 0;
      },
    });
    server = listen(t.ctx, t.app);
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ >= 64) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const outcome = await fetch(`${server.url}/api/dashboard/overlay/state`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }).then(
      (res) => res.status,
      () => "connection closed",
    );
    expect([413, "connection closed"]).toContain(outcome);
    expect(sent).toBeLessThan(64);
  });
});

/**
 * What Bun's own HTTP parser refuses before any cuebot code runs: the status comes with an empty body
 * (and the connection closes), so the contract's error body cannot be given. README lists these; this
 * keeps the list true when Bun changes.
 */
describe("requests Bun refuses before cuebot sees them (README, Limits)", () => {
  const refusals: [string, string, number][] = [
    [
      "a ~70 KB URL (over Bun's 16 KiB for the request line and headers)",
      `GET /api/followage?user=${"a".repeat(70_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      431,
    ],
    [
      "headers over Bun's limit",
      `GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(70_000)}\r\n\r\n`,
      431,
    ],
    [
      "Content-Length: abc",
      "POST /auth/logout HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n",
      400,
    ],
    [
      "two different Content-Length headers",
      "POST /auth/logout HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
      400,
    ],
    [
      "Content-Length beside Transfer-Encoding",
      "POST /auth/logout HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      400,
    ],
    [
      "a Transfer-Encoding other than chunked",
      "POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n",
      400,
    ],
    [
      "a malformed chunk size (in a body a route reads)",
      "POST /api/dashboard/overlay/state HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n",
      400,
    ],
    ["no Host header", "GET /healthz HTTP/1.1\r\n\r\n", 400],
    ["a request line that is not HTTP", "HELLO\r\n\r\n", 400],
    ["an unknown HTTP version", "GET /healthz HTTP/9.9\r\nHost: localhost\r\n\r\n", 505],
    [
      "a body announced over 256 KiB (Bun's ceiling)",
      "POST /api/dashboard/overlay/state HTTP/1.1\r\nHost: localhost\r\nContent-Length: 300000\r\n\r\n",
      413,
    ],
  ];
  for (const [what, request, status] of refusals) {
    test(`${what} → ${status} with an empty body`, async () => {
      const { port } = await listening();
      const res = await rawRequest(port, [request]);
      expect(res.status).toBe(status);
      expect(res.body).toBe("");
    });
  }
});
