import { afterEach, describe, expect, test } from "bun:test";
import { listen, type RunningServer } from "../../server/listen.ts";
import { createTestContext, type TestContext } from "../helpers/context.ts";

let t: TestContext | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await t?.cleanup();
  t = undefined;
});

describe("the runtime's public address", () => {
  test("port 0: the public URL names the port bound, and the CSRF check compares against it", async () => {
    t = await createTestContext({
      configure: (config) => {
        config.port = 0;
      },
    });
    expect(t.ctx.publicUrl).toBe("http://localhost:0");
    server = listen(t.ctx, t.app);
    expect(t.ctx.publicUrl).toBe(`http://localhost:${server.port}`);
    // A copy of the context (as a transaction's `{...ctx, db: tx}`) reads the same address.
    expect({ ...t.ctx }.publicUrl).toBe(t.ctx.publicUrl);

    const put = (origin: string) =>
      fetch(`${server?.url}/api/dashboard/chat`, {
        method: "PUT",
        headers: { cookie: "app_sess=x", origin, "content-type": "application/json" },
        body: "{}",
      });
    expect((await put("http://localhost:0")).status).toBe(403);
    // Past the CSRF check: refused only for want of a real session.
    expect((await put(t.ctx.publicUrl)).status).toBe(401);
  });
});
