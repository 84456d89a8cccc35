// The Alerts view in Chromium against `cuebot serve --demo`: alerts turned on through the simulated
// Twitch consent page, a type's settings refused and kept at the field then saved, uploads checked at
// the field, a test alert in the live preview and the history, replay, every type simulated and shown
// on the alerts-only overlay (one screenshot each), and the view at 360 and 1280 px, light and dark.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deflateSync } from "node:zlib";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import {
  axeViolations,
  type DemoServer,
  haveChromium,
  horizontalOverflow,
  launchChromium,
  logIn,
  type PageWatch,
  screenshotPath,
  startDemoServer,
  watchPage,
} from "../helpers/browser.ts";

const TYPES = ["follow", "subscribe", "resub", "gift", "cheer", "raid", "redemption"] as const;
type Type = (typeof TYPES)[number];

let server: DemoServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let watch: PageWatch;

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

/** Polls the element's text until it matches. */
async function textOf(locator: Locator, matches: (text: string) => boolean, ms = 10_000): Promise<string> {
  const deadline = Date.now() + ms;
  let text = "";
  while (Date.now() < deadline) {
    text =
      (await locator
        .first()
        .textContent({ timeout: 1000 })
        .catch(() => "")) ?? "";
    if (matches(text)) return text;
    await Bun.sleep(50);
  }
  throw new Error(`never matched; last text: ${JSON.stringify(text)}`);
}

/** A full load of the view, its panels arrived. */
async function openView(): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${server.base}/dashboard#/alerts`);
  await page.locator("#alerts-state").waitFor();
  await page.locator("#alerts-history ol, #alerts-history .state-empty").first().waitFor();
  expect(await page.locator(".state-error").count()).toBe(0);
}

interface Settings {
  template: string;
  imageId: number | null;
  soundId: number | null;
  chatMessage: string | null;
  durationSeconds: number;
}

interface Info {
  state: string;
  alertsOnlyUrl: string;
  types: { type: Type; state: string; settings: Settings }[];
}

/** What the panel API says now, as the streamer's session. */
async function api<T>(path: string): Promise<T> {
  const response = await page.request.get(`${server.base}/api/dashboard/${path}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

async function settingsOf(type: Type): Promise<Settings> {
  const info = await api<Info>("alerts");
  const found = info.types.find((t) => t.type === type);
  if (!found) throw new Error(`no ${type} in the alerts answer`);
  return found.settings;
}

/** A real PNG of `size`×`size` pixels: a purple disc on a transparent square. */
function pngBytes(size: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(Bun.hash.crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const rows: number[] = [];
  const r = size / 2;
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) {
      const inside = (x - r + 0.5) ** 2 + (y - r + 0.5) ** 2 <= r * r;
      rows.push(0x8b, 0x5c, 0xf6, inside ? 255 : 0);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.from(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A short silent WAV (16-bit mono, 8 kHz). */
function wavBytes(samples = 800): Buffer {
  const head = Buffer.alloc(44);
  head.write("RIFF", 0, "latin1");
  head.writeUInt32LE(36 + samples * 2, 4);
  head.write("WAVEfmt ", 8, "latin1");
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(8000, 24);
  head.writeUInt32LE(16000, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write("data", 36, "latin1");
  head.writeUInt32LE(samples * 2, 40);
  return Buffer.concat([head, Buffer.alloc(samples * 2)]);
}

async function openType(type: Type): Promise<Locator> {
  const section = page.locator(`#alert-type-${type}`);
  if ((await section.getAttribute("open")) === null) await section.locator("summary").click();
  return section;
}

describe.skipIf(!haveChromium)("the Alerts view in demo mode (a real browser)", () => {
  test("turn alerts on, allow them on Twitch's page, and every type connects", async () => {
    await openView();
    expect(await textOf(page.locator("#alerts-state"), (t) => t.length > 0)).toBe("Off");
    expect(await page.locator("#alerts-obs-hint").textContent()).toContain(
      "Browser source, width 1920, height 1080",
    );
    await page.click("#alerts-enabled");
    const settled = (t: string) => t !== "Off" && t !== "Connecting…";
    // Follows, subs and raids work with what the login granted; cheers and redemptions wait for consent.
    expect(await textOf(page.locator("#alerts-state"), settled)).toBe("Connected");
    const waiting = await textOf(page.locator("#alerts-type-states"), (t) => t.includes("Channel points"));
    expect(waiting).toContain("Cheer: Needs your permission");
    expect(waiting).not.toContain("Follow");

    // Twitch's (simulated) consent page lists the new scopes; the streamer approves.
    await page.click("#alerts-consent");
    const consent = (await page.locator("body").textContent()) ?? "";
    expect(consent).toContain("bits:read");
    expect(consent).toContain("channel:read:redemptions");
    await page.click("a.approve >> nth=0");
    await page.waitForURL(`${server.base}/dashboard#/alerts`);
    // From here on, every request stays on this server.
    watch = watchPage(page, server.base);
    expect(await textOf(page.locator("#alerts-state"), (t) => t === "Connected")).toBe("Connected");
    expect(await page.locator("#alerts-consent").count()).toBe(0);
    expect(await page.locator("#alerts-type-states").count()).toBe(0);
    const info = await api<Info>("alerts");
    expect(info.types.map((t) => t.state)).toEqual(TYPES.map(() => "connected"));
  }, 60_000);

  test("a template with an unknown placeholder is refused at its field and kept; fixed, it is saved", async () => {
    const cheer = await openType("cheer");
    const template = cheer.locator("#alert-cheer-template");
    expect(await cheer.locator(".hint").first().textContent()).toContain("{amount}");
    await template.fill("{user} cheered {bitz} bits!");
    await cheer.getByRole("button", { name: "Save" }).click();
    const error = await textOf(cheer.locator(".field-error").first(), (t) => t.length > 0);
    expect(error).toContain("{bitz} is not a placeholder");
    expect(await template.getAttribute("aria-invalid")).toBe("true");
    expect(await template.inputValue()).toBe("{user} cheered {bitz} bits!");
    expect((await settingsOf("cheer")).template).toBe("{user} cheered {amount} bits!");

    // Too long by one emoji: refused by the browser at the field, nothing sent, nothing cut.
    const long = "🎉".repeat(201);
    await template.fill(long);
    await cheer.getByRole("button", { name: "Save" }).click();
    expect(await cheer.locator(".field-error").first().textContent()).toContain("At most 200 characters");
    expect(await template.inputValue()).toBe(long);

    await template.fill("★ {user} cheered {amount} bits — شكرا!");
    await cheer.locator("#alert-cheer-chat").fill("Thanks for the {amount} bits, {user}!");
    await cheer.getByRole("button", { name: "Save" }).click();
    expect(await textOf(cheer.locator(".save-status"), (t) => t.length > 0)).toBe("Cheer alert saved.");
    expect(await template.getAttribute("aria-invalid")).toBeNull();
    const saved = await settingsOf("cheer");
    expect(saved.template).toBe("★ {user} cheered {amount} bits — شكرا!");
    expect(saved.chatMessage).toBe("Thanks for the {amount} bits, {user}!");
  }, 30_000);

  test("uploads: a PNG is taken and chosen; a wrong type, an image as a sound and a file over 1 MiB are refused at the field", async () => {
    const cheer = await openType("cheer");
    const image = cheer.locator(".alerts-asset").nth(0);
    const sound = cheer.locator(".alerts-asset").nth(1);
    expect(await image.locator(".hint").textContent()).toContain("at most 1 MiB");

    await image
      .locator("input[type=file]")
      .setInputFiles({ name: "star.png", mimeType: "image/png", buffer: pngBytes(96) });
    await textOf(image.locator("select option:checked"), (t) => t.startsWith("PNG image #"));
    const chosen = Number(await image.locator("select").inputValue());
    expect(chosen).toBeGreaterThan(0);
    // The other types' pickers offer it at once.
    expect(await page.locator("#alert-type-raid .alerts-asset select").first().textContent()).toContain(
      `#${chosen}`,
    );

    await image.locator("input[type=file]").setInputFiles({
      name: "page.png",
      mimeType: "image/png",
      buffer: Buffer.from("<html><script>alert(1)</script></html>"),
    });
    expect(await textOf(image.locator(".field-error"), (t) => t.length > 0)).toContain('"file"');
    expect(await image.locator("input[type=file]").getAttribute("aria-invalid")).toBe("true");
    expect(Number(await image.locator("select").inputValue())).toBe(chosen);

    await sound
      .locator("input[type=file]")
      .setInputFiles({ name: "sound.wav", mimeType: "audio/wav", buffer: pngBytes(8) });
    expect(await textOf(sound.locator(".field-error"), (t) => t.length > 0)).toContain('"file"');
    expect(await sound.locator("select").inputValue()).toBe("");

    await sound.locator("input[type=file]").setInputFiles({
      name: "huge.wav",
      mimeType: "audio/wav",
      buffer: Buffer.alloc(1024 * 1024 + 1),
    });
    expect(await textOf(sound.locator(".field-error"), (t) => t.includes("MiB"))).toContain("at most 1 MiB");

    await cheer.getByRole("button", { name: "Save" }).click();
    expect(await textOf(cheer.locator(".save-status"), (t) => t.length > 0)).toBe("Cheer alert saved.");
    expect((await settingsOf("cheer")).imageId).toBe(chosen);
    const assets = await api<{ items: { id: number }[] }>("alerts/assets");
    expect(assets.items.map((a) => a.id)).toEqual([chosen]);
  }, 30_000);

  test("a test alert shows in the live preview and on top of the history; Replay shows it again", async () => {
    const cheer = await openType("cheer");
    await cheer.getByRole("button", { name: "Send a test alert" }).click();
    const preview = page.frameLocator("#alerts-preview iframe");
    const shown = await textOf(preview.locator("#alert-text"), (t) => t.length > 0, 5000);
    expect(shown).toBe("★ CuebotTester cheered 500 bits — شكرا!");
    expect(await preview.locator("#alert-label").textContent()).toBe("Cheer · test");
    await preview.locator("#alert.in").waitFor();
    await Bun.sleep(600); // the way in is over
    await page.locator("#alerts-preview").screenshot({ path: screenshotPath("alerts-preview-test") });

    const first = page.locator("#alerts-history li").first();
    expect(await textOf(first, (t) => t.includes("test"))).toContain("CuebotTester · 500 bits");
    expect(await first.textContent()).toContain("★ CuebotTester cheered 500 bits — شكرا!");
    const before = await page.locator("#alerts-history li").count();
    await first.getByRole("button", { name: /^Replay/ }).click();
    await textOf(page.locator("#alerts-history li").first(), (t) => t.includes("replay"));
    expect(await page.locator("#alerts-history li").count()).toBe(before + 1);
  }, 30_000);

  test("by keyboard: a type opens with Enter, a minimum out of range is refused at its field, markup stays text", async () => {
    await page.locator("#alert-type-raid summary").focus();
    await page.keyboard.press("Enter");
    expect(await page.locator("#alert-type-raid").getAttribute("open")).not.toBeNull();
    const raid = page.locator("#alert-type-raid");
    await raid.locator("#alert-raid-min").fill("-1");
    await raid.locator("#alert-raid-template").fill("<b>{user}</b> raids with {viewers}!");
    await raid.locator("#alert-raid-template").press("Enter");
    expect(await textOf(raid.locator("#alert-raid-min ~ .field-error"), (t) => t.length > 0)).toContain("0");
    expect(await raid.locator("#alert-raid-min").getAttribute("aria-invalid")).toBe("true");
    expect(await raid.locator("#alert-raid-template").inputValue()).toBe(
      "<b>{user}</b> raids with {viewers}!",
    );

    await raid.locator("#alert-raid-min").fill("10");
    await raid.locator("#alert-raid-template").press("Enter");
    expect(await textOf(raid.locator(".save-status").first(), (t) => t.length > 0)).toBe("Raid alert saved.");
    await raid.getByRole("button", { name: "Send a test alert" }).click();
    const first = page.locator("#alerts-history li").first();
    expect(await textOf(first, (t) => t.includes("raids with"))).toContain(
      "<b>CuebotTester</b> raids with 42!",
    );
    expect(await page.locator("#alerts-history b").count()).toBe(0);
    const preview = page.frameLocator("#alerts-preview iframe");
    await textOf(preview.locator("#alert-text"), (t) => t.includes("<b>CuebotTester</b>"), 15_000);
    expect(await preview.locator("#alert b").count()).toBe(0);
    // Back to the default text for the overlay screenshots below.
    const reset = await page.request.put(`${server.base}/api/dashboard/alerts/types/raid`, {
      headers: { origin: server.base },
      data: { template: "{user} is raiding with {amount} viewers!" },
    });
    expect(reset.status()).toBe(200);
  }, 30_000);

  test("in the demo, each simulated event shows on the alerts-only overlay (a screenshot of each)", async () => {
    // Short alerts, so seven follow each other quickly.
    for (const type of TYPES) {
      const put = await page.request.put(`${server.base}/api/dashboard/alerts/types/${type}`, {
        headers: { origin: server.base },
        data: { durationSeconds: 2 },
      });
      expect(put.status()).toBe(200);
    }
    const { alertsOnlyUrl } = await api<Info>("alerts");
    // A fresh browser profile, as OBS would be: it has shown no alert yet.
    const obs = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    try {
      const overlay = await obs.newPage();
      const seen = watchPage(overlay, server.base);
      const link = new URL(alertsOnlyUrl);
      await overlay.goto(`${server.base}${link.pathname}${link.search}`);
      await Bun.sleep(500);
      const expected: Record<Type, RegExp> = {
        follow: /just followed!$/,
        subscribe: /subscribed!$/,
        resub: /subscribed for \d+ months!$/,
        gift: /gifted 5 subs!$/,
        cheer: /cheered 100 bits — شكرا!$/,
        raid: /is raiding with 42 viewers!$/,
        redemption: /redeemed .+!$/,
      };
      await openView();
      for (const type of TYPES) {
        await page.click(`#alerts-simulate-${type}`);
        const text = await textOf(
          overlay.locator("#alert.in #alert-text"),
          (t) => expected[type].test(t),
          20_000,
        );
        expect(text).not.toContain("undefined");
        await Bun.sleep(500); // the way in is over
        await overlay.screenshot({ path: screenshotPath(`overlay-demo-${type}`), omitBackground: true });
      }
      expect(seen.problems).toEqual([]);
      // The history lists them, newest first.
      const history = await textOf(page.locator("#alerts-history li").first(), (t) =>
        t.includes("Channel points"),
      );
      expect(history).not.toContain("test");
    } finally {
      await obs.close();
    }
  }, 90_000);

  test("the view at 360 and 1280 px, light and dark: no sideways scrolling, axe clean, nothing broken", async () => {
    await openView();
    await openType("cheer");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
        await Bun.sleep(100);
        expect({ width, scheme, overflow: await horizontalOverflow(page) }).toEqual({
          width,
          scheme,
          overflow: 0,
        });
        expect(await axeViolations(page)).toEqual([]);
        const name = scheme === "light" ? `alerts-view-${width}` : `alerts-view-${width}-dark`;
        await page.screenshot({ path: screenshotPath(name), fullPage: true });
        await page.locator("#alert-type-cheer").screenshot({ path: screenshotPath(`${name}-cheer`) });
        await page.locator("#alerts-history").screenshot({ path: screenshotPath(`${name}-history`) });
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 800 });
    // The refusals asked for above are the only failed requests the browser logged.
    expect(watch.problems.filter((p) => !p.includes("status of 400"))).toEqual([]);
  }, 60_000);
});

/** A second tab of the same session whose timers the test moves on (page.clock), `aheadMs` in the future. */
async function clockedView(aheadMs = 0): Promise<Page> {
  const tab = await context.newPage();
  await tab.clock.install({ time: Date.now() + aheadMs });
  await tab.goto(`${server.base}/dashboard#/alerts`);
  await tab.locator("#alerts-state").waitFor();
  return tab;
}

const HISTORY = "**/api/dashboard/alerts/history?*";

describe.skipIf(!haveChromium)("the Alerts view when cuebot is slow, busy or changed elsewhere", () => {
  test("a slow server: one history poll at a time, and its answer is drawn", async () => {
    let inFlight = 0;
    let most = 0;
    let asked = 0;
    const tab = await context.newPage();
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
      await tab.goto(`${server.base}/dashboard#/alerts`);
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
    const second = page
      .locator("#alerts-history li")
      .nth(1)
      .getByRole("button", { name: /^Replay/ });
    const label = await second.getAttribute("aria-label");
    const before = await page.locator("#alerts-history li").count();
    await second.focus();
    await page.keyboard.press("Enter");
    await textOf(page.locator("#alerts-history li").first(), (t) => t.includes("replay"));
    expect(await page.locator("#alerts-history li").count()).toBe(Math.min(before + 1, 20));
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(label);
    expect(await page.locator("#alerts-history-note").textContent()).toContain("below a minimum");
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
    await page.route("**/api/dashboard/alerts/types/cheer", (route) => route.abort("internetdisconnected"));
    await cheer.getByRole("button", { name: "Save" }).click();
    expect(await textOf(cheer.locator(".save-status").first(), (t) => t.length > 0)).toContain(
      "cuebot did not answer; check your connection and try again.",
    );
    await page.unroute("**/api/dashboard/alerts/types/cheer");
    await template.fill(saved);
    expect(await test.isDisabled()).toBe(false);
    expect(await cheer.locator("#alert-cheer-test-hint").isVisible()).toBe(false);
    expect(await page.locator("#alerts-preview iframe").getAttribute("allow")).toBe("autoplay 'none'");
  }, 30_000);

  test("your files: n of 20, a thumbnail, and Delete (confirmed) leaves the types with none", async () => {
    await openView();
    const files = page.locator("#alerts-files");
    expect(await page.locator("#alerts-files-count").textContent()).toBe("1 of 20 files.");
    // A sound: a player in the picker and in the list.
    const sound = (await openType("cheer")).locator(".alerts-asset").nth(1);
    await sound
      .locator("input[type=file]")
      .setInputFiles({ name: "ding.wav", mimeType: "audio/wav", buffer: wavBytes() });
    await sound.locator(".alerts-asset-preview audio[controls]").waitFor();
    await textOf(page.locator("#alerts-files-count"), (t) => t === "2 of 20 files.");
    expect(await files.locator("audio[controls]").count()).toBe(1);
    const thumb = files.locator("img.alerts-thumb");
    await thumb.waitFor();
    await page.waitForFunction(
      () => (document.querySelector("img.alerts-thumb") as HTMLImageElement | null)?.naturalWidth === 96,
    );
    expect(await page.locator("#alert-type-cheer .alerts-asset-preview img").count()).toBe(1);
    await page.locator("#alerts-files").screenshot({ path: screenshotPath("alerts-files") });
    await files.getByRole("button", { name: /^Delete PNG image/ }).click();
    const dialog = page.locator("dialog[open]");
    expect(await dialog.textContent()).toContain("show no image");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await textOf(page.locator("#alerts-files-count"), (t) => t === "1 of 20 files.");
    expect(await files.locator("img").count()).toBe(0);
    expect(await page.locator("#alert-type-cheer .alerts-asset select").first().inputValue()).toBe("");
    expect((await settingsOf("cheer")).imageId).toBeNull();
  }, 30_000);
});
