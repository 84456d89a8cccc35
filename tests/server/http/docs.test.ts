import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestContext, type TestContext } from "../../helpers/context.ts";

let t: TestContext;
beforeEach(async () => {
  t = await createTestContext();
});
afterEach(() => t.cleanup());

describe("public pages", () => {
  test("/docs serves the API documentation UI with its assets from our own origin", async () => {
    const page = await t.request("/docs");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("/docs/assets/swagger-ui-bundle.js");
    expect(html).not.toMatch(/https?:\/\/(unpkg|cdn\.jsdelivr)/);
    // No inline script: the page runs under a strict CSP like every other page.
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect((await t.request("/docs/assets/init.js")).status).toBe(200);
    const js = await t.request("/docs/assets/swagger-ui-bundle.js");
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("javascript");
    expect((await t.request("/docs/assets/swagger-ui.css")).status).toBe(200);
  });

  test("/docs/json lists every route with the credentials it takes", async () => {
    const res = await t.request("/docs/json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      paths: Record<string, unknown>;
      components: { securitySchemes: object };
    };
    for (const path of [
      "/healthz",
      "/",
      "/dashboard",
      "/overlay/{token}",
      "/docs",
      "/docs/json",
      "/auth/login",
      "/auth/callback",
      "/auth/logout",
      "/api/system/validate",
      "/api/dashboard/profile",
      "/api/dashboard/custom-commands",
      "/api/dashboard/custom-commands/{name}",
      "/api/dashboard/custom-commands/{name}/count",
      "/api/dashboard/custom-commands/test",
      "/api/dashboard/custom-commands/import",
      "/api/dashboard/quotes",
      "/api/dashboard/quotes/{number}",
      "/api/dashboard/timers",
      "/api/dashboard/timers/{id}",
      "/api/dashboard/regulars",
      "/api/dashboard/regulars/{login}",
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    expect(Object.keys(doc.components.securitySchemes)).toContain("apiKeyHeader");
  });

  test("the landing page and dashboard are served with a strict CSP", async () => {
    for (const path of ["/", "/dashboard"]) {
      const res = await t.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    }
    expect((await t.request("/assets/dashboard.js")).status).toBe(200);
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect((await t.request(`/assets/${name}`)).status).toBe(404);
    }
    const missing = await t.request("/assets/nope.js");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});
