// The overlay page in Chromium showing alerts: each within 1 s when idle, in order, one at a time,
// once; a reload never replays one; a page opened again catches up on what it missed; the sound is
// played once at its volume; screenshots of every type at 1920×1080 over a dark and a light scene.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Account } from "../../db/accounts.ts";
import { addAlertAsset } from "../../db/alert-assets.ts";
import { alertHistory, readAlertSettings, recordAlertEvent, writeAlertSettings } from "../../db/alerts.ts";
import { deliverAlert } from "../../server/alerts/deliver.ts";
import { ALERT_TYPES, type Alert, type AlertFields, type AlertType } from "../../server/alerts/model.ts";
import { presentAlert } from "../../server/alerts/present.ts";
import { sampleFields } from "../../server/alerts/samples.ts";
import { listen, type RunningServer } from "../../server/listen.ts";
import { haveChromium, launchChromium, screenshotPath, watchPage } from "../helpers/browser.ts";
import { createTestAccount, createTestContext, type TestContext } from "../helpers/context.ts";

let t: TestContext;
let server: RunningServer;
let browser: Browser;
let account: Account;
let token: string;

/** A short 440 Hz beep as a 16-bit mono WAV. */
function beepWav(): Uint8Array {
  const rate = 8000;
  const samples = 800;
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const text = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(at + i, s.charCodeAt(i));
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + samples * 2, true);
  text(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++)
    view.setInt16(44 + i * 2, Math.sin((i * 2 * Math.PI * 440) / rate) * 8000, true);
  return bytes;
}

/** A transparent PNG badge drawn by Chromium itself (an uploaded image as a streamer would have). */
async function badgePng(): Promise<Uint8Array> {
  const page = await browser.newPage();
  await page.setContent(
    `<div id="b" style="width:220px;height:220px;display:grid;place-items:center">
      <div style="width:200px;height:200px;border-radius:50%;background:radial-gradient(circle at 35% 30%,#fff6c9,#ffb627 45%,#d9480f);box-shadow:inset 0 -10px 0 rgba(0,0,0,.2);display:grid;place-items:center">
        <div style="width:120px;height:120px;background:#fff;clip-path:polygon(50% 0,61% 35%,98% 35%,68% 57%,79% 91%,50% 70%,21% 91%,32% 57%,2% 35%,39% 35%)"></div>
      </div></div>`,
  );
  const png = await page.locator("#b").screenshot({ omitBackground: true });
  await page.close();
  return new Uint8Array(png);
}

beforeAll(async () => {
  if (!haveChromium) return;
  t = await createTestContext({
    configure: (config) => {
      config.port = 0;
    },
  });
  ({ account, overlayToken: token } = await createTestAccount(t.ctx));
  server = listen(t.ctx, t.app);
  browser = await launchChromium();
  const now = Date.now();
  const image = await addAlertAsset(t.ctx.db, account.id, await badgePng(), "image", now);
  const sound = await addAlertAsset(t.ctx.db, account.id, beepWav(), "sound", now);
  for (const type of ALERT_TYPES) {
    const withImage = type === "cheer" || type === "gift" || type === "raid";
    await writeAlertSettings(
      t.ctx.db,
      account.id,
      type,
      { durationSeconds: 2, ...(withImage ? { imageId: image.id } : {}), soundId: sound.id, volume: 40 },
      now,
    );
  }
}, 40_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop(0);
  await t?.cleanup();
});

/** An event as Twitch would deliver it, through the real delivery path (stored, then on the overlays). */
let key = 0;
async function happen(type: AlertType, fields: Partial<AlertFields> = {}): Promise<number> {
  const delivered = await deliverAlert(t.ctx, {
    accountId: account.id,
    type,
    fields: { ...sampleFields(type), ...fields },
    eventKey: `e2e-${++key}`,
    test: false,
    at: Date.now(),
  });
  expect(delivered.outcome).toBe("shown");
  return Date.now();
}

interface Shown {
  text: string;
  message: string;
  at: number;
  visible: number;
}

/** The page records each alert it shows (and how many were visible then) and each sound it plays. */
async function overlayPage(context: BrowserContext, query = ""): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { shown: Shown[]; played: { src: string; volume: number }[] };
    w.shown = [];
    w.played = [];
    HTMLMediaElement.prototype.play = function () {
      w.played.push({ src: this.src, volume: this.volume });
      return Promise.resolve();
    };
    document.addEventListener("DOMContentLoaded", () => {
      const alert = document.getElementById("alert");
      if (!alert) return;
      new MutationObserver(() => {
        if (!alert.classList.contains("in")) return;
        w.shown.push({
          text: document.getElementById("alert-text")?.textContent ?? "",
          message: document.getElementById("alert-message")?.textContent ?? "",
          at: Date.now(),
          visible: document.querySelectorAll("#alert:not([hidden])").length,
        });
      }).observe(alert, { attributes: true, attributeFilter: ["class"] });
    });
  });
  const before = t.ctx.alerts.connections(account.id);
  await page.goto(`${server.url}/overlay/${token}${query}`);
  // Listening: the page's alert stream is open on the server.
  const deadline = Date.now() + 10_000;
  while (t.ctx.alerts.connections(account.id) <= before && Date.now() < deadline) await Bun.sleep(20);
  return page;
}

const shownOn = (page: Page) => page.evaluate(() => (window as unknown as { shown: Shown[] }).shown);
const playedOn = (page: Page) =>
  page.evaluate(() => (window as unknown as { played: { src: string; volume: number }[] }).played);

async function waitShown(page: Page, count: number, withinMs: number): Promise<Shown[]> {
  const deadline = Date.now() + withinMs;
  let shown = await shownOn(page);
  while (shown.length < count && Date.now() < deadline) {
    await Bun.sleep(25);
    shown = await shownOn(page);
  }
  return shown;
}

describe.skipIf(!haveChromium)("alerts on the overlay page (Chromium)", () => {
  test("each alert within 1 s when idle, in order, one at a time, once, its sound played once", async () => {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    try {
      const page = await overlayPage(context);
      const watch = watchPage(page, server.url);
      const first = await happen("follow", { user: "Anna" });
      const shown = await waitShown(page, 1, 1000);
      expect(shown.map((s) => s.text)).toEqual(["Anna just followed!"]);
      expect(shown[0]!.at - first).toBeLessThan(1000);
      await happen("resub", { user: "Bob", months: 7, message: "<b>not bold</b> 🎉" });
      await happen("gift", { user: "Carla", amount: 5 });
      const all = await waitShown(page, 3, 12_000);
      expect(all.map((s) => s.text)).toEqual([
        "Anna just followed!",
        "Bob subscribed for 7 months!",
        "Carla gifted 5 subs!",
      ]);
      // A viewer's message is text, never markup.
      expect(all[1]!.message).toBe("<b>not bold</b> 🎉");
      expect(await page.locator("#alert-message b").count()).toBe(0);
      expect(all.every((s) => s.visible === 1)).toBe(true);
      // One after the other: each stays its 2 s before the next comes in.
      expect(all[2]!.at - all[1]!.at).toBeGreaterThanOrEqual(2000);
      await Bun.sleep(1500);
      expect(await shownOn(page)).toHaveLength(3);
      const played = await playedOn(page);
      expect(played).toHaveLength(3);
      expect(played.every((p) => p.src.includes("/api/overlay/assets/") && p.volume === 0.4)).toBe(true);
      expect(watch.problems).toEqual([]);

      // A reload (OBS refreshing the source) replays nothing; the next alert still comes within 1 s, once
      // the reloaded page's alert stream is open again (its answer's headers are in).
      const reopened = page.waitForResponse((r) => r.url().includes("/api/overlay/alerts"), {
        timeout: 10_000,
      });
      await page.reload();
      await page.waitForFunction(() => document.readyState === "complete");
      await reopened;
      await Bun.sleep(1200);
      expect(await shownOn(page)).toEqual([]);
      await happen("raid", { user: "Dave", amount: 42 });
      expect((await waitShown(page, 1, 1000)).map((s) => s.text)).toEqual([
        "Dave is raiding with 42 viewers!",
      ]);
      await Bun.sleep(3000);

      // Closed (OBS hides the source) while an alert happened: opened again, it shows only that one.
      await page.close();
      await happen("cheer", { user: "Eve", amount: 100, message: "Cheer100 gg" });
      const again = await overlayPage(context);
      const caught = await waitShown(again, 1, 10_000);
      await Bun.sleep(2500);
      expect((await shownOn(again)).map((s) => s.text)).toEqual(["Eve cheered 100 bits!"]);
      expect(caught[0]!.message).toBe("Cheer100 gg");
    } finally {
      await context.close();
    }
  }, 60_000);

  test("alerts published out of id order (11 before 10) both show; one that waited over 2 minutes does not", async () => {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    try {
      // What the other tests showed counts as shown before this page loaded (no catch-up of it).
      const newest = (await alertHistory(t.ctx.db, account.id, 1))[0]?.id ?? 0;
      await context.addInitScript(([name, id]) => localStorage.setItem(name, id), [
        `cuebot.alerts.shown:${token}`,
        String(newest),
      ] as const);
      const page = await overlayPage(context, "?only=alerts");
      const settings = await readAlertSettings(t.ctx.db, account.id);
      const stored = async (user: string, at = Date.now()): Promise<Alert> => {
        const fields = { ...sampleFields("follow"), user };
        const event = await recordAlertEvent(t.ctx.db, {
          accountId: account.id,
          type: "follow",
          fields,
          eventKey: `e2e-order-${++key}`,
          test: false,
          at,
        });
        return presentAlert(event!, settings.follow);
      };
      const ten = await stored("Ten");
      const eleven = await stored("Eleven");
      const stale = await stored("Stale", Date.now() - 3 * 60_000);
      t.ctx.alerts.publish(account.id, eleven);
      t.ctx.alerts.publish(account.id, ten);
      t.ctx.alerts.publish(account.id, stale);
      await waitShown(page, 2, 8000);
      await Bun.sleep(3000);
      expect((await shownOn(page)).map((s) => s.text)).toEqual([
        "Eleven just followed!",
        "Ten just followed!",
      ]);
    } finally {
      await context.close();
    }
  }, 30_000);

  test("?only=alerts hides the published card; the full page shows it", async () => {
    const res = await fetch(`${server.url}/api/overlay/state`, { headers: { "x-overlay-token": token } });
    expect(res.status).toBe(200);
    const { publishOverlayState } = await import("../../db/overlay.ts");
    const stored = await publishOverlayState(
      t.ctx.db,
      account.id,
      { title: "Now", text: "Ranked" },
      Date.now(),
    );
    t.ctx.overlays.publish(account.id, stored);
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const full = await overlayPage(context);
      await full.waitForSelector("#card:not([hidden])");
      const only = await overlayPage(context, "?only=alerts");
      await Bun.sleep(500);
      expect(await only.locator("#card").isHidden()).toBe(true);
      // The dashboard's preview (muted=1) shows an alert without its sound (OBS plays it).
      const [latest] = await alertHistory(t.ctx.db, account.id, 1);
      await context.addInitScript(([key, id]) => localStorage.setItem(key, id), [
        `cuebot.alerts.shown:${token}`,
        String(latest?.id ?? 0),
      ] as const);
      const preview = await overlayPage(context, "?only=alerts&muted=1");
      await happen("cheer", { user: "Quiet", amount: 100 });
      expect((await waitShown(preview, 1, 5000)).map((s) => s.text)).toEqual(["Quiet cheered 100 bits!"]);
      expect(await playedOn(preview)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 30_000);

  test("screenshots: every type at 1920×1080 over a dark and a light scene", async () => {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    try {
      for (const type of ALERT_TYPES) {
        await writeAlertSettings(t.ctx.db, account.id, type, { durationSeconds: 5 }, Date.now());
      }
      // This browser has shown what came before (the page remembers it per token): only new ones now.
      const [latest] = await alertHistory(t.ctx.db, account.id, 1);
      await context.addInitScript(([key, id]) => localStorage.setItem(key, id), [
        `cuebot.alerts.shown:${token}`,
        String(latest?.id ?? 0),
      ] as const);
      const page = await overlayPage(context);
      const scene = (dark: boolean) =>
        page.evaluate((dark) => {
          // A scene behind the transparent page, as OBS composes it (the page's own box has no height).
          document.documentElement.style.minHeight = "100vh";
          document.documentElement.style.background = dark
            ? "linear-gradient(135deg, #0b1020 0%, #1c2541 50%, #0f3d3e 100%)"
            : "linear-gradient(135deg, #f7f7f2 0%, #dfe9f3 50%, #ffffff 100%)";
        }, dark);
      const fields: Record<AlertType, Partial<AlertFields>> = {
        follow: { user: "Mossy_Owl" },
        subscribe: { user: "Fernwick" },
        resub: {
          user: "Fernwick",
          months: 14,
          amount: 14,
          message: "14 months already, still the best stream around!",
        },
        gift: { user: "Anonymous", amount: 5 },
        cheer: { user: "Mossy_Owl", amount: 500, message: "Cheer500 gg on that boss" },
        raid: { user: "QuillAndKettle", amount: 38 },
        redemption: { user: "Mossy_Owl", reward: "Kazoo solo", message: "play the kazoo" },
      };
      for (const [i, type] of ALERT_TYPES.entries()) {
        await happen(type, fields[type]);
        await waitShown(page, i + 1, 15_000);
        await page.waitForFunction(() => getComputedStyle(document.getElementById("alert")!).opacity === "1");
        await page.waitForFunction(() => {
          const img = document.getElementById("alert-image") as HTMLImageElement;
          return img.hidden || img.complete;
        });
        await scene(true);
        await page.screenshot({ path: screenshotPath(`overlay-alert-${type}`) });
        await scene(false);
        await page.screenshot({ path: screenshotPath(`overlay-alert-${type}-light`) });
      }
      expect((await shownOn(page)).length).toBe(ALERT_TYPES.length);

      // A name and a message as long as Twitch allows, in odd scripts: kept on screen, the message cut
      // to three lines, all of it text.
      const name = "ＷｉｄｅＮａｍｅ_𝔘𝔫𝔦𝔠𝔬𝔡𝔢_ÄÖÜ_名前テスト";
      await happen("cheer", {
        user: name,
        amount: 100_000,
        message: `<img src=x> ${"ﷺ 🐉 långt ".repeat(50)}`.slice(0, 500),
      });
      await waitShown(page, ALERT_TYPES.length + 1, 15_000);
      await page.waitForFunction(() => getComputedStyle(document.getElementById("alert")!).opacity === "1");
      await scene(true);
      await page.screenshot({ path: screenshotPath("overlay-alert-long") });
      const card = (await page.locator("#alert-card").boundingBox())!;
      expect(card.x).toBeGreaterThanOrEqual(0);
      expect(card.x + card.width).toBeLessThanOrEqual(1920);
      expect(card.y + card.height).toBeLessThanOrEqual(1080);
      const message = (await page.locator("#alert-message").boundingBox())!;
      expect(message.height).toBeLessThanOrEqual(3 * 36 * 1.3 + 2);
      expect(await page.locator("#alert img").count()).toBe(1);
      expect(await page.locator("#alert-text").textContent()).toBe(`${name} cheered 100000 bits!`);
    } finally {
      await context.close();
    }
  }, 90_000);
});
