// The Alerts view in Chromium against `cuebot serve --demo`: alerts turned on through the simulated
// Twitch consent page, a type's settings refused and kept at the field then saved, uploads checked at
// the field, a test alert in the live preview and the history, replay, every type simulated and shown
// on the alerts-only overlay (one screenshot each), and the view at 360 and 1280 px, light and dark.
import { describe, expect, test } from "bun:test";
import {
  haveChromium,
  onEveryScreen,
  type PageWatch,
  screenshotPath,
  textOf,
  useDemoDashboard,
  watchPage,
} from "../helpers/browser.ts";
import {
  type Info,
  openAlertsView,
  openAlertType,
  pngBytes,
  type Settings,
  settingsOf as settingsFor,
  TYPES,
  type Type,
} from "./alerts-page.ts";

const demo = useDemoDashboard();
let watch: PageWatch;

const openView = () => openAlertsView(demo.page, demo.base);
const openType = (type: Type) => openAlertType(demo.page, type);
const settingsOf = (type: Type): Promise<Settings> => settingsFor(demo.page, demo.base, type);

describe.skipIf(!haveChromium)("the Alerts view in demo mode (a real browser)", () => {
  test("turn alerts on, allow them on Twitch's page, and every type connects", async () => {
    await openView();
    expect(await textOf(demo.page.locator("#alerts-state"), (t) => t.length > 0)).toBe("Off");
    expect(await demo.page.locator("#alerts-obs-hint").textContent()).toContain(
      "Browser source, width 1920, height 1080",
    );
    await demo.page.click("#alerts-enabled");
    const settled = (t: string) => t !== "Off" && t !== "Connecting…";
    // Follows, subs and raids work with what the login granted; cheers and redemptions wait for consent.
    expect(await textOf(demo.page.locator("#alerts-state"), settled)).toBe("Connected");
    const waiting = await textOf(demo.page.locator("#alerts-type-states"), (t) =>
      t.includes("Channel points"),
    );
    expect(waiting).toContain("Cheer: Needs your permission");
    expect(waiting).not.toContain("Follow");

    // Twitch's (simulated) consent page lists the new scopes; the streamer approves.
    const consent = await demo.allowOnTwitch("alerts");
    expect(consent).toContain("bits:read");
    expect(consent).toContain("channel:read:redemptions");
    // From here on, every request stays on this server.
    watch = watchPage(demo.page, demo.base);
    expect(await textOf(demo.page.locator("#alerts-state"), (t) => t === "Connected")).toBe("Connected");
    expect(await demo.page.locator("#alerts-consent").count()).toBe(0);
    expect(await demo.page.locator("#alerts-type-states").count()).toBe(0);
    const info = await demo.panel<Info>("alerts");
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
    expect(await demo.page.locator("#alert-type-raid .alerts-asset select").first().textContent()).toContain(
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
    const assets = await demo.panel<{ items: { id: number }[] }>("alerts/assets");
    expect(assets.items.map((a) => a.id)).toEqual([chosen]);
  }, 30_000);

  test("a test alert shows in the live preview and on top of the history; Replay shows it again", async () => {
    const cheer = await openType("cheer");
    await cheer.getByRole("button", { name: "Send a test alert" }).click();
    const preview = demo.page.frameLocator("#alerts-preview iframe");
    const shown = await textOf(preview.locator("#alert-text"), (t) => t.length > 0, 5000);
    expect(shown).toBe("★ CuebotTester cheered 500 bits — شكرا!");
    expect(await preview.locator("#alert-label").textContent()).toBe("Cheer · test");
    await preview.locator("#alert.in").waitFor();
    await Bun.sleep(600); // the way in is over
    await demo.page.locator("#alerts-preview").screenshot({ path: screenshotPath("alerts-preview-test") });

    const first = demo.page.locator("#alerts-history li").first();
    expect(await textOf(first, (t) => t.includes("test"))).toContain("CuebotTester · 500 bits");
    expect(await first.textContent()).toContain("★ CuebotTester cheered 500 bits — شكرا!");
    const before = await demo.page.locator("#alerts-history li").count();
    await first.getByRole("button", { name: /^Replay/ }).click();
    await textOf(demo.page.locator("#alerts-history li").first(), (t) => t.includes("replay"));
    expect(await demo.page.locator("#alerts-history li").count()).toBe(before + 1);
  }, 30_000);

  test("by keyboard: a type opens with Enter, a minimum out of range is refused at its field, markup stays text", async () => {
    await demo.page.locator("#alert-type-raid summary").focus();
    await demo.page.keyboard.press("Enter");
    expect(await demo.page.locator("#alert-type-raid").getAttribute("open")).not.toBeNull();
    const raid = demo.page.locator("#alert-type-raid");
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
    const first = demo.page.locator("#alerts-history li").first();
    expect(await textOf(first, (t) => t.includes("raids with"))).toContain(
      "<b>CuebotTester</b> raids with 42!",
    );
    expect(await demo.page.locator("#alerts-history b").count()).toBe(0);
    const preview = demo.page.frameLocator("#alerts-preview iframe");
    await textOf(preview.locator("#alert-text"), (t) => t.includes("<b>CuebotTester</b>"), 15_000);
    expect(await preview.locator("#alert b").count()).toBe(0);
    // Back to the default text for the overlay screenshots below.
    const reset = await demo.page.request.put(`${demo.base}/api/dashboard/alerts/types/raid`, {
      headers: { origin: demo.base },
      data: { template: "{user} is raiding with {amount} viewers!" },
    });
    expect(reset.status()).toBe(200);
  }, 30_000);

  test("in the demo, each simulated event shows on the alerts-only overlay (a screenshot of each)", async () => {
    // Short alerts, so seven follow each other quickly.
    for (const type of TYPES) {
      const put = await demo.page.request.put(`${demo.base}/api/dashboard/alerts/types/${type}`, {
        headers: { origin: demo.base },
        data: { durationSeconds: 2 },
      });
      expect(put.status()).toBe(200);
    }
    const { alertsOnlyUrl } = await demo.panel<Info>("alerts");
    // A fresh browser profile, as OBS would be: it has shown no alert yet.
    const obs = await demo.browser.newContext({ viewport: { width: 1920, height: 1080 } });
    try {
      const overlay = await obs.newPage();
      const seen = watchPage(overlay, demo.base);
      const link = new URL(alertsOnlyUrl);
      await overlay.goto(`${demo.base}${link.pathname}${link.search}`);
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
        await demo.page.click(`#alerts-simulate-${type}`);
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
      const history = await textOf(demo.page.locator("#alerts-history li").first(), (t) =>
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
    await onEveryScreen(demo.page, async (screen) => {
      const name = `alerts-view-${screen.name}`;
      await demo.page.screenshot({ path: screenshotPath(name), fullPage: true });
      await demo.page.locator("#alert-type-cheer").screenshot({ path: screenshotPath(`${name}-cheer`) });
      await demo.page.locator("#alerts-history").screenshot({ path: screenshotPath(`${name}-history`) });
    });
    // The refusals asked for above are the only failed requests the browser logged.
    expect(watch.problems.filter((p) => !p.includes("status of 400"))).toEqual([]);
  }, 60_000);
});
