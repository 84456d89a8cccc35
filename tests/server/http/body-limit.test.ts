import { afterEach, describe, expect, test } from "bun:test";
import { listen, type RunningServer } from "../../../server/listen.ts";
import { createTestContext, type TestContext } from "../../helpers/context.ts";
import { LAST_CHUNK, type RawResponse, rawRequest } from "../../helpers/raw-http.ts";
import { type IdentityHarness, startIdentityHarness } from "../../helpers/twitch.ts";

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
  return chunkedRequest(port, `POST ${path}`, `Content-Type: application/json\r\n${headers}`, text);
}

/** `text` sent as UTF-8 in chunks of at most 10,000 characters, on a raw socket. */
function chunkedRequest(port: number, requestLine: string, headers: string, text: string) {
  const pieces = text.match(/[\s\S]{1,10000}/g) ?? [];
  // rawRequest writes latin1: each piece goes as its UTF-8 bytes, announced by their count.
  const utf8 = (piece: string) => Buffer.from(piece, "utf8").toString("latin1");
  return rawRequest(port, [
    `${requestLine} HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n${headers}\r\n`,
    ...pieces.map((piece) => `${Buffer.byteLength(piece).toString(16)}\r\n${utf8(piece)}\r\n`),
    LAST_CHUNK,
  ]);
}

/** The client's view of a refused chunked body: the contract's 413, and the connection closed. */
function expectRefused(res: RawResponse, message = TOO_LARGE.error.message): void {
  expect(res.status).toBe(413);
  expect(JSON.parse(res.body)).toEqual({ status: 413, error: { code: "payload_too_large", message } });
  expect(res.headers.get("connection")).toBe("close");
  expect(res.closed).toBe(true);
}

/** A listening server with a streamer logged in: the cookie, and the raw headers a panel write needs. */
async function listeningLoggedIn() {
  h = await startIdentityHarness({
    configure: (c) => {
      c.port = 0;
    },
  });
  const running = listen(h.ctx, h.app);
  server = running;
  const { cookie } = await h.login("cuebotdemo");
  return { server: running, cookie, headers: `Cookie: ${cookie}\r\nOrigin: ${h.origin}\r\n` };
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
    const { server, cookie, headers } = await listeningLoggedIn();
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
    const res = await fetch(`${server.url}/api/dashboard/overlay/state`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(TOO_LARGE);
    expect(sent).toBeLessThan(64);
  });
});

/**
 * A chunked body is read (up to the cap) before any route runs, so the cap holds on routes that
 * never look at the body, on GET and HEAD, and whatever the content type.
 */
describe("a chunked body is capped whatever the route does with it", () => {
  test("a 400 KB chunked POST to a route that reads no body (reveal-key) → 413, the key is not shown", async () => {
    const { server, headers } = await listeningLoggedIn();
    const res = await chunkedRequest(
      server.port,
      "POST /api/dashboard/security/reveal-key",
      headers,
      "x".repeat(400_000),
    );
    expectRefused(res);
    expect(res.body).not.toContain("apiKey");
  });

  test("a 400 KB chunked GET /healthz → 413 (Bun hands no GET body over, so none sent chunked is taken)", async () => {
    const { port } = await listening();
    const res = await chunkedRequest(port, "GET /healthz", "", "x".repeat(400_000));
    expectRefused(res, "A GET or HEAD request cannot carry a body sent without Content-Length.");
    const small = await chunkedRequest(port, "HEAD /healthz", "", "x");
    expect(small.status).toBe(413);
    expect(small.closed).toBe(true);
  });

  test("a 100 KB chunked body of a type no parser knows (application/vnd.foo+json) → 413, not 400", async () => {
    const { port } = await listening();
    const headers = `Content-Type: application/vnd.foo+json\r\nCookie: app_sess=x\r\nOrigin: ${t?.ctx.publicUrl}\r\n`;
    const text = JSON.stringify({ state: { text: "x".repeat(100_000) } });
    expectRefused(await chunkedRequest(port, "POST /api/dashboard/overlay/state", headers, text));
  });

  test("a chunked body of exactly 64 KiB (65,536 bytes) passes; 65,537 bytes → 413", async () => {
    const { port } = await listening();
    const at = await chunkedRequest(port, "POST /auth/logout", "", "x".repeat(65_536));
    expect(at.status).toBe(200);
    expect(at.closed).toBe(false);
    expectRefused(await chunkedRequest(port, "POST /auth/logout", "", "x".repeat(65_537)));
  });

  test("bytes are counted, not characters: 32,768 two-byte letters pass, 32,769 → 413", async () => {
    const { port } = await listening();
    const at = await chunkedRequest(port, "POST /auth/logout", "", "é".repeat(32_768));
    expect(at.status).toBe(200);
    expectRefused(await chunkedRequest(port, "POST /auth/logout", "", "é".repeat(32_769)));
  });

  test("a streamed upload to a route that reads no body (POST /auth/logout) is cut off with 413", async () => {
    const { url } = await listening();
    const piece = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Up to 300 MB, as long as the server keeps reading.
        if (sent++ >= 4800) controller.close();
        else controller.enqueue(piece);
      },
    });
    const res = await fetch(`${url}/auth/logout`, { method: "POST", body });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(TOO_LARGE);
    expect(sent).toBeLessThan(64);
  });
});

/**
 * What Bun's own HTTP parser refuses before any cuebot code runs: the status comes with an empty body
 * (and the connection closes), so the contract's error body cannot be given. docs/limits.md lists these;
 * this keeps the list true when Bun changes.
 */
describe("requests Bun refuses before cuebot sees them (docs/limits.md)", () => {
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
    [
      "a malformed chunk size (in a body no route reads)",
      "POST /auth/logout HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n",
      400,
    ],
    ["no Host header", "GET /healthz HTTP/1.1\r\n\r\n", 400],
    ["a request line that is not HTTP", "HELLO\r\n\r\n", 400],
    ["an unknown HTTP version", "GET /healthz HTTP/9.9\r\nHost: localhost\r\n\r\n", 505],
    [
      "a body announced over 2 MiB (Bun's ceiling)",
      "POST /api/dashboard/overlay/state HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2097153\r\n\r\n",
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
