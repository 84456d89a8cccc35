// A consent approved on Twitch's (simulated) page by another account than the streamer's, in a real
// browser: the page that says so, on every screen, and the streamer's session left as it was.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import {
  axeViolations,
  type DemoServer,
  haveChromium,
  horizontalOverflow,
  launchChromium,
  logIn,
  SCREENS,
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

/** Who the browser's session belongs to, as the dashboard asks. */
async function sessionLogin(page: Page): Promise<string | undefined> {
  const res = await page.request.get(`${server.base}/api/system/validate`);
  return ((await res.json()) as { user?: { login: string } }).user?.login;
}

/** Chat's consent link, approved on the simulated Twitch page as OtherStreamer: the page cuebot answers. */
async function approveAsOther(page: Page): Promise<number> {
  await page.goto(`${server.base}/auth/login?consent=chat`);
  const answer = page.waitForResponse((r) => r.url().startsWith(`${server.base}/auth/callback`));
  await page.getByRole("link", { name: "Authorize as OtherStreamer" }).click();
  const status = (await answer).status();
  await page.locator("h1").waitFor();
  return status;
}

describe.skipIf(!haveChromium)("a consent approved by another Twitch account (a real browser)", () => {
  test("a 403 page naming both accounts on every screen (no overflow, axe clean); its button starts the consent again, and approving as the streamer turns chat on", async () => {
    // One login and one round trip each way: /auth allows 15 requests per 5 minutes.
    const context = await browser.newContext();
    try {
      const page = await logIn(context, server.base);
      expect(await approveAsOther(page)).toBe(403);
      const watch = watchPage(page, server.base);
      expect(await page.locator("h1").textContent()).toBe("Approved by another Twitch account");
      const text = (await page.locator("main").textContent()) ?? "";
      expect(text).toContain("Twitch says OtherStreamer approved");
      expect(text).toContain("log in there as cuebotdemo");
      for (const screen of SCREENS) {
        await page.setViewportSize({ width: screen.width, height: screen.height });
        await page.emulateMedia({ colorScheme: screen.colorScheme });
        expect({ screen: screen.name, overflow: await horizontalOverflow(page) }).toEqual({
          screen: screen.name,
          overflow: 0,
        });
        expect({ screen: screen.name, violations: await axeViolations(page) }).toEqual({
          screen: screen.name,
          violations: [],
        });
        await page.screenshot({ path: screenshotPath(`consent-other-user-${screen.name}`), fullPage: true });
      }
      expect(await sessionLogin(page)).toBe("cuebotdemo");
      expect(watch.problems).toEqual([]);

      await page.getByRole("link", { name: "Try again as CuebotDemo" }).click();
      await page.getByRole("link", { name: "Authorize as CuebotDemo" }).click();
      await page.waitForURL(`${server.base}/dashboard#/chat`);
      expect(await sessionLogin(page)).toBe("cuebotdemo");
      const chat = await page.request.get(`${server.base}/api/dashboard/chat`);
      expect(((await chat.json()) as { data: { enabled: boolean } }).data.enabled).toBe(true);
    } finally {
      await context.close();
    }
  }, 90_000);
});
