// The Overview in Chromium against `cuebot serve --demo` (issue 36): every chat command counts by the
// viewer who typed it (ModBob's `!quote` and `!deaths +` among the top callers), and a command that
// got no reply says why, in the activity feed and as a faint note in the demo chat; at 360 and
// 1280 px, light and dark.
import { describe, expect, test } from "bun:test";
import type { ActivityPage, DemoChatInfo } from "../../server/web/app/lib/types.ts";
import { haveChromium, onEveryScreen, screenshotPath, textOf, useDemoDashboard } from "../helpers/browser.ts";

const PER_VIEWER = "no reply: this viewer already used 3 commands in 30 s";
const COOLDOWN = "no reply: the command is on cooldown";

const demo = useDemoDashboard();

/**
 * Waits (10 s) until the demo chat (read fresh each time) shows `replies` of cuebot's replies and
 * `refused` lines noted with no reply: every line typed has then been recorded.
 */
async function settled(replies: number, refused: number): Promise<void> {
  await demo.panelUntil<DemoChatInfo>(
    "demo/chat",
    (chat) =>
      chat.lines.filter((l) => l.fromCuebot && l.replyTo).length >= replies &&
      chat.lines.filter((l) => l.noReply).length >= refused,
  );
}

const refusals = (p: ActivityPage) =>
  p.items.flatMap((i) =>
    i.kind === "command" && i.refused ? [`${i.command}:${i.caller}:${i.refused}`] : [],
  );

describe.skipIf(!haveChromium)("chat commands on the Overview (a real browser)", () => {
  test("native chat on, viewers' commands typed: each counted by its viewer, each refusal said", async () => {
    await demo.page.goto(`${demo.base}/dashboard#/chat`);
    await demo.page.click("#chat-enabled");
    await demo.allowOnTwitch("chat");
    expect(await textOf(demo.page.locator("#chat-state"), (t) => t === "Connected")).toBe("Connected");

    await demo.say("modbob", "!quote");
    await demo.say("modbob", "!deaths +");
    for (let i = 0; i < 4; i++) await demo.say("viewer_anna", "!coinflip");
    await demo.say("subdave", "!lurk");
    await demo.say("lurker_eve", "!lurk");
    // A test run from the Commands tab: listed, labelled, not counted.
    const tested = await demo.page.request.post(`${demo.base}/api/dashboard/test/dice`, {
      headers: { origin: demo.base },
    });
    expect(tested.status()).toBe(200);
    await settled(6, 2);
    // The feed is kept for the role's panel TTL (20 s for the demo's Default role), and the Overview
    // read it at login: the refusals appear when it is read again.
    let feed = await demo.panel<ActivityPage>("activity");
    for (const deadline = Date.now() + 30_000; refusals(feed).length < 2 && Date.now() < deadline; ) {
      await Bun.sleep(500);
      feed = await demo.panel<ActivityPage>("activity");
    }
    expect(refusals(feed).sort()).toEqual(["coinflip:viewer_anna:viewer_limit", "lurk:lurker_eve:cooldown"]);
  }, 90_000);

  test("the Overview's top callers and activity feed say it, at 360 and 1280 px, light and dark", async () => {
    await demo.page.goto(`${demo.base}/dashboard#/overview`);
    // The last day's usage: not read at login (the last 7 days were, and are kept for the panel TTL).
    await demo.page.selectOption("#usage-period", "1");
    const callers = await textOf(demo.page.locator("#top-callers"), (t) => t.includes("modbob"));
    expect(callers).toContain("viewer_anna3 calls");
    expect(callers).toContain("modbob2 calls");
    const activity = demo.page.locator("#activity-list");
    expect(await textOf(activity, (t) => t.includes(PER_VIEWER))).toContain(COOLDOWN);
    expect(await activity.locator("li.no-reply", { hasText: "!coinflip by viewer_anna" }).count()).toBe(1);
    expect(await activity.locator("li", { hasText: "!dice" }).locator(".badge").textContent()).toBe("test");
    expect(await demo.page.locator("#top-callers li").count()).toBe(3);
    expect(await demo.page.locator("#usage .summary").textContent()).toBe(
      "6 calls (6 answered) from 3 viewers.",
    );
    await onEveryScreen(demo.page, async (screen) => {
      await demo.page.screenshot({ path: screenshotPath(`overview-counts-${screen.name}`), fullPage: true });
      await activity.screenshot({ path: screenshotPath(`overview-activity-${screen.name}`) });
    });
  }, 60_000);

  test("the demo chat notes under the viewer's line why it got no reply", async () => {
    await demo.page.setViewportSize({ width: 1280, height: 800 });
    await demo.page.emulateMedia({ colorScheme: "light" });
    await demo.page.goto(`${demo.base}/dashboard#/chat`);
    const note = demo.page.locator("#demo-chat-log li .no-reply-note");
    expect(await textOf(note, (t) => t.length > 0)).toBeOneOf([PER_VIEWER, COOLDOWN]);
    expect((await note.allTextContents()).sort()).toEqual([COOLDOWN, PER_VIEWER]);
    await onEveryScreen(
      demo.page,
      async (screen) => {
        // The newest lines, with the notes, as the log shows them after a refresh.
        const log = demo.page.locator("#demo-chat-log");
        await log.evaluate((list) => list.scrollTo(0, list.scrollHeight));
        await log.screenshot({ path: screenshotPath(`chat-no-reply-${screen.name}`) });
      },
      { axe: false },
    );
  }, 60_000);
});
