import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
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

const ROOT = join(import.meta.dir, "..", "..");
let server: DemoServer;
let browser: Browser;
let base = "";
let apiKey = "";

/** Polls the element's text until it matches. */
async function textOf(page: Page, selector: string, matches: (text: string) => boolean): Promise<string> {
  const deadline = Date.now() + 10_000;
  let text = "";
  while (Date.now() < deadline) {
    text = (await page.locator(selector).first().textContent()) ?? "";
    if (matches(text)) return text;
    await Bun.sleep(50);
  }
  throw new Error(`${selector} never matched; last text: ${JSON.stringify(text)}`);
}

async function cli(...args: string[]): Promise<void> {
  const run = Bun.spawn(
    ["bun", join(ROOT, "cli/main.ts"), ...args, "--data-dir", join(server.dataDir, "demo")],
    {
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  if ((await run.exited) !== 0)
    throw new Error(`cuebot ${args.join(" ")}: ${await new Response(run.stderr).text()}`);
}

const bot = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}${path.includes("?") ? "&" : "?"}apiKey=${apiKey}&format=text`, { headers });

beforeAll(async () => {
  if (!haveChromium) return;
  [server, browser] = await Promise.all([startDemoServer(), launchChromium()]);
  base = server.base;
}, 40_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Each view, the element that shows its data has arrived, and the viewports and themes it is checked in. */
const VIEWS = [
  {
    id: "overview",
    ready: ["#usage svg.chart", "#activity-list li", "#live-state .badge", "#top-callers li"],
  },
  { id: "commands", ready: ["#command-shoutout textarea", "#command-magic8 .answers textarea"] },
  { id: "custom-commands", ready: ["#cc-commands .cc-list", "#cc-regulars ul, #cc-regulars .state-empty"] },
  { id: "timers-quotes", ready: ["#timer-count:not(:empty)", "#quote-count:not(:empty)"] },
  { id: "alerts", ready: ["#alerts-state", "#alerts-history ol, #alerts-history .state-empty"] },
  { id: "moderation", ready: ["#moderation-state", "#moderation-log ol, #moderation-log .state-empty"] },
  { id: "bots", ready: [".line-card code.line", "#local-warning"] },
  { id: "overlays", ready: ["#overlay-url", ".preview-frame iframe"] },
  { id: "security", ready: ["#api-key", "#session-login"] },
] as const;

/** A full page load (a goto that only changes the #fragment would not reload anything). */
async function load(page: Page, view: string): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${base}/dashboard#/${view}`);
}

async function openView(page: Page, id: string, ready: readonly string[]): Promise<void> {
  await load(page, id);
  for (const selector of ready) await page.locator(selector).first().waitFor({ state: "attached" });
  await page.locator("[aria-busy=true]").first().waitFor({ state: "detached" });
  expect(await page.locator(".state-loading").count()).toBe(0);
  expect(await page.locator(".state-error").count()).toBe(0);
}

describe.skipIf(!haveChromium)("the dashboard in a real browser (serve --demo)", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await logIn(context, base);
    // A new streamer: the usage chart and the feed say there is nothing yet.
    expect(await textOf(page, "#usage", (t) => t !== "Loading…")).toBe(
      "No command calls in this period yet.",
    );
    expect(await textOf(page, "#top-callers", (t) => t !== "Loading…")).toBe(
      "Nobody has called a command in this period.",
    );
    const revealed = await page.request.post(`${base}/api/dashboard/security/reveal-key`, {
      headers: { origin: base },
    });
    apiKey = ((await revealed.json()) as { data: { apiKey: string } }).data.apiKey;
    // Some chat activity for the charts and feeds, as Nightbot would send it.
    for (const viewer of ["viewer_anna", "viewer_anna", "modbob", "subdave"]) {
      const headers = { "Nightbot-User": `name=${viewer}&displayName=${viewer}&provider=twitch` };
      await bot("/api/bot/coinflip", headers);
      await bot("/api/bot/dice?sides=20", headers);
    }
    await bot("/api/bot/magic8?question=ready", { "Nightbot-User": "name=lurker_eve" });
    // The login above cached an empty analytics answer (60 s for the Default role); a change made
    // with the CLI flushes the caches, as it does for a streamer's running server.
    await cli("role", "override", "cuebotdemo", "1000");
  }, 60_000);
  afterAll(() => context?.close());

  test("the demo banner, the favicon, and the key: reveal, then regenerate in a dialog (the old key stops working)", async () => {
    expect(await page.locator(".demo-banner").textContent()).toContain(
      "simulated Twitch and game provider, nothing is sent anywhere",
    );
    expect((await fetch(`${base}/favicon.ico`)).status).toBe(200);
    await load(page, "security");
    await page.click("#reveal-key");
    const oldKey = await textOf(page, "#api-key", (t) => /^[0-9a-f-]{36}$/.test(t));
    expect(await textOf(page, "#key-countdown", (t) => t.length > 0)).toContain("hidden again in");

    await page.click("#regenerate-key");
    const dialog = page.locator("dialog[open]");
    expect(await dialog.locator("h2").textContent()).toBe("Regenerate the API key?");
    await dialog.getByRole("button", { name: "Regenerate" }).click();
    apiKey = await textOf(page, "#api-key", (t) => /^[0-9a-f-]{36}$/.test(t) && t !== oldKey);

    const call = (key: string) => fetch(`${base}/api/bot/coinflip?apiKey=${key}&format=text`);
    expect((await call(oldKey)).headers.get("x-cuebot-status")).toBe("401");
    expect((await call(apiKey)).headers.get("x-cuebot-status")).toBe("200");
  }, 60_000);

  test("editing the shoutout template: the live preview and then the bot's reply change; a bad value stays in the form with its error", async () => {
    await openView(page, "commands", ["#command-shoutout textarea"]);
    const card = page.locator("#command-shoutout");
    await card.locator("textarea").fill("Everyone follow {name} now, they played {game}! {link}");
    expect(await textOf(page, "#command-shoutout .preview", (t) => t.includes("Everyone follow"))).toContain(
      "Everyone follow OtherStreamer now",
    );
    // Nothing is saved by a preview.
    expect(await (await bot("/api/bot/shoutout?user=otherstreamer")).text()).toStartWith("Go check out");

    await card.getByLabel("Cooldown (seconds, 0–3600)").fill("5000");
    await card.getByRole("button", { name: "Save" }).click();
    const cooldown = card.getByLabel("Cooldown (seconds, 0–3600)");
    expect(await cooldown.getAttribute("aria-invalid")).toBe("true");
    expect(await card.locator(".field-error").first().textContent()).not.toBe("");
    expect(await card.locator("textarea").inputValue()).toContain("Everyone follow");

    await cooldown.fill("0");
    await card.getByRole("button", { name: "Save" }).click();
    await textOf(page, "#command-shoutout .save-status", (t) => t === "Saved.");
    expect(await (await bot("/api/bot/shoutout?user=otherstreamer")).text()).toBe(
      "Everyone follow OtherStreamer now, they played VALORANT! https://twitch.tv/otherstreamer",
    );
  }, 60_000);

  test("the magic 8-ball's answers: remove all but one, edit it, and the bot answers with it", async () => {
    await openView(page, "commands", ["#command-magic8 .answers textarea"]);
    const card = page.locator("#command-magic8");
    while ((await card.locator(".answers li").count()) > 1) {
      await card.locator(".answers li").first().getByRole("button", { name: "Remove" }).click();
    }
    await card.getByLabel("Answer 1").fill("Only ever this.");
    await card.getByRole("button", { name: "Add an answer" }).click();
    await card.getByLabel("Answer 2").fill("");
    await card.getByRole("button", { name: "Save" }).click();
    // An empty answer is refused at its field; nothing is saved.
    expect(await card.getByLabel("Answer 2").getAttribute("aria-invalid")).toBe("true");
    await card.locator(".answers li").nth(1).getByRole("button", { name: "Remove" }).click();
    await card.getByRole("button", { name: "Save" }).click();
    await textOf(page, "#command-magic8 .save-status", (t) => t === "Saved.");
    expect(await (await bot("/api/bot/magic8?question=ok")).text()).toContain("Only ever this.");
  }, 60_000);

  test("bot setup: the Nightbot line, called as Nightbot would, answers the chat line the test button shows", async () => {
    await openView(page, "bots", [".line-card code.line"]);
    expect(await page.locator("#local-warning").textContent()).toContain(
      "Cloud bots cannot reach this server",
    );
    // The key is not on the page until asked for.
    expect(await page.locator("code.line").first().textContent()).not.toContain(apiKey);
    await page.click("#show-key-in-lines");
    const line = await textOf(page, ".line-card:has-text('!coin') code.line", (t) => t.includes(apiKey));
    expect(line).toBe(`$(urlfetch ${base}/api/bot/coinflip?apiKey=${apiKey})`);

    const url = /^\$\(urlfetch (\S+)\)$/.exec(line)![1]!;
    const asNightbot = await fetch(url, {
      headers: { "Nightbot-User": "name=viewer_anna&displayName=Viewer_Anna&provider=twitch" },
    });
    const reply = await asNightbot.text();
    expect(asNightbot.headers.get("content-type")).toStartWith("text/plain");
    expect(reply).toMatch(/^🪙 Viewer_Anna flipped (Heads|Tails)!$/);

    await page
      .locator(".line-card:has-text('!coin')")
      .getByRole("button", { name: /Test this line \(Nightbot/ })
      .click();
    expect(await textOf(page, ".line-card:has-text('!coin') .chat-line", (t) => t.length > 0)).toMatch(
      /^🪙 viewer_anna flipped (Heads|Tails)!$/,
    );

    await page.getByRole("tab", { name: "StreamElements" }).click();
    await page.locator(".line-card:has-text('!so')").getByRole("button", { name: /Test/ }).click();
    expect(await textOf(page, ".line-card:has-text('!so') .chat-line", (t) => t.length > 0)).toContain(
      "OtherStreamer",
    );
  }, 60_000);

  test("overlays: publishing shows in the live preview of the overlay page", async () => {
    await openView(page, "overlays", ["#overlay-url"]);
    await page.getByLabel("Title").fill("Giveaway");
    await page.getByLabel("Message").fill("Type !join now");
    await page.click("#overlay-publish");
    const frame = page.frameLocator(".preview-frame iframe");
    await frame.locator("#title:has-text('Giveaway')").waitFor();
    expect(await frame.locator("#text").textContent()).toBe("Type !join now");
  }, 60_000);

  test("a rate-limited panel says when it tries again, and does", async () => {
    let refused = false;
    await page.route("**/api/dashboard/live", async (route) => {
      if (refused) return route.continue();
      refused = true;
      await route.fulfill({
        status: 429,
        headers: { "retry-after": "1", "content-type": "application/json" },
        body: JSON.stringify({ status: 429, error: { code: "rate_limited", message: "Too many requests." } }),
      });
    });
    await load(page, "overview");
    expect(await textOf(page, "#live-state", (t) => t.includes("Trying again"))).toContain("Trying again in");
    await page.locator("#live-state .badge").waitFor();
    await page.unroute("**/api/dashboard/live");
  }, 30_000);

  test("by keyboard alone: the skip link, the navigation, a visible focus ring, a dialog that Escape cancels", async () => {
    await load(page, "overview");
    await page.locator("#usage svg.chart").waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    const ring = () =>
      page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 2;
      });
    expect(await ring()).toBe(true);
    // Tab to "Security" in the navigation and open it with Enter.
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press("Tab");
      if ((await page.evaluate(() => document.activeElement?.textContent)) === "Security") break;
    }
    expect(await ring()).toBe(true);
    await page.keyboard.press("Enter");
    await page.locator("#regenerate-key").waitFor();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    await page.locator("#regenerate-key").focus();
    await page.keyboard.press("Enter");
    await page.locator("dialog[open]").waitFor();
    await page.keyboard.press("Escape");
    await page.locator("dialog").waitFor({ state: "detached" });
    // Cancelled: the key still works.
    expect((await bot("/api/bot/coinflip")).headers.get("x-cuebot-status")).toBe("200");
  }, 30_000);

  test("the usage period: 1, 7, 30 or 90 days, with the same numbers as a table", async () => {
    await load(page, "overview");
    await page.locator("#usage svg.chart").waitFor();
    expect(await page.locator("#usage tbody tr").count()).toBe(7);
    await page.getByLabel("Period").selectOption("30");
    await page.locator("#usage tbody tr >> nth=29").waitFor({ state: "attached" });
    expect(await page.locator("#usage tbody tr").count()).toBe(30);
    await page.locator("#usage summary").click();
    const today = page.locator("#usage tbody tr").last();
    // coinflip, dice, magic8, shoutout … and the day's total: the 15 calls made as a bot makes them
    // (the shoutout's live preview and Bot setup's "Test this line" are tests, not viewers' calls).
    expect(Number(await today.locator("td").last().textContent())).toBe(15);
  }, 30_000);

  test("a panel whose upstream fails says why and retries on request", async () => {
    let failed = false;
    await page.route("**/api/dashboard/get-clips*", async (route) => {
      if (failed) return route.continue();
      failed = true;
      await route.fulfill({
        status: 502,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          status: 502,
          error: { code: "upstream_error", message: "Twitch did not answer." },
        }),
      });
    });
    await load(page, "overview");
    const card = page.locator("section.card:has(h2:text('Top clips this week'))");
    await card.getByText("Twitch did not answer.").waitFor();
    await card.getByRole("button", { name: "Try again" }).click();
    await card.locator("a").first().waitFor();
    await page.unroute("**/api/dashboard/get-clips*");
  }, 30_000);

  for (const screen of SCREENS) {
    test(`every view at ${screen.width} px (${screen.colorScheme}): its data, no overflow, no errors, nothing from another origin, axe clean`, async () => {
      const ctx = await browser.newContext({
        viewport: { width: screen.width, height: screen.height },
        colorScheme: screen.colorScheme,
      });
      try {
        const landing = await ctx.newPage();
        const landingWatch = watchPage(landing, base);
        await landing.goto(`${base}/`);
        await landing.locator(".demo-banner").waitFor();
        expect(await horizontalOverflow(landing)).toBe(0);
        expect(await axeViolations(landing)).toEqual([]);
        await landing.screenshot({ path: screenshotPath(`landing-${screen.name}`), fullPage: true });
        expect(landingWatch.problems).toEqual([]);
        await landing.close();

        const view = await logIn(ctx, base);
        const watch = watchPage(view, base);
        for (const { id, ready } of VIEWS) {
          await openView(view, id, ready);
          expect({ view: id, overflow: await horizontalOverflow(view) }).toEqual({ view: id, overflow: 0 });
          expect({ view: id, violations: await axeViolations(view) }).toEqual({ view: id, violations: [] });
          await view.screenshot({ path: screenshotPath(`${id}-${screen.name}`), fullPage: true });
        }
        expect(watch.problems).toEqual([]);
      } finally {
        await ctx.close();
      }
    }, 90_000);
  }

  test("deleting the account needs the login typed in the dialog", async () => {
    await openView(page, "security", ["#delete-account"]);
    await page.click("#delete-account");
    const dialog = page.locator("dialog[open]");
    const confirm = dialog.getByRole("button", { name: "Delete everything" });
    expect(await confirm.isDisabled()).toBe(true);
    await page.screenshot({ path: screenshotPath("security-delete-dialog-1280") });
    await dialog.getByRole("textbox").fill("someone");
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole("textbox").fill("CuebotDemo");
    await confirm.click();
    await page.waitForURL(`${base}/`);
    expect((await bot("/api/bot/coinflip")).headers.get("x-cuebot-status")).toBe("401");
  }, 60_000);
});
