import { describe, expect, test } from "bun:test";
import {
  axeViolations,
  haveChromium,
  horizontalOverflow,
  screenshotPath,
  textOf,
  useDemoDashboard,
  watchPage,
} from "../helpers/browser.ts";

const demo = useDemoDashboard();

describe.skipIf(!haveChromium)("native chat in demo mode (a real browser)", () => {
  test("turn it on, allow it on Twitch's page, type !followage in the simulated chat, and see cuebot's reply", async () => {
    const page = demo.page;
    await page.goto(`${demo.base}/dashboard#/chat`);
    expect(await textOf(page.locator("#chat-state"), (t) => t.length > 0, 15_000)).toBe("Off");

    await page.click("#chat-enabled");
    expect(await textOf(page.locator("#chat-state"), (t) => t !== "Off", 15_000)).toBe(
      "Needs your permission",
    );
    expect(await page.locator("#chat-reason").textContent()).toContain("user:read:chat");

    // Twitch's (simulated) consent page lists the chat scope; the streamer approves.
    expect(await demo.allowOnTwitch("chat")).toContain("user:read:chat");
    // From here on, every request stays on this server.
    const watch = watchPage(page, demo.base);
    expect(await textOf(page.locator("#chat-state"), (t) => t === "Connected", 15_000)).toBe("Connected");

    await page.fill("#demo-chat-text", "!followage");
    await page.click("#demo-chat-send");
    const reply = await textOf(page.locator("#demo-chat-log li.from-cuebot"), (t) => t.length > 0, 15_000);
    expect(reply).toContain("CuebotDemo");
    expect(reply).toMatch(/\d+ (years?|months?|days?)/);
    expect(await page.locator("#demo-chat-log li").first().textContent()).toContain("!followage");

    // An alias saved on this page works from chat at once.
    await page.fill("#aliases-coinflip", "flip, toss");
    await page.locator("#aliases-coinflip ~ button").click();
    await textOf(page.locator("#aliases-coinflip-status"), (t) => t === "Saved.", 15_000);
    await page.fill("#demo-chat-text", "!toss");
    await page.click("#demo-chat-send");
    await textOf(page.locator("#demo-chat-log"), (t) => /flipped (Heads|Tails)/.test(t), 15_000);

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
  }, 90_000);
});
