// The Overview in Chromium against `cuebot serve --demo` (issue 36): every chat command counts by the
// viewer who typed it (ModBob's `!quote` and `!deaths +` among the top callers), and a command that
// got no reply says why, in the activity feed and as a faint note in the demo chat; at 360 and
// 1280 px, light and dark.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { ActivityPage, DemoChatInfo } from "../../server/web/app/lib/types.ts";
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
  textOf,
} from "../helpers/browser.ts";

const PER_VIEWER = "no reply: this viewer already used 3 commands in 30 s";
const COOLDOWN = "no reply: the command is on cooldown";

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

/** A line typed in the demo's simulated chat by one of its viewers. */
async function say(user: string, text: string): Promise<void> {
  const response = await page.request.post(`${server.base}/api/dashboard/demo/chat`, {
    headers: { origin: server.base },
    data: { user, text },
  });
  expect(response.status()).toBe(200);
}

async function api<T>(path: string): Promise<T> {
  const response = await page.request.get(`${server.base}/api/dashboard/${path}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

/**
 * Waits (10 s) until the demo chat (read fresh each time) shows `replies` of cuebot's replies and
 * `refused` lines noted with no reply: every line typed has then been recorded.
 */
async function settled(replies: number, refused: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let chat = await api<DemoChatInfo>("demo/chat");
  const done = () =>
    chat.lines.filter((l) => l.fromCuebot && l.replyTo).length >= replies &&
    chat.lines.filter((l) => l.noReply).length >= refused;
  while (!done() && Date.now() < deadline) {
    await Bun.sleep(100);
    chat = await api<DemoChatInfo>("demo/chat");
  }
  expect(done()).toBe(true);
}

const refusals = (p: ActivityPage) =>
  p.items.flatMap((i) =>
    i.kind === "command" && i.refused ? [`${i.command}:${i.caller}:${i.refused}`] : [],
  );

describe.skipIf(!haveChromium)("chat commands on the Overview (a real browser)", () => {
  test("native chat on, viewers' commands typed: each counted by its viewer, each refusal said", async () => {
    await page.goto(`${server.base}/dashboard#/chat`);
    await page.click("#chat-enabled");
    await page.click("#chat-consent");
    await page.click("a.approve >> nth=0");
    await page.waitForURL(`${server.base}/dashboard#/chat`);
    expect(await textOf(page.locator("#chat-state"), (t) => t === "Connected")).toBe("Connected");

    await say("modbob", "!quote");
    await say("modbob", "!deaths +");
    for (let i = 0; i < 4; i++) await say("viewer_anna", "!coinflip");
    await say("subdave", "!lurk");
    await say("lurker_eve", "!lurk");
    // A test run from the Commands tab: listed, labelled, not counted.
    const tested = await page.request.post(`${server.base}/api/dashboard/test/dice`, {
      headers: { origin: server.base },
    });
    expect(tested.status()).toBe(200);
    await settled(6, 2);
    // The feed is kept for the role's panel TTL (20 s for the demo's Default role), and the Overview
    // read it at login: the refusals appear when it is read again.
    let feed = await api<ActivityPage>("activity");
    for (const deadline = Date.now() + 30_000; refusals(feed).length < 2 && Date.now() < deadline; ) {
      await Bun.sleep(500);
      feed = await api<ActivityPage>("activity");
    }
    expect(refusals(feed).sort()).toEqual(["coinflip:viewer_anna:viewer_limit", "lurk:lurker_eve:cooldown"]);
  }, 90_000);

  test("the Overview's top callers and activity feed say it, at 360 and 1280 px, light and dark", async () => {
    await page.goto(`${server.base}/dashboard#/overview`);
    // The last day's usage: not read at login (the last 7 days were, and are kept for the panel TTL).
    await page.selectOption("#usage-period", "1");
    const callers = await textOf(page.locator("#top-callers"), (t) => t.includes("modbob"));
    expect(callers).toContain("viewer_anna3 calls");
    expect(callers).toContain("modbob2 calls");
    const activity = page.locator("#activity-list");
    expect(await textOf(activity, (t) => t.includes(PER_VIEWER))).toContain(COOLDOWN);
    expect(await activity.locator("li.no-reply", { hasText: "!coinflip by viewer_anna" }).count()).toBe(1);
    expect(await activity.locator("li", { hasText: "!dice" }).locator(".badge").textContent()).toBe("test");
    expect(await page.locator("#top-callers li").count()).toBe(3);
    expect(await page.locator("#usage .summary").textContent()).toBe("6 calls (6 answered) from 3 viewers.");
    for (const screen of SCREENS) {
      await page.setViewportSize({ width: screen.width, height: screen.height });
      await page.emulateMedia({ colorScheme: screen.colorScheme });
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: screenshotPath(`overview-counts-${screen.name}`), fullPage: true });
      await activity.screenshot({ path: screenshotPath(`overview-activity-${screen.name}`) });
    }
  }, 60_000);

  test("the demo chat notes under the viewer's line why it got no reply", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto(`${server.base}/dashboard#/chat`);
    const note = page.locator("#demo-chat-log li .no-reply-note");
    expect(await textOf(note, (t) => t.length > 0)).toBeOneOf([PER_VIEWER, COOLDOWN]);
    expect((await note.allTextContents()).sort()).toEqual([COOLDOWN, PER_VIEWER]);
    for (const screen of SCREENS) {
      await page.setViewportSize({ width: screen.width, height: screen.height });
      await page.emulateMedia({ colorScheme: screen.colorScheme });
      expect(await horizontalOverflow(page)).toBe(0);
      // The newest lines, with the notes, as the log shows them after a refresh.
      await page.locator("#demo-chat-log").evaluate((log) => log.scrollTo(0, log.scrollHeight));
      await page
        .locator("#demo-chat-log")
        .screenshot({ path: screenshotPath(`chat-no-reply-${screen.name}`) });
    }
  }, 60_000);
});
