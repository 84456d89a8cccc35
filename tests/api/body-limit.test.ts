import { afterEach, describe, expect, test } from "bun:test";
import { listen, type RunningServer } from "../../server/listen.ts";
import { createTestContext, type TestContext } from "../helpers/context.ts";

let t: TestContext | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop(1000);
  server = undefined;
  await t?.cleanup();
});

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
    expect(await res.json()).toEqual({
      status: 413,
      error: { code: "payload_too_large", message: "Request bodies may be at most 64 KiB." },
    });
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
