import { afterEach, describe, expect, test } from "bun:test";
import { startBotHarness } from "../../helpers/bot.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";

let t: TestContext | undefined;
afterEach(() => t?.cleanup());

describe("the pages and their assets", () => {
  test("the dashboard script is our TypeScript views bundled for the browser, served from our origin", async () => {
    t = await createTestContext();
    const page = await t.request("/dashboard");
    const html = await page.text();
    expect(html).toContain('<script src="/assets/dashboard.js" type="module">');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await t.request("/assets/dashboard.js");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const code = await script.text();
    // Bundled: no module imports left for the browser to fetch, and the views are in it.
    // (An import statement or call, not a word such as the id "cc-import" followed by its quote.)
    expect(code).not.toMatch(/(?<![\w$.-])import\s*[{"'*(]/);
    for (const title of [
      "Overview",
      "Commands",
      "Custom commands",
      "Timers & quotes",
      "Bot setup",
      "Overlays",
      "Security",
    ])
      expect(code).toContain(title);
  });

  test("/favicon.ico and the page icon are served (no 404 in every browser tab)", async () => {
    t = await createTestContext();
    for (const path of ["/favicon.ico", "/assets/favicon.svg"]) {
      const res = await t.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml");
      expect(await res.text()).toStartWith("<svg");
    }
  });

  test("demo mode puts its banner on the landing page and the dashboard; a normal server does not", async () => {
    t = await createTestContext({ configure: (config) => (config.demo = true) });
    for (const path of ["/", "/dashboard"]) {
      expect(await (await t.request(path)).text()).toContain(
        "simulated Twitch and game provider, nothing is sent anywhere",
      );
    }
    await t.cleanup();
    t = await createTestContext();
    expect(await (await t.request("/")).text()).not.toContain("demo-banner");
  });

  test("the overlay page may be framed by the dashboard's own preview, by no other site", async () => {
    t = await createTestContext({ configure: (config) => (config.demo = true) });
    const { overlayToken } = await createTestAccount(t.ctx);
    const overlay = await t.request(`/overlay/${overlayToken}`);
    expect(overlay.status).toBe(200);
    expect(overlay.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    expect(overlay.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    expect(overlay.headers.get("referrer-policy")).toBe("no-referrer");
    // OBS shows this page: never the demo banner on stream.
    expect(await overlay.text()).not.toContain("demo-banner");
    const dashboard = await t.request("/dashboard");
    expect(dashboard.headers.get("x-frame-options")).toBe("DENY");
    expect(dashboard.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("what the dashboard needs from the profile", () => {
  test("the public URL (bot lines, overlay links) and whether this is the demo", async () => {
    const h = await startBotHarness({ publicUrl: "https://bot.example.com" });
    try {
      const profile = (await (await h.panel("/api/dashboard/profile")).json()) as {
        data: { public_url: string; demo: boolean };
      };
      expect(profile.data).toMatchObject({ public_url: "https://bot.example.com", demo: false });
    } finally {
      await h.stop();
    }
  });
});
