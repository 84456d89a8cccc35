import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listen, type RunningServer } from "../../../server/listen.ts";
import { createTestContext, type TestContext } from "../../helpers/context.ts";
import { rawRequest } from "../../helpers/raw-http.ts";

/** The request log (debug level) as an operator reads it, over real loopback HTTP. */
let t: TestContext;
let server: RunningServer;
beforeAll(async () => {
  t = await createTestContext({
    configure: (c) => {
      c.port = 0;
    },
  });
  server = listen(t.ctx, t.app);
});
afterAll(async () => {
  await server.stop(1000);
  await t.cleanup();
});

interface RequestLine {
  method: string;
  path: string;
  status: number;
  ms: unknown;
}

/** Sends one raw request and returns the status the client got and the request line logged for it. */
async function logged(
  method: string,
  path: string,
  extra = "",
): Promise<{ sent: number; line: RequestLine }> {
  const before = t.logs.length;
  const res = await rawRequest(server.port, [
    `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`,
  ]);
  const lines = t.logs
    .slice(before)
    .map((text) => JSON.parse(text) as RequestLine & { msg: string })
    .filter((entry) => entry.msg === "request");
  expect(lines).toHaveLength(1);
  return { sent: res.status, line: lines[0] as RequestLine };
}

describe("logging changes no answer", () => {
  // First in the file: the first request wrapped must not decide how later routes are answered.
  test("each route answers for itself", async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(await health.json()).toEqual({ status: 200, data: { ok: true } });
    const docs = await fetch(`${server.url}/docs/json`);
    expect(((await docs.json()) as { openapi?: string }).openapi).toBeString();
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe("the request log writes the status actually sent, and how long it took", () => {
  test("an unknown path: 404, with a duration", async () => {
    const { sent, line } = await logged("GET", "/nope");
    expect(sent).toBe(404);
    expect(line).toMatchObject({ method: "GET", path: "/nope", status: 404 });
    expect(typeof line.ms).toBe("number");
  });

  test("a method the path does not have: the status the client got, not 200", async () => {
    const { sent, line } = await logged("DELETE", "/healthz");
    expect(sent).not.toBe(200);
    expect(line.status).toBe(sent);
    expect(typeof line.ms).toBe("number");
  });

  test("a request refused before any route runs (the body limit) is logged too", async () => {
    const { sent, line } = await logged("POST", "/api/dashboard/overlay/state", "Content-Length: 100000\r\n");
    expect(sent).toBe(413);
    expect(line).toMatchObject({ method: "POST", path: "/api/dashboard/overlay/state", status: 413 });
  });

  test("a chunked body refused before any layer runs is logged too", async () => {
    const body = `${(70_000).toString(16)}\r\n${"x".repeat(70_000)}\r\n0\r\n\r\n`;
    const { sent, line } = await logged("POST", "/auth/logout", `Transfer-Encoding: chunked\r\n\r\n${body}`);
    expect(sent).toBe(413);
    expect(line).toMatchObject({ method: "POST", path: "/auth/logout", status: 413 });
  });

  test("a success: 200", async () => {
    const { line } = await logged("GET", "/healthz");
    expect(line).toMatchObject({ path: "/healthz", status: 200 });
    expect(typeof line.ms).toBe("number");
  });
});

describe("paths that look like overlay links never show the token", () => {
  const token = "tok_SECRET_0123456789";
  for (const path of [
    `/overlay/${token}`,
    `/overlay//${token}`,
    `/%6Fverlay/${token}`,
    `/OVERLAY/${token}`,
    `/overlay%2F${token}`,
    `/x/../overlay/${token}`,
    // One malformed escape must not turn the decoding of the others off.
    `/%6Fverlay/${token}%ZZ`,
    `/%6Fverlay/${token}/%`,
    // Parameters in a segment, and escapes however deep (or made by decoding others).
    `/overlay;x/${token}`,
    `/%4Fverlay;v=1/${token}`,
    `/%2525256Fverlay/${token}`,
    `/%25%36%46verlay/${token}`,
  ]) {
    test(path.replace(token, "<token>"), async () => {
      const before = t.logs.length;
      const { line } = await logged("GET", path);
      expect(line.path).toBe("/overlay/[redacted]");
      expect(t.logs.slice(before).join("\n")).not.toContain(token);
    });
  }

  test("other paths are logged as they came", async () => {
    const { line } = await logged("GET", "/api/overlay/state?token=abc");
    expect(line.path).toBe("/api/overlay/state?token=[redacted]");
  });

  test("a credential in the query is redacted however its name is written", async () => {
    for (const [path, shown] of [
      ["/api/followage?apiKey[]=SECRET1&user=a", "/api/followage?apiKey[]=[redacted]&user=a"],
      ["/api/followage?user=a;apiKey=SECRET2", "/api/followage?user=a;apiKey=[redacted]"],
      ["/api/followage;apiKey=SECRET3", "/api/followage;apiKey=[redacted]"],
      ["/api/followage?%2561piKey=SECRET4", "/api/followage?%2561piKey=[redacted]"],
    ] as const) {
      const { line } = await logged("GET", path);
      expect(line.path).toBe(shown);
    }
  });
});
