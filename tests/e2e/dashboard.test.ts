import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import {
  expectFits,
  haveChromium,
  onEveryScreen,
  SCREENS,
  screenshotPath,
  textOf,
  useDemoDashboard,
  watchPage,
} from "../helpers/browser.ts";

const ROOT = join(import.meta.dir, "..", "..");
const demo = useDemoDashboard({ prepare: firstActivity, timeoutMs: 100_000 });
let apiKey = "";

async function cli(...args: string[]): Promise<void> {
  const run = Bun.spawn(
    ["bun", join(ROOT, "cli/main.ts"), ...args, "--data-dir", join(demo.server.dataDir, "demo")],
    {
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  if ((await run.exited) !== 0)
    throw new Error(`cuebot ${args.join(" ")}: ${await new Response(run.stderr).text()}`);
}

const bot = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${demo.base}${path}${path.includes("?") ? "&" : "?"}apiKey=${apiKey}&format=text`, { headers });

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
  { id: "actions", ready: [".action-item", "#actions-obs:not(:empty)"] },
  { id: "deck", ready: [".deck-button", "#demo-program-scene"] },
  { id: "obs", ready: ["#obs-state", "#demo-program-scene"] },
  { id: "bots", ready: [".line-card code.line", "#local-warning"] },
  { id: "overlays", ready: ["#overlay-url", ".preview-frame iframe"] },
  { id: "security", ready: ["#api-key", "#session-login"] },
] as const;

/** A full page load (a goto that only changes the #fragment would not reload anything). */
async function load(page: Page, view: string): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${demo.base}/dashboard#/${view}`);
}

async function openView(page: Page, id: string, ready: readonly string[]): Promise<void> {
  await load(page, id);
  for (const selector of ready) await page.locator(selector).first().waitFor({ state: "attached" });
  await page.locator("[aria-busy=true]").first().waitFor({ state: "detached" });
  expect(await page.locator(".state-loading").count()).toBe(0);
  expect(await page.locator(".state-error").count()).toBe(0);
}

/**
 * The sizes the usage chart's texts are drawn at, in CSS pixels (font size times the SVG's scale),
 * once they are 12 or after 2 s: a chart redrawn for a new width is given a moment.
 */
async function chartTextSizes(page: Page): Promise<number[]> {
  const measure = () =>
    page.locator("#usage svg.chart").evaluate((chart: SVGSVGElement) => {
      const scale = chart.getBoundingClientRect().width / chart.viewBox.baseVal.width;
      const sizes = [...chart.querySelectorAll("text")].map((text) =>
        Math.round(Number.parseFloat(getComputedStyle(text).fontSize) * scale),
      );
      return [...new Set(sizes)];
    });
  const deadline = Date.now() + 2000;
  let sizes = await measure();
  while (sizes.join() !== "12" && Date.now() < deadline) {
    await Bun.sleep(100);
    sizes = await measure();
  }
  return sizes;
}

/** A new streamer's empty Overview checked, the API key read, and some chat activity for the charts. */
async function firstActivity(): Promise<void> {
  // A new streamer: the usage chart and the feed say there is nothing yet.
  expect(await textOf(demo.page.locator("#usage"), (t) => t !== "Loading…")).toBe(
    "No command calls in this period yet.",
  );
  expect(await textOf(demo.page.locator("#top-callers"), (t) => t !== "Loading…")).toBe(
    "Nobody has called a command in this period.",
  );
  const revealed = await demo.page.request.post(`${demo.base}/api/dashboard/security/reveal-key`, {
    headers: { origin: demo.base },
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
}

describe.skipIf(!haveChromium)("the dashboard in a real browser (serve --demo)", () => {
  test("the demo banner, the favicon, and the key: reveal, then regenerate in a dialog (the old key stops working)", async () => {
    expect(await demo.page.locator(".demo-banner").textContent()).toContain(
      "simulated Twitch and game provider, nothing is sent anywhere",
    );
    expect((await fetch(`${demo.base}/favicon.ico`)).status).toBe(200);
    await load(demo.page, "security");
    await demo.page.click("#reveal-key");
    const oldKey = await textOf(demo.page.locator("#api-key"), (t) => /^[0-9a-f-]{36}$/.test(t));
    expect(await textOf(demo.page.locator("#key-countdown"), (t) => t.length > 0)).toContain(
      "hidden again in",
    );

    await demo.page.click("#regenerate-key");
    const dialog = demo.page.locator("dialog[open]");
    expect(await dialog.locator("h2").textContent()).toBe("Regenerate the API key?");
    await dialog.getByRole("button", { name: "Regenerate" }).click();
    apiKey = await textOf(demo.page.locator("#api-key"), (t) => /^[0-9a-f-]{36}$/.test(t) && t !== oldKey);

    const call = (key: string) => fetch(`${demo.base}/api/bot/coinflip?apiKey=${key}&format=text`);
    expect((await call(oldKey)).headers.get("x-cuebot-status")).toBe("401");
    expect((await call(apiKey)).headers.get("x-cuebot-status")).toBe("200");
  }, 60_000);

  test("editing the shoutout template: the live preview and then the bot's reply change; a bad value stays in the form with its error", async () => {
    await openView(demo.page, "commands", ["#command-shoutout textarea"]);
    const card = demo.page.locator("#command-shoutout");
    await card.locator("textarea").fill("Everyone follow {name} now, they played {game}! {link}");
    expect(
      await textOf(demo.page.locator("#command-shoutout .preview"), (t) => t.includes("Everyone follow")),
    ).toContain("Everyone follow OtherStreamer now");
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
    await textOf(demo.page.locator("#command-shoutout .save-status"), (t) => t === "Saved.");
    expect(await (await bot("/api/bot/shoutout?user=otherstreamer")).text()).toBe(
      "Everyone follow OtherStreamer now, they played VALORANT! https://twitch.tv/otherstreamer",
    );
  }, 60_000);

  test("the magic 8-ball's answers: remove all but one, edit it, and the bot answers with it", async () => {
    await openView(demo.page, "commands", ["#command-magic8 .answers textarea"]);
    const card = demo.page.locator("#command-magic8");
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
    await textOf(demo.page.locator("#command-magic8 .save-status"), (t) => t === "Saved.");
    expect(await (await bot("/api/bot/magic8?question=ok")).text()).toContain("Only ever this.");
  }, 60_000);

  test("bot setup: the Nightbot line, called as Nightbot would, answers the chat line the test button shows", async () => {
    await openView(demo.page, "bots", [".line-card code.line"]);
    expect(await demo.page.locator("#local-warning").textContent()).toContain(
      "Cloud bots cannot reach this server",
    );
    // The key is not on the page until asked for.
    expect(await demo.page.locator("code.line").first().textContent()).not.toContain(apiKey);
    await demo.page.click("#show-key-in-lines");
    const line = await textOf(demo.page.locator(".line-card:has-text('!coin') code.line"), (t) =>
      t.includes(apiKey),
    );
    expect(line).toBe(`$(urlfetch ${demo.base}/api/bot/coinflip?apiKey=${apiKey})`);

    const url = /^\$\(urlfetch (\S+)\)$/.exec(line)![1]!;
    const asNightbot = await fetch(url, {
      headers: { "Nightbot-User": "name=viewer_anna&displayName=Viewer_Anna&provider=twitch" },
    });
    const reply = await asNightbot.text();
    expect(asNightbot.headers.get("content-type")).toStartWith("text/plain");
    expect(reply).toMatch(/^🪙 Viewer_Anna flipped (Heads|Tails)!$/);

    await demo.page
      .locator(".line-card:has-text('!coin')")
      .getByRole("button", { name: /Test this line \(Nightbot/ })
      .click();
    expect(
      await textOf(demo.page.locator(".line-card:has-text('!coin') .chat-line"), (t) => t.length > 0),
    ).toMatch(/^🪙 viewer_anna flipped (Heads|Tails)!$/);

    await demo.page.getByRole("tab", { name: "StreamElements" }).click();
    await demo.page.locator(".line-card:has-text('!so')").getByRole("button", { name: /Test/ }).click();
    expect(
      await textOf(demo.page.locator(".line-card:has-text('!so') .chat-line"), (t) => t.length > 0),
    ).toContain("OtherStreamer");
  }, 60_000);

  test("overlays: publishing shows in the live preview of the overlay page", async () => {
    await openView(demo.page, "overlays", ["#overlay-url"]);
    await demo.page.getByLabel("Title").fill("Giveaway");
    await demo.page.getByLabel("Message").fill("Type !join now");
    await demo.page.click("#overlay-publish");
    const frame = demo.page.frameLocator(".preview-frame iframe");
    await frame.locator("#title:has-text('Giveaway')").waitFor();
    expect(await frame.locator("#text").textContent()).toBe("Type !join now");
  }, 60_000);

  test("a rate-limited panel says when it tries again, and does", async () => {
    let refused = false;
    await demo.page.route("**/api/dashboard/live", async (route) => {
      if (refused) return route.continue();
      refused = true;
      await route.fulfill({
        status: 429,
        headers: { "retry-after": "1", "content-type": "application/json" },
        body: JSON.stringify({ status: 429, error: { code: "rate_limited", message: "Too many requests." } }),
      });
    });
    await load(demo.page, "overview");
    expect(await textOf(demo.page.locator("#live-state"), (t) => t.includes("Trying again"))).toContain(
      "Trying again in",
    );
    await demo.page.locator("#live-state .badge").waitFor();
    await demo.page.unroute("**/api/dashboard/live");
  }, 30_000);

  test("by keyboard alone: the skip link, the navigation, a visible focus ring, a dialog that Escape cancels", async () => {
    await load(demo.page, "overview");
    await demo.page.locator("#usage svg.chart").waitFor();
    await demo.page.keyboard.press("Tab");
    expect(await demo.page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    const ring = () =>
      demo.page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 2;
      });
    expect(await ring()).toBe(true);
    // Tab to "Security" in the navigation and open it with Enter.
    for (let i = 0; i < 20; i++) {
      await demo.page.keyboard.press("Tab");
      if ((await demo.page.evaluate(() => document.activeElement?.textContent)) === "Security") break;
    }
    expect(await ring()).toBe(true);
    await demo.page.keyboard.press("Enter");
    await demo.page.locator("#regenerate-key").waitFor();
    expect(await demo.page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    await demo.page.locator("#regenerate-key").focus();
    await demo.page.keyboard.press("Enter");
    await demo.page.locator("dialog[open]").waitFor();
    await demo.page.keyboard.press("Escape");
    await demo.page.locator("dialog").waitFor({ state: "detached" });
    // Cancelled: the key still works.
    expect((await bot("/api/bot/coinflip")).headers.get("x-cuebot-status")).toBe("200");
  }, 30_000);

  test("the usage period: 1, 7, 30 or 90 days, with the same numbers as a table", async () => {
    await load(demo.page, "overview");
    await demo.page.locator("#usage svg.chart").waitFor();
    expect(await demo.page.locator("#usage tbody tr").count()).toBe(7);
    await demo.page.getByLabel("Period").selectOption("30");
    await demo.page.locator("#usage tbody tr >> nth=29").waitFor({ state: "attached" });
    expect(await demo.page.locator("#usage tbody tr").count()).toBe(30);
    await demo.page.locator("#usage summary").click();
    const today = demo.page.locator("#usage tbody tr").last();
    // coinflip, dice, magic8, shoutout … and the day's total: the 15 calls made as a bot makes them
    // (the shoutout's live preview and Bot setup's "Test this line" are tests, not viewers' calls).
    expect(Number(await today.locator("td").last().textContent())).toBe(15);
  }, 30_000);

  test("the usage chart's text is drawn at its own 12 px for every period, at 360 and 1280 px", async () => {
    for (const width of [1280, 360]) {
      await demo.page.setViewportSize({ width, height: 800 });
      await load(demo.page, "overview");
      for (const days of ["1", "7", "30", "90"]) {
        await demo.page.getByLabel("Period").selectOption(days);
        await demo.page.locator("#usage[aria-busy=true]").waitFor({ state: "detached" });
        expect({ width, days, sizes: await chartTextSizes(demo.page) }).toEqual({ width, days, sizes: [12] });
      }
    }
    await demo.page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);

  test("the last day's chart drawn on a phone keeps its 12 px text when the window grows to 1280 px (it was three times that)", async () => {
    await demo.page.setViewportSize({ width: 360, height: 740 });
    await load(demo.page, "overview");
    await demo.page.getByLabel("Period").selectOption("1");
    await demo.page.locator("#usage[aria-busy=true]").waitFor({ state: "detached" });
    const usage = demo.page.locator("section.card:has(#usage)");
    await onEveryScreen(demo.page, async (screen) => {
      expect({ screen: screen.name, sizes: await chartTextSizes(demo.page) }).toEqual({
        screen: screen.name,
        sizes: [12],
      });
      await usage.screenshot({ path: screenshotPath(`overview-usage-last-day-${screen.name}`) });
    });
  }, 60_000);

  test("a panel whose upstream fails says why and retries on request", async () => {
    let failed = false;
    await demo.page.route("**/api/dashboard/get-clips*", async (route) => {
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
    await load(demo.page, "overview");
    const card = demo.page.locator("section.card:has(h2:text('Top clips this week'))");
    await card.getByText("Twitch did not answer.").waitFor();
    await card.getByRole("button", { name: "Try again" }).click();
    await card.locator("a").first().waitFor();
    await demo.page.unroute("**/api/dashboard/get-clips*");
  }, 30_000);

  for (const screen of SCREENS) {
    test(`every view at ${screen.width} px (${screen.colorScheme}): its data, no overflow, no errors, nothing from another origin, axe clean`, async () => {
      const checkLanding = async (session: BrowserContext) => {
        const landing = await session.newPage();
        const landingWatch = watchPage(landing, demo.base);
        await landing.goto(`${demo.base}/`);
        await landing.locator(".demo-banner").waitFor();
        await expectFits(landing, "landing");
        await landing.screenshot({ path: screenshotPath(`landing-${screen.name}`), fullPage: true });
        expect(landingWatch.problems).toEqual([]);
        await landing.close();
      };
      await demo.inSession(
        screen,
        async (view) => {
          for (const { id, ready } of VIEWS) {
            await openView(view, id, ready);
            await expectFits(view, id);
            await view.screenshot({ path: screenshotPath(`${id}-${screen.name}`), fullPage: true });
          }
        },
        checkLanding,
      );
    }, 90_000);
  }

  test("deleting the account needs the login typed in the dialog", async () => {
    await openView(demo.page, "security", ["#delete-account"]);
    await demo.page.click("#delete-account");
    const dialog = demo.page.locator("dialog[open]");
    const confirm = dialog.getByRole("button", { name: "Delete everything" });
    expect(await confirm.isDisabled()).toBe(true);
    await demo.page.screenshot({ path: screenshotPath("security-delete-dialog-1280") });
    await dialog.getByRole("textbox").fill("someone");
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole("textbox").fill("CuebotDemo");
    await confirm.click();
    await demo.page.waitForURL(`${demo.base}/`);
    expect((await bot("/api/bot/coinflip")).headers.get("x-cuebot-status")).toBe("401");
  }, 60_000);
});
