// The Alerts view when cuebot is slow, busy or changed elsewhere (Chromium against `cuebot serve
// --demo`): polls never pile up and a slow answer is still drawn, a 429 keeps what is shown and waits
// for Retry-After, a poll that read the server before a switch never undoes it, the switch and Replay
// keep the keyboard focus, a test waits for unsaved edits, a lost connection is said in words, and
// uploads are listed, previewed and deleted. Page timers are moved on with page.clock.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { haveChromium, screenshotPath, textOf, useDemoDashboard } from "../helpers/browser.ts";
import {
  type Info,
  openAlertsView,
  openAlertType,
  pngBytes,
  settingsOf as settingsFor,
  type Type,
  wavBytes,
} from "./alerts-page.ts";

const demo = useDemoDashboard({ prepare, timeoutMs: 60_000 });

const openView = () => openAlertsView(demo.page, demo.base);
const openType = (type: Type) => openAlertType(demo.page, type);
const settingsOf = (type: Type) => settingsFor(demo.page, demo.base, type);

/** Alerts on and connected, a PNG chosen for cheers, two test alerts in the history. */
async function prepare(): Promise<void> {
  const send = (method: "put" | "post", path: string, data: unknown) =>
    demo.page.request[method](`${demo.base}/api/dashboard/alerts${path}`, {
      headers: { origin: demo.base },
      data,
    });
  expect((await send("put", "", { enabled: true })).status()).toBe(200);
  const deadline = Date.now() + 15_000;
  while ((await demo.panel<Info>("alerts")).state !== "connected") {
    if (Date.now() > deadline) throw new Error("alerts never connected");
    await Bun.sleep(100);
  }
  const upload = await demo.page.request.post(`${demo.base}/api/dashboard/alerts/assets?kind=image`, {
    headers: { origin: demo.base },
    data: pngBytes(96),
  });
  const { id } = ((await upload.json()) as { data: { id: number } }).data;
  expect((await send("put", "/types/cheer", { imageId: id })).status()).toBe(200);
  for (const type of ["follow", "cheer"]) expect((await send("post", "/test", { type })).status()).toBe(200);
}

/** A second tab of the same session whose timers the test moves on (demo.page.clock), `aheadMs` in the future. */
async function clockedView(aheadMs = 0): Promise<Page> {
  const tab = await demo.context.newPage();
  await tab.clock.install({ time: Date.now() + aheadMs });
  await tab.goto(`${demo.base}/dashboard#/alerts`);
  await tab.locator("#alerts-state").waitFor();
  return tab;
}

const HISTORY = "**/api/dashboard/alerts/history?*";

describe.skipIf(!haveChromium)(
  "the Alerts view when cuebot is slow, busy or changed elsewhere (a real browser)",
  () => {
    test("a slow server: one history poll at a time, and its answer is drawn", async () => {
      let inFlight = 0;
      let most = 0;
      let asked = 0;
      const tab = await demo.context.newPage();
      await tab.clock.install();
      await tab.route(HISTORY, async (route) => {
        asked += 1;
        inFlight += 1;
        most = Math.max(most, inFlight);
        const answer = await route.fetch();
        await Bun.sleep(3000); // slower than any poll's interval
        inFlight -= 1;
        await route.fulfill({ response: answer });
      });
      try {
        await tab.goto(`${demo.base}/dashboard#/alerts`);
        await tab.locator("#alerts-state").waitFor();
        await tab.clock.runFor(60_000);
        await tab.locator("#alerts-history ol").waitFor({ timeout: 8000 });
        await tab.clock.runFor(60_000);
        await Bun.sleep(1000);
        expect({ most, asked }).toEqual({ most: 1, asked: 2 });
      } finally {
        await tab.close();
      }
    }, 30_000);

    test("a 429 keeps the list with a quiet line and waits for Retry-After; older alerts show their date", async () => {
      const tab = await clockedView(2 * 24 * 3600 * 1000);
      try {
        await tab.locator("#alerts-history ol").waitFor();
        const when = (await tab.locator("#alerts-history time").first().textContent()) ?? "";
        expect(when).toContain(String(new Date().getFullYear()));
        const rows = await tab.locator("#alerts-history li").count();
        let refused = 0;
        await tab.route(HISTORY, async (route) => {
          refused += 1;
          await route.fulfill({
            status: 429,
            headers: { "retry-after": "60", "content-type": "application/json" },
            body: JSON.stringify({ status: 429, error: { code: "rate_limited", message: "Slow down." } }),
          });
        });
        await tab.clock.runFor(10_500);
        await tab.locator("#alerts-history ~ .alerts-stale:not([hidden])").waitFor({ timeout: 5000 });
        expect(await tab.locator("#alerts-history li").count()).toBe(rows);
        expect(await tab.locator("#alerts-history [role=alert]").count()).toBe(0);
        expect(refused).toBe(1);
        await tab.clock.runFor(50_000);
        await Bun.sleep(300);
        expect(refused).toBe(1);
        await tab.unroute(HISTORY);
        await tab.clock.runFor(11_000);
        await tab
          .locator("#alerts-history ~ .alerts-stale[hidden]")
          .waitFor({ state: "attached", timeout: 5000 });
        expect(await tab.locator("#alerts-history li").count()).toBe(rows);
      } finally {
        await tab.close();
      }
    }, 30_000);

    test("a 429 before the first answer: one quiet line, no countdown asking again beside the poll", async () => {
      const tab = await demo.context.newPage();
      await tab.clock.install();
      let asked = 0;
      await tab.route(HISTORY, async (route) => {
        asked += 1;
        await route.fulfill({
          status: 429,
          headers: { "retry-after": "30", "content-type": "application/json" },
          body: JSON.stringify({ status: 429, error: { code: "rate_limited", message: "Slow down." } }),
        });
      });
      try {
        await tab.goto(`${demo.base}/dashboard#/alerts`);
        await textOf(tab.locator("#alerts-history"), (t) => t.includes("Too many requests"));
        expect(await tab.locator("#alerts-history [role=alert]").count()).toBe(0);
        await tab.clock.runFor(25_000);
        await Bun.sleep(300);
        expect(asked).toBe(1);
        await tab.unroute(HISTORY);
        await tab.clock.runFor(6_000);
        await tab.locator("#alerts-history ol").waitFor({ timeout: 5000 });
      } finally {
        await tab.close();
      }
    }, 30_000);

    test("the switch: a poll that read the server before the change never flips it back, and focus stays on it", async () => {
      const tab = await clockedView();
      try {
        expect(await tab.locator("#alerts-enabled").isChecked()).toBe(true);
        let release = () => {};
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        let held = 0;
        await tab.route("**/api/dashboard/alerts", async (route) => {
          if (route.request().method() !== "GET") return route.continue();
          const before = await route.fetch(); // the server as it was before the switch
          held += 1;
          await gate;
          await route.fulfill({ response: before });
        });
        await tab.clock.runFor(15_500);
        while (held === 0) await Bun.sleep(20);
        await tab.locator("#alerts-enabled").focus();
        await tab.keyboard.press("Space");
        await textOf(tab.locator("#alerts-state"), (t) => t === "Off");
        release();
        await Bun.sleep(500);
        expect(await tab.locator("#alerts-enabled").isChecked()).toBe(false);
        expect(await tab.locator("#alerts-state").textContent()).toBe("Off");
        expect(await tab.evaluate(() => document.activeElement?.id)).toBe("alerts-enabled");
        await tab.unroute("**/api/dashboard/alerts");
        await tab.keyboard.press("Space");
        await textOf(tab.locator("#alerts-state"), (t) => t !== "Off");
        expect(await tab.evaluate(() => document.activeElement?.id)).toBe("alerts-enabled");
      } finally {
        await tab.close();
      }
    }, 30_000);

    test("Replay by keyboard keeps the focus on its button while the new row is added above", async () => {
      await openView();
      const second = demo.page
        .locator("#alerts-history li")
        .nth(1)
        .getByRole("button", { name: /^Replay/ });
      const label = await second.getAttribute("aria-label");
      const before = await demo.page.locator("#alerts-history li").count();
      await second.focus();
      await demo.page.keyboard.press("Enter");
      await textOf(demo.page.locator("#alerts-history li").first(), (t) => t.includes("replay"));
      expect(await demo.page.locator("#alerts-history li").count()).toBe(Math.min(before + 1, 20));
      expect(await demo.page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(label);
      expect(await demo.page.locator("#alerts-history-note").textContent()).toContain("below a minimum");
    }, 30_000);

    test("a test waits for unsaved edits; a lost connection says cuebot did not answer", async () => {
      await openView();
      const cheer = await openType("cheer");
      const test = cheer.locator("#alert-cheer-test");
      expect(await test.isDisabled()).toBe(false);
      const template = cheer.locator("#alert-cheer-template");
      const saved = await template.inputValue();
      await template.fill(`${saved} 🎉`);
      expect(await test.isDisabled()).toBe(true);
      expect(await cheer.locator("#alert-cheer-test-hint").isVisible()).toBe(true);
      await demo.page.route("**/api/dashboard/alerts/types/cheer", (route) =>
        route.abort("internetdisconnected"),
      );
      await cheer.getByRole("button", { name: "Save" }).click();
      expect(await textOf(cheer.locator(".save-status").first(), (t) => t.length > 0)).toContain(
        "cuebot did not answer; check your connection and try again.",
      );
      await demo.page.unroute("**/api/dashboard/alerts/types/cheer");
      await template.fill(saved);
      expect(await test.isDisabled()).toBe(false);
      expect(await cheer.locator("#alert-cheer-test-hint").isVisible()).toBe(false);
      expect(await demo.page.locator("#alerts-preview iframe").getAttribute("allow")).toBe("autoplay 'none'");
    }, 30_000);

    test("your files: n of 20, a thumbnail, and Delete (confirmed) leaves the types with none", async () => {
      await openView();
      const files = demo.page.locator("#alerts-files");
      expect(await demo.page.locator("#alerts-files-count").textContent()).toBe("1 of 20 files.");
      // A sound: a player in the picker and in the list.
      const sound = (await openType("cheer")).locator(".alerts-asset").nth(1);
      await sound
        .locator("input[type=file]")
        .setInputFiles({ name: "ding.wav", mimeType: "audio/wav", buffer: wavBytes() });
      await sound.locator(".alerts-asset-preview audio[controls]").waitFor();
      await textOf(demo.page.locator("#alerts-files-count"), (t) => t === "2 of 20 files.");
      expect(await files.locator("audio[controls]").count()).toBe(1);
      const thumb = files.locator("img.alerts-thumb");
      await thumb.waitFor();
      await demo.page.waitForFunction(
        () => (document.querySelector("img.alerts-thumb") as HTMLImageElement | null)?.naturalWidth === 96,
      );
      expect(await demo.page.locator("#alert-type-cheer .alerts-asset-preview img").count()).toBe(1);
      await demo.page.locator("#alerts-files").screenshot({ path: screenshotPath("alerts-files") });
      await files.getByRole("button", { name: /^Delete PNG image/ }).click();
      const dialog = demo.page.locator("dialog[open]");
      expect(await dialog.textContent()).toContain("show no image");
      await dialog.getByRole("button", { name: "Delete" }).click();
      await textOf(demo.page.locator("#alerts-files-count"), (t) => t === "1 of 20 files.");
      expect(await files.locator("img").count()).toBe(0);
      expect(await demo.page.evaluate(() => document.activeElement?.id)).toBe("alerts-files-count");
      expect(await demo.page.locator("#alert-type-cheer .alerts-asset select").first().inputValue()).toBe("");
      expect((await settingsOf("cheer")).imageId).toBeNull();
    }, 30_000);
  },
);
