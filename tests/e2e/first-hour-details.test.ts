// Issue 36's smaller items in Chromium against `cuebot serve --demo`: one OBS size for both overlay
// links, the 8-ball's answers read whole at 360 and 1280 px, Reveal becomes Hide, the alerts' "Save
// first" hint follows what is really saved, and the game commands (one VALORANT player, detail levels
// in words, where the key comes from; the demo's !rank answers a rank). Each changed view is
// screenshotted at 360 and 1280 px, light and dark.
import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { OVERLAY_SOURCE_SIZE } from "../../server/vocabulary.ts";
import {
  expectFits,
  haveChromium,
  horizontalOverflow,
  SCREENS,
  screenshotPath,
  textOf,
  useDemoDashboard,
} from "../helpers/browser.ts";
import { pngBytes } from "./alerts-page.ts";

const demo = useDemoDashboard();

/** A full load of a view, its data arrived. */
async function open(on: Page, view: string, ready: string): Promise<void> {
  await on.goto("about:blank");
  await on.goto(`${demo.base}/dashboard#/${view}`);
  await on.locator(ready).first().waitFor();
  await on.locator("[aria-busy=true]").first().waitFor({ state: "detached" });
}

/** Every answer box of the 8-ball shows all of its text: nothing scrolled or clipped away. */
function hiddenAnswerText(on: Page): Promise<string[]> {
  return on.evaluate(() =>
    [...document.querySelectorAll<HTMLTextAreaElement>("#command-magic8 .answers textarea")]
      .filter((a) => a.scrollWidth > a.clientWidth + 1 || a.scrollHeight > a.clientHeight + 1)
      .map((a) => a.value),
  );
}

const SIZE = `width ${OVERLAY_SOURCE_SIZE.width}, height ${OVERLAY_SOURCE_SIZE.height}`;

describe.skipIf(!haveChromium)("issue 36's smaller items (a real browser, serve --demo)", () => {
  test("both overlay links give OBS the size the overlay page is made for", async () => {
    // Each preview lays the page out at that size, shrunk to its card, as OBS will show it.
    const previewSize = () =>
      demo.page.locator(".preview-frame iframe").evaluate((f) => [f.clientWidth, f.clientHeight]);
    const size = [OVERLAY_SOURCE_SIZE.width, OVERLAY_SOURCE_SIZE.height];
    await open(demo.page, "overlays", "#overlay-url");
    const overlays = (await demo.page.locator("#overlay-obs-hint").textContent()) ?? "";
    expect(await previewSize()).toEqual(size);
    await open(demo.page, "alerts", "#alerts-obs-hint");
    const alerts = (await demo.page.locator("#alerts-obs-hint").textContent()) ?? "";
    expect(await previewSize()).toEqual(size);
    for (const hint of [overlays, alerts]) {
      expect(hint).toContain(`Browser source, ${SIZE}`);
      expect(hint).not.toContain("800");
    }
  }, 30_000);

  test("the 8-ball's answers read whole at 360 and 1280 px, a 200-character one too", async () => {
    for (const width of [360, 1280]) {
      await demo.page.setViewportSize({ width, height: 800 });
      await open(demo.page, "commands", "#command-magic8 .answers textarea");
      expect(await hiddenAnswerText(demo.page)).toEqual([]);
      const card = demo.page.locator("#command-magic8");
      await card.getByRole("button", { name: "Add an answer" }).click();
      const long = `${"Reply hazy, the stars are busy tonight; ".repeat(5)}`.slice(0, 200);
      const last = card.locator(".answers textarea").last();
      await last.fill(long);
      expect(await hiddenAnswerText(demo.page)).toEqual([]);
      // An answer is one chat line: Enter adds no line break.
      await last.press("End");
      await last.press("Enter");
      expect(await last.inputValue()).toBe(long);
      expect(await horizontalOverflow(demo.page)).toBe(0);
      await card.screenshot({ path: screenshotPath(`i36-magic8-${width}`) });
    }
    await demo.page.setViewportSize({ width: 1280, height: 800 });
  }, 40_000);

  test("Reveal becomes Hide, and Hide masks the key again (Security and Bot setup)", async () => {
    await open(demo.page, "security", "#api-key");
    const reveal = demo.page.locator("#reveal-key");
    await reveal.click();
    const key = await textOf(demo.page.locator("#api-key"), (t) => /^[0-9a-f-]{36}$/.test(t));
    expect(await reveal.textContent()).toBe("Hide");
    expect(await demo.page.locator("#copy-key").isVisible()).toBe(true);
    await reveal.click();
    expect(await demo.page.locator("#api-key").textContent()).not.toContain(key);
    expect(await reveal.textContent()).toBe("Reveal");
    expect(await demo.page.locator("#copy-key").isVisible()).toBe(false);
    expect(await demo.page.locator("#key-countdown").textContent()).toBe("");

    await open(demo.page, "bots", ".line-card code.line");
    const show = demo.page.locator("#show-key-in-lines");
    expect(await show.textContent()).toBe("Show my key in the lines");
    await show.click();
    await textOf(demo.page.locator(".line-card code.line"), (t) => t.includes(key));
    expect(await show.textContent()).toBe("Hide my key in the lines");
    expect(await show.isDisabled()).toBe(false);
    await show.click();
    await textOf(demo.page.locator(".line-card code.line"), (t) => !t.includes(key));
    expect(await show.textContent()).toBe("Show my key in the lines");
  }, 30_000);

  test("“Save first” shows while the form differs from what is saved, and goes once it does not", async () => {
    await open(demo.page, "alerts", "#alerts-state");
    const cheer = demo.page.locator("#alert-type-cheer");
    await cheer.locator("summary").click();
    const hint = cheer.locator("#alert-cheer-test-hint");
    const test = cheer.locator("#alert-cheer-test");
    expect(await hint.isVisible()).toBe(false);
    // An upload is chosen at once: not saved yet, so the test waits for a save.
    await cheer
      .locator(".alerts-asset")
      .first()
      .locator("input[type=file]")
      .setInputFiles({ name: "cheer.png", mimeType: "image/png", buffer: pngBytes(8) });
    await cheer.locator(".alerts-asset-preview img").waitFor();
    await hint.waitFor();
    expect(await test.isDisabled()).toBe(true);
    await cheer.getByRole("button", { name: "Save" }).click();
    await textOf(cheer.locator(".save-status").first(), (t) => t === "Cheer alert saved.");
    expect(await hint.isVisible()).toBe(false);
    expect(await test.isDisabled()).toBe(false);

    // Deleting the file leaves the type with none on the server too: nothing is left to save.
    await demo.page
      .locator("#alerts-files")
      .getByRole("button", { name: /^Delete PNG image/ })
      .click();
    await demo.page.locator("dialog[open]").getByRole("button", { name: "Delete" }).click();
    await textOf(demo.page.locator("#alerts-files-count"), (t) => t === "0 of 20 files.");
    const info = await demo.panel<{ types: { type: string; settings: { imageId: number | null } }[] }>(
      "alerts",
    );
    expect(info.types.find((t) => t.type === "cheer")?.settings.imageId).toBeNull();
    expect(await hint.isVisible()).toBe(false);
    expect(await test.isDisabled()).toBe(false);
  }, 30_000);

  test("game commands: one VALORANT player for the four, detail levels in words, where the numbers come from", async () => {
    await open(demo.page, "commands", "#game-player");
    const card = demo.page.locator("#game-player");
    expect(await card.locator("h2").textContent()).toBe("Your VALORANT player");
    // The demo starts with the player its simulated provider knows.
    expect(await card.getByLabel("Riot ID").inputValue()).toBe("Kestrel#EUW");
    expect(await card.getByLabel("Region").inputValue()).toBe("eu");
    const note = (await card.locator("#game-provider").textContent()) ?? "";
    expect(note).toContain("HenrikDev's VALORANT API");
    expect(note).toContain("Kestrel#EUW");
    expect(await demo.page.locator("main").textContent()).not.toContain("Detail (1–3");
    expect(await demo.page.locator("main").textContent()).not.toContain("game API's type");

    const rank = demo.page.locator("#command-rank");
    expect(await rank.getByRole("radio", { name: /Tier and RR/ }).isChecked()).toBe(true);
    await rank.getByRole("button", { name: "Try it" }).click();
    expect(await textOf(rank.locator(".preview"), (t) => t.includes("Chat would show"))).toMatch(
      /Chat would show:\S* ?\w+ \d - \d+ RR/,
    );

    // A wrong Riot ID is refused at the field; a right one is saved for all four.
    await card.getByLabel("Riot ID").fill("Night Owl");
    await card.getByRole("button", { name: "Save for all four" }).click();
    expect(await card.getByLabel("Riot ID").getAttribute("aria-invalid")).toBe("true");
    await card.getByLabel("Riot ID").fill("Night Owl#NA1");
    await card.getByLabel("Region").selectOption("na");
    await card.getByRole("button", { name: "Save for all four" }).click();
    expect(await textOf(card.locator(".save-status"), (t) => t.length > 0)).toBe(
      "Saved: !rank, !lastmatch, !today and !stats report on Night Owl#NA1 (North America).",
    );
    const commands = await demo.panel<{ command: string; options: Record<string, unknown> }[]>("commands");
    for (const command of ["rank", "lastmatch", "today", "stats"]) {
      expect(commands.find((c) => c.command === command)?.options).toMatchObject({
        region: "na",
        name: "Night Owl",
        tag: "NA1",
      });
    }
    // "Tier" alone, saved: the rank line is the tier only.
    await rank.getByRole("radio", { name: /^Tier Gold 2$/ }).check();
    await rank.getByRole("button", { name: "Save" }).click();
    await textOf(rank.locator(".save-status"), (t) => t === "Saved.");
    expect(
      (await demo.panel<{ command: string; options: { type: number } }[]>("commands")).find(
        (c) => c.command === "rank",
      )?.options.type,
    ).toBe(1);
    // Back to the demo's player for the chat below.
    await card.getByLabel("Riot ID").fill("Kestrel#EUW");
    await card.getByLabel("Region").selectOption("eu");
    await card.getByRole("button", { name: "Save for all four" }).click();
    await textOf(card.locator(".save-status"), (t) => t.includes("Kestrel#EUW"));
  }, 40_000);

  test("the demo chat's !rank answers a rank", async () => {
    await open(demo.page, "chat", "#chat-state");
    await demo.page.click("#chat-enabled");
    await textOf(demo.page.locator("#chat-state"), (t) => t === "Needs your permission");
    await demo.allowOnTwitch("chat");
    await textOf(demo.page.locator("#chat-state"), (t) => t === "Connected");
    await demo.page.fill("#demo-chat-text", "!rank");
    await demo.page.click("#demo-chat-send");
    const reply = await textOf(demo.page.locator("#demo-chat-log li.from-cuebot"), (t) => t.length > 0);
    expect(reply).not.toContain("not set");
    expect(reply).toMatch(/[A-Z][a-z]+ \d/);
  }, 40_000);

  for (const screen of SCREENS) {
    test(`the changed views at ${screen.width} px (${screen.colorScheme}): no overflow, axe clean, screenshots`, async () => {
      await demo.inSession(screen, async (view) => {
        const views: [string, string][] = [
          ["commands", "#game-player"],
          ["overlays", "#overlay-obs-hint"],
          ["alerts", "#alerts-obs-hint"],
          ["security", "#api-key"],
          ["bots", ".line-card code.line"],
        ];
        for (const [id, ready] of views) {
          await open(view, id, ready);
          if (id === "security") await view.click("#reveal-key");
          if (id === "bots") await view.click("#show-key-in-lines");
          await expectFits(view, id);
          await view.screenshot({ path: screenshotPath(`i36-${id}-${screen.name}`), fullPage: true });
          if (id === "commands") {
            for (const card of ["game-player", "command-rank", "command-magic8"])
              await view
                .locator(`#${card}`)
                .screenshot({ path: screenshotPath(`i36-${card}-${screen.name}`) });
          }
        }
      });
    }, 90_000);
  }
});
