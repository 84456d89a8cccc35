import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import {
  axeViolations,
  type DemoServer,
  haveChromium,
  horizontalOverflow,
  launchChromium,
  logIn,
  screenshotPath,
  startDemoServer,
  watchPage,
} from "../helpers/browser.ts";

let server: DemoServer;
let browser: Browser;

beforeAll(async () => {
  if (!haveChromium) return;
  [server, browser] = await Promise.all([startDemoServer(), launchChromium()]);
}, 40_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function waitText(page: Page, selector: string, matches: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 15_000;
  let text = "";
  while (Date.now() < deadline) {
    text =
      (await page
        .locator(selector)
        .first()
        .textContent()
        .catch(() => "")) ?? "";
    if (matches(text)) return text;
    await Bun.sleep(50);
  }
  throw new Error(`${selector} never matched; last text: ${JSON.stringify(text)}`);
}

describe.skipIf(!haveChromium)("native chat in demo mode (a real browser)", () => {
  test("turn it on, allow it on Twitch's page, type !followage in the simulated chat, and see cuebot's reply", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await logIn(context, server.base);
      await page.goto(`${server.base}/dashboard#/chat`);
      expect(await waitText(page, "#chat-state", (t) => t.length > 0)).toBe("Off");

      await page.click("#chat-enabled");
      expect(await waitText(page, "#chat-state", (t) => t !== "Off")).toBe("Needs your permission");
      expect(await page.locator("#chat-reason").textContent()).toContain("user:read:chat");

      // Twitch's (simulated) consent page lists the chat scope; the streamer approves.
      await page.click("#chat-consent");
      expect(await page.locator("body").textContent()).toContain("user:read:chat");
      await page.click("a.approve >> nth=0");
      await page.waitForURL(`${server.base}/dashboard#/chat`);
      // From here on, every request stays on this server.
      const watch = watchPage(page, server.base);
      expect(await waitText(page, "#chat-state", (t) => t === "Connected")).toBe("Connected");

      await page.fill("#demo-chat-text", "!followage");
      await page.click("#demo-chat-send");
      const reply = await waitText(page, "#demo-chat-log li.from-cuebot", (t) => t.length > 0);
      expect(reply).toContain("CuebotDemo");
      expect(reply).toMatch(/\d+ (years?|months?|days?)/);
      expect(await page.locator("#demo-chat-log li").first().textContent()).toContain("!followage");

      // An alias saved on this page works from chat at once.
      await page.fill("#aliases-coinflip", "flip, toss");
      await page.locator("#aliases-coinflip ~ button").click();
      await waitText(page, "#aliases-coinflip-status", (t) => t === "Saved.");
      await page.fill("#demo-chat-text", "!toss");
      await page.click("#demo-chat-send");
      await waitText(page, "#demo-chat-log", (t) => /flipped (Heads|Tails)/.test(t));

      expect(await horizontalOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath("chat-1280"), fullPage: true });
      await page.setViewportSize({ width: 360, height: 740 });
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await page.locator("#demo-chat-log").textContent()).toContain("!toss");
      await page.locator("#demo-chat-log").screenshot({ path: screenshotPath("chat-log-360") });
      await page.screenshot({ path: screenshotPath("chat-360"), fullPage: true });
      await page.emulateMedia({ colorScheme: "dark" });
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath("chat-360-dark"), fullPage: true });
      expect(watch.problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);
});
