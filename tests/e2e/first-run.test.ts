// The first run without --demo, in a real browser (CONTRACT §2): the landing page says what to do, the
// setup link's page shows the steps and takes the Twitch application's credentials, and the owner then
// logs in (against the Twitch simulator) to a dashboard where they are Partner, with no restart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { startTwitchSimulator, type TwitchSimulator } from "../../server/sim/twitch/server.ts";
import { haveChromium, launchChromium, screenshotEveryScreen, watchPage } from "../helpers/browser.ts";
import { Scratch, type ServeProcess } from "../helpers/cli.ts";

const scratch = new Scratch();
let sim: TwitchSimulator;
let server: ServeProcess;
let browser: Browser;
/** The setup link as serve printed it, and the public URL it starts with. */
let link: string;
let base: string;

beforeAll(async () => {
  if (!haveChromium) return;
  sim = startTwitchSimulator({});
  const cwd = scratch.dir("cuebot-first-run-");
  [server, browser] = await Promise.all([
    scratch.serve(["serve", "--port", "0", "--data-dir", join(cwd, "data")], {
      cwd,
      env: {
        CUEBOT_TWITCH_AUTH_URL: sim.authUrl,
        CUEBOT_TWITCH_API_URL: sim.helixUrl,
        CUEBOT_TWITCH_EVENTSUB_URL: sim.eventsubUrl,
        CUEBOT_LOG_FORMAT: "json",
      },
    }),
    launchChromium(),
  ]);
  link = /"msg":"(http:\/\/localhost:\d+\/setup\?token=[A-Za-z0-9_-]{43})"/.exec(server.stdout())![1]!;
  base = new URL(link).origin;
}, 40_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await sim?.stop();
  await scratch.cleanup();
});

describe.skipIf(!haveChromium)("the first run in a real browser", () => {
  test("before setup: the 503 of Log in and a wrong link's 403 are readable pages, axe clean, without the token", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const token = new URL(link).searchParams.get("token")!;

    const login = await page.goto(`${base}/auth/login`);
    expect(login?.status()).toBe(503);
    const said = (await page.locator("main").textContent()) ?? "";
    for (const words of ["npm run cuebot -- init", "setup link", "npm start -- --demo"])
      expect(said).toContain(words);
    // Each command in a box of its own, so a phone does not break it mid-flag.
    expect(await page.locator("code.line").allTextContents()).toEqual([
      "npm run cuebot -- init --twitch-client-id <id> --twitch-client-secret <secret>",
      "npm start -- --demo",
    ]);
    expect(await page.content()).not.toContain(token);
    await screenshotEveryScreen(page, "first-run-login-not-configured");

    const wrong = await page.goto(`${base}/setup?token=${token.slice(0, -2)}xx`);
    expect(wrong?.status()).toBe(403);
    expect(await page.locator("form").count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    await screenshotEveryScreen(page, "first-run-setup-forbidden");
    await context.close();
  }, 60_000);

  test("landing page → setup link → form (a mistake, then right) → login → dashboard as Partner", async () => {
    const context = await browser.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const page = await context.newPage();
    const watch = watchPage(page, base);

    // Nobody can log in yet: no dead button, but what to do instead.
    await page.goto(`${base}/`);
    expect(await page.locator("#login").count()).toBe(0);
    const notice = (await page.locator("#not-configured").textContent()) ?? "";
    expect(notice).toContain("setup link");
    expect(notice).toContain(
      "npm run cuebot -- init --twitch-client-id <id> --twitch-client-secret <secret>",
    );
    expect(notice).toContain("npm start -- --demo");
    expect(notice).not.toContain("`");
    expect(await page.getByRole("link", { name: "Open the dashboard" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "API documentation" }).isVisible()).toBe(true);
    await screenshotEveryScreen(page, "first-run-landing");

    // The setup page: the exact redirect URL (copied by its button), Twitch's console, the form.
    await page.goto(link);
    expect(await page.locator("h1").textContent()).toBe("Connect cuebot to Twitch");
    expect(await page.locator("#redirect-url").textContent()).toBe(`${base}/auth/callback`);
    await page.getByRole("button", { name: "Copy the redirect URL" }).click();
    await page.getByText("Copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/auth/callback`);
    const consoleLink = page.getByRole("link", { name: "Twitch's developer console" });
    expect(await consoleLink.getAttribute("href")).toBe("https://dev.twitch.tv/console/apps/create");
    await screenshotEveryScreen(page, "first-run-setup");
    expect(watch.problems).toEqual([]);

    // A mistake is shown beside its field and nothing is saved; the link still works.
    await page.getByLabel("Client ID").fill(sim.client.id);
    await page.getByLabel("Client Secret").fill(sim.client.secret);
    await page.getByLabel("Your Twitch login (optional)").fill("not a login");
    await page.getByRole("button", { name: "Save and connect" }).click();
    await page.locator("#owner-error").waitFor();
    expect(await page.getByLabel("Your Twitch login (optional)").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Client ID").inputValue()).toBe(sim.client.id);
    expect(await page.getByLabel("Client Secret").inputValue()).toBe("");
    await screenshotEveryScreen(page, "first-run-setup-error");

    await page.getByLabel("Client Secret").fill(sim.client.secret);
    await page.getByLabel("Your Twitch login (optional)").fill("@CuebotDemo");
    await page.getByRole("button", { name: "Save and connect" }).click();
    await page.waitForURL(`${base}/`);

    // No restart: login works at once, and the owner's account is Partner.
    await page.click("#login");
    await page.getByRole("link", { name: "Authorize as CuebotDemo" }).click();
    await page.waitForURL(`${base}/dashboard`);
    const profile = await page.request.get(`${base}/api/dashboard/profile`);
    expect(((await profile.json()) as { data: { role: string } }).data.role).toBe("Partner");
    // Partner's bot limit, with no role or plan named on a one-streamer install.
    await page.getByText("120 a minute").first().waitFor();
    expect(await page.locator("#profile-who").textContent()).toBe("@cuebotdemo");

    // The link is spent.
    const spent = await page.goto(link);
    expect(spent?.status()).toBe(403);
    expect(await page.locator("form").count()).toBe(0);
    // From here on the 400, Twitch's (simulated) pages and the spent link's 403 were expected.
    expect(watch.problems.filter((problem) => problem.startsWith("page error"))).toEqual([]);
    await context.close();
  }, 120_000);
});
