// The Allow for a Twitch permission beyond the login's (issue 36), in a real browser: the shoutout's
// and the roulette's cards offer it while it is missing, Twitch's own shoutout shows as off until then,
// and approving on the (simulated) Twitch page brings the streamer back with it granted. Also the
// Overview of a one-streamer install: no role or plan, the limits plainly.
import { describe, expect, test } from "bun:test";
import { haveChromium, screenshotEveryScreen, useDemoDashboard, watchPage } from "../helpers/browser.ts";

const demo = useDemoDashboard();

async function openCommands(): Promise<void> {
  await demo.page.goto("about:blank");
  await demo.page.goto(`${demo.base}/dashboard#/commands`);
  await demo.page.locator("#command-shoutout textarea").waitFor();
}

describe.skipIf(!haveChromium)("Allow for Twitch's shoutout and the moderator list (serve --demo)", () => {
  test("the Overview of a one-streamer install names no role or plan", async () => {
    await demo.page.goto(`${demo.base}/dashboard#/overview`);
    const who = demo.page.locator("#profile-who");
    await who.waitFor();
    expect(await who.textContent()).toBe("@cuebotdemo");
    const profile = (await demo.page.locator("section.card:has(h2:text('Profile'))").textContent()) ?? "";
    expect(profile).not.toMatch(/plan|role|Default/i);
    expect(profile).toContain("Bot commands30 a minute");
    await screenshotEveryScreen(
      demo.page,
      "overview-profile",
      demo.page.locator("section.card:has(h2:text('Profile'))"),
    );
  }, 60_000);

  test("before: the shoutout option shows off with its Allow, the roulette its own; after approving, both Allows are gone and the option is on", async () => {
    const watch = watchPage(demo.page, demo.base);
    await openCommands();
    const platform = demo.page.locator(
      '#command-shoutout label.check:has-text("Twitch\'s own shoutout") input',
    );
    expect(await platform.isChecked()).toBe(false);
    expect(await platform.isDisabled()).toBe(true);
    const allow = demo.page.getByRole("link", { name: "Allow Twitch's shoutout" });
    expect(await allow.getAttribute("href")).toBe("/auth/login?consent=shoutout");
    expect(await demo.page.locator("#moderators-consent a").getAttribute("href")).toBe(
      "/auth/login?consent=moderators",
    );
    await screenshotEveryScreen(demo.page, "commands-shoutout-allow", demo.page.locator("#command-shoutout"));
    await screenshotEveryScreen(demo.page, "commands-roulette-allow", demo.page.locator("#command-roulette"));

    await allow.click();
    await demo.page.getByRole("link", { name: "Authorize as CuebotDemo" }).click();
    await demo.page.waitForURL(`${demo.base}/dashboard#/commands`);
    await demo.page.locator("#command-shoutout textarea").waitFor();
    expect(await demo.page.locator("#shoutout-consent").count()).toBe(0);
    expect(await platform.isChecked()).toBe(true);
    expect(await platform.isDisabled()).toBe(false);
    // The moderator list was not asked for: its Allow stays.
    expect(await demo.page.locator("#moderators-consent").count()).toBe(1);

    await demo.page.getByRole("link", { name: "Allow listing moderators" }).click();
    await demo.page.getByRole("link", { name: "Authorize as CuebotDemo" }).click();
    await demo.page.waitForURL(`${demo.base}/dashboard#/commands`);
    await demo.page.locator("#command-roulette input").first().waitFor();
    expect(await demo.page.locator("#moderators-consent, #shoutout-consent").count()).toBe(0);
    await screenshotEveryScreen(
      demo.page,
      "commands-shoutout-allowed",
      demo.page.locator("#command-shoutout"),
    );
    const granted = await demo.page.request.get(`${demo.base}/api/dashboard/profile`);
    expect(((await granted.json()) as { data: { features: unknown } }).data.features).toEqual({
      platform_shoutout: true,
      moderator_list: true,
    });
    // The visits to Twitch's (simulated) consent page are the round trip itself.
    expect(watch.problems.filter((problem) => !problem.includes("/oauth2/authorize?"))).toEqual([]);
  }, 90_000);

  test("the import dialog's steps to get the Nightbot list, on every screen", async () => {
    await demo.page.goto("about:blank");
    await demo.page.goto(`${demo.base}/dashboard#/custom-commands`);
    await demo.page.click("#cc-import");
    const dialog = demo.page.locator("dialog[open]");
    await dialog.locator(".cc-import-steps").waitFor();
    expect(await dialog.locator(".cc-import-steps").textContent()).toContain(
      "Select the table from “Command” down to its last row",
    );
    await screenshotEveryScreen(demo.page, "custom-commands-import-steps", "viewport");
  }, 60_000);
});
