// The Allow for a Twitch permission beyond the login's (issue 36), in a real browser: the shoutout's
// and the roulette's cards offer it while it is missing, Twitch's own shoutout shows as off until then,
// and approving on the (simulated) Twitch page brings the streamer back with it granted. Also the
// Overview of a one-streamer install: no role or plan, the limits plainly.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
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
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  if (!haveChromium) return;
  [server, browser] = await Promise.all([startDemoServer(), launchChromium()]);
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await logIn(context, server.base);
}, 40_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function openCommands(): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${server.base}/dashboard#/commands`);
  await page.locator("#command-shoutout textarea").waitFor();
}

/** Every screen: no sideways scrolling, axe clean, a screenshot of `what`. */
async function onEveryScreen(what: string, shoot: (path: string) => Promise<unknown>): Promise<void> {
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
    await shoot(screenshotPath(`${what}-${screen.name}`));
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
}

describe.skipIf(!haveChromium)("Allow for Twitch's shoutout and the moderator list (serve --demo)", () => {
  test("the Overview of a one-streamer install names no role or plan", async () => {
    await page.goto(`${server.base}/dashboard#/overview`);
    const who = page.locator("#profile-who");
    await who.waitFor();
    expect(await who.textContent()).toBe("@cuebotdemo");
    const profile = (await page.locator("section.card:has(h2:text('Profile'))").textContent()) ?? "";
    expect(profile).not.toMatch(/plan|role|Default/i);
    expect(profile).toContain("Bot commands30 a minute");
    await onEveryScreen("overview-profile", (path) =>
      page.locator("section.card:has(h2:text('Profile'))").screenshot({ path }),
    );
  }, 60_000);

  test("before: the shoutout option shows off with its Allow, the roulette its own; after approving, both Allows are gone and the option is on", async () => {
    const watch = watchPage(page, server.base);
    await openCommands();
    const platform = page.locator('#command-shoutout label.check:has-text("Twitch\'s own shoutout") input');
    expect(await platform.isChecked()).toBe(false);
    expect(await platform.isDisabled()).toBe(true);
    const allow = page.getByRole("link", { name: "Allow Twitch's shoutout" });
    expect(await allow.getAttribute("href")).toBe("/auth/login?consent=shoutout");
    expect(await page.locator("#moderators-consent a").getAttribute("href")).toBe(
      "/auth/login?consent=moderators",
    );
    await onEveryScreen("commands-shoutout-allow", (path) =>
      page.locator("#command-shoutout").screenshot({ path }),
    );
    await onEveryScreen("commands-roulette-allow", (path) =>
      page.locator("#command-roulette").screenshot({ path }),
    );

    await allow.click();
    await page.getByRole("link", { name: "Authorize as CuebotDemo" }).click();
    await page.waitForURL(`${server.base}/dashboard#/commands`);
    await page.locator("#command-shoutout textarea").waitFor();
    expect(await page.locator("#shoutout-consent").count()).toBe(0);
    expect(await platform.isChecked()).toBe(true);
    expect(await platform.isDisabled()).toBe(false);
    // The moderator list was not asked for: its Allow stays.
    expect(await page.locator("#moderators-consent").count()).toBe(1);

    await page.getByRole("link", { name: "Allow listing moderators" }).click();
    await page.getByRole("link", { name: "Authorize as CuebotDemo" }).click();
    await page.waitForURL(`${server.base}/dashboard#/commands`);
    await page.locator("#command-roulette input").first().waitFor();
    expect(await page.locator("#moderators-consent, #shoutout-consent").count()).toBe(0);
    await onEveryScreen("commands-shoutout-allowed", (path) =>
      page.locator("#command-shoutout").screenshot({ path }),
    );
    const granted = await page.request.get(`${server.base}/api/dashboard/profile`);
    expect(((await granted.json()) as { data: { features: unknown } }).data.features).toEqual({
      platform_shoutout: true,
      moderator_list: true,
    });
    // The visits to Twitch's (simulated) consent page are the round trip itself.
    expect(watch.problems.filter((problem) => !problem.includes("/oauth2/authorize?"))).toEqual([]);
  }, 90_000);

  test("the import dialog's steps to get the Nightbot list, on every screen", async () => {
    await page.goto("about:blank");
    await page.goto(`${server.base}/dashboard#/custom-commands`);
    await page.click("#cc-import");
    const dialog = page.locator("dialog[open]");
    await dialog.locator(".cc-import-steps").waitFor();
    expect(await dialog.locator(".cc-import-steps").textContent()).toContain(
      "Select the table from “Command” down to its last row",
    );
    await onEveryScreen("custom-commands-import-steps", (path) => page.screenshot({ path }));
  }, 60_000);
});
