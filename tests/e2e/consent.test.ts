// A consent approved on Twitch's (simulated) page by another account than the streamer's, in a real
// browser: the page that says so, on every screen, and the streamer's session left as it was.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { haveChromium, screenshotEveryScreen, useDemoDashboard, watchPage } from "../helpers/browser.ts";

const demo = useDemoDashboard();

/** Who the browser's session belongs to, as the dashboard asks. */
async function sessionLogin(page: Page): Promise<string | undefined> {
  const res = await page.request.get(`${demo.base}/api/system/validate`);
  return ((await res.json()) as { user?: { login: string } }).user?.login;
}

/** Chat's consent link, approved on the simulated Twitch page as OtherStreamer: the page cuebot answers. */
async function approveAsOther(page: Page): Promise<number> {
  await page.goto(`${demo.base}/auth/login?consent=chat`);
  const answer = page.waitForResponse((r) => r.url().startsWith(`${demo.base}/auth/callback`));
  await page.getByRole("link", { name: "Authorize as OtherStreamer" }).click();
  const status = (await answer).status();
  await page.locator("h1").waitFor();
  return status;
}

describe.skipIf(!haveChromium)("a consent approved by another Twitch account (a real browser)", () => {
  test("a 403 page naming both accounts on every screen (no overflow, axe clean); its button starts the consent again, and approving as the streamer turns chat on", async () => {
    // One login and one round trip each way: /auth allows 15 requests per 5 minutes.
    const page = demo.page;
    expect(await approveAsOther(page)).toBe(403);
    const watch = watchPage(page, demo.base);
    expect(await page.locator("h1").textContent()).toBe("Approved by another Twitch account");
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain("Twitch says OtherStreamer approved");
    expect(text).toContain("log in there as cuebotdemo");
    await screenshotEveryScreen(page, "consent-other-user");
    expect(await sessionLogin(page)).toBe("cuebotdemo");
    expect(watch.problems).toEqual([]);

    await page.getByRole("link", { name: "Try again as CuebotDemo" }).click();
    await page.getByRole("link", { name: "Authorize as CuebotDemo" }).click();
    await page.waitForURL(`${demo.base}/dashboard#/chat`);
    expect(await sessionLogin(page)).toBe("cuebotdemo");
    const chat = await page.request.get(`${demo.base}/api/dashboard/chat`);
    expect(((await chat.json()) as { data: { enabled: boolean } }).data.enabled).toBe(true);
  }, 90_000);
});
