import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestContext, type TestContext } from "../../helpers/context.ts";

let t: TestContext;
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(() => t.cleanup());

describe("health and errors", () => {
  test("GET /healthz answers ok", async () => {
    const res = await t.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 200, data: { ok: true } });
  });

  test("an unknown route is a JSON 404 in the contract's shape", async () => {
    const res = await t.request("/no/such/thing");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({
      status: 404,
      error: { code: "not_found", message: "There is nothing at this address." },
    });
  });

  test("every response carries the security headers", async () => {
    const res = await t.request("/healthz");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  });
});
