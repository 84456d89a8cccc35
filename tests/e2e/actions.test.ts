// The OBS, Actions and Deck views in Chromium against `cuebot serve --demo`, whose simulated OBS the
// demo account is connected to from its first login: the OBS view connected to OBS 29.0.2 with its
// scenes, a bad address refused at its field, a wrong password then the right one; an action made in
// the editor (a refusal at the field it names first), run now with each step's outcome; the Deck's
// buttons switching the simulated OBS's scene; a raid switching it through the demo's raid action;
// each view at 360 and 1280 px, light and dark, axe-clean, screenshot.
import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { Action, ActionList, DemoProgram, ObsInfo } from "../../server/web/app/lib/types.ts";
import {
  haveChromium,
  onEveryScreen,
  SCREENS,
  screenshotPath,
  textOf,
  useDemoDashboard,
} from "../helpers/browser.ts";

const demo = useDemoDashboard({ watch: true });
/** Where the screenshots are also kept for the review. */
const SHOTS = process.env.CUEBOT_SHOTS_DIR ?? null;

async function openView(view: string, ready: string): Promise<Page> {
  await demo.page.goto("about:blank");
  await demo.page.goto(`${demo.base}/dashboard#/${view}`);
  await demo.page.locator(ready).first().waitFor();
  expect(await demo.page.locator(".state-error").count()).toBe(0);
  return demo.page;
}

const program = () => demo.panel<DemoProgram>("demo/obs");
const programScene = (scene: string) => demo.panelUntil<DemoProgram>("demo/obs", (p) => p.scene === scene);

/** The view on every screen, axe-clean with no sideways scrolling, a full-page screenshot of each. */
async function everyScreen(page: Page, name: string): Promise<void> {
  await onEveryScreen(page, async (screen) => {
    const path = screenshotPath(`${name}-${screen.name}`);
    await page.screenshot({ path, fullPage: true });
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      copyFileSync(path, join(SHOTS, `${name}-${screen.name}.png`));
    }
  });
}

describe.skipIf(!haveChromium)("OBS, Actions and the Deck in demo mode (a real browser)", () => {
  test("the demo's OBS is connected: OBS 29.0.2, its scenes and sources, its program on Live", async () => {
    const page = await openView("obs", "#obs-state");
    expect(await textOf(page.locator("#obs-state"), (t) => t === "Connected")).toBe("Connected");
    expect(await textOf(page.locator("#obs-version"), (t) => t.length > 0)).toBe("OBS Studio 29.0.2");
    expect(await textOf(page.locator("#obs-scenes"), (t) => t.includes("Raid"))).toContain("Starting soon");
    expect(await page.locator("#obs-sources").textContent()).toContain("Raid banner");
    expect(await page.locator("#obs-password-set").textContent()).toContain("A password is stored");
    expect(await page.locator("#obs-password").inputValue()).toBe("");
    expect(await textOf(page.locator("#demo-program-scene"), (t) => t.length > 0)).toBe("Live");
    expect(await page.locator("#demo-program").textContent()).toContain("Raid alarmhidden");
    expect((await program()).scene).toBe("Live");
    // Another login (a second session) connects nothing again and adds no action.
    const before = await demo.panel<ObsInfo>("obs");
    await demo.inSession(SCREENS[0], async () => {});
    expect((await demo.panel<ActionList>("actions")).items).toHaveLength(4);
    expect((await demo.panel<ObsInfo>("obs")).since).toBe(before.since);
  }, 30_000);

  test("OBS settings: a bad address at its field; a wrong password, then the right one, connects", async () => {
    const page = demo.page;
    const before = await demo.panel<ObsInfo>("obs");
    await page.fill("#obs-url", "http://127.0.0.1:4455");
    await page.click("#obs-save");
    expect(await textOf(page.locator("#obs-url ~ .field-error"), (t) => t.length > 0)).toContain("ws://");
    expect(await page.locator("#obs-url").getAttribute("aria-invalid")).toBe("true");
    expect((await demo.panel<ObsInfo>("obs")).url).toBe(before.url);
    demo.watch.problems.length = 0; // the refusal's 400, as the browser logs it

    await page.fill("#obs-url", before.url);
    await page.fill("#obs-password", "not-the-password");
    await page.click("#obs-save");
    expect(await textOf(page.locator("#obs-state"), (t) => t === "Wrong password")).toBe("Wrong password");
    expect(await page.locator("#obs-reason").textContent()).toContain("Show Connect Info");
    expect(await page.locator("#obs-password").inputValue()).toBe("");
    await page.fill("#obs-password", "cuebot-demo");
    await page.click("#obs-save");
    expect(await textOf(page.locator("#obs-state"), (t) => t === "Connected")).toBe("Connected");
    const saved = await demo.panel<ObsInfo>("obs");
    const password = await demo.panel<{ set: boolean }>("obs/password");
    expect([saved.state, password.set, JSON.stringify(saved).includes("cuebot-demo")]).toEqual([
      "connected",
      true,
      false,
    ]);
    await everyScreen(page, "obs");
  }, 60_000);

  test("the editor: a built-in's name refused at its field; an action added with ordered steps, run now", async () => {
    const page = await openView("actions", ".action-item");
    expect(await page.locator(".action-name").allTextContents()).toEqual([
      "Raid welcome",
      "Be right back",
      "Back to live",
      "Raid alarm",
    ]);
    const form = page.locator("#actions-editor form");
    await form.getByLabel("Name", { exact: true }).fill("Go BRB");
    await form.getByLabel("Trigger", { exact: true }).selectOption("command");
    await form.getByLabel("Chat command", { exact: true }).fill("!followage");
    await form.getByLabel("Scene", { exact: true }).fill("BRB");
    await page.selectOption("#action-step-type", "wait");
    await page.click("#action-step-add");
    // Fractions of a second, as the server takes them.
    await form.getByLabel("Seconds", { exact: true }).fill("0.5");
    // The wait goes first, then back down: the order is what is saved.
    await form.locator('[data-step="1"] [data-control="up"]').click();
    expect(await form.locator(".action-step h4").allTextContents()).toEqual([
      "Step 1: Wait",
      "Step 2: Switch OBS's scene",
    ]);
    // A text source's text may span lines (a text box, its line breaks kept).
    await page.selectOption("#action-step-type", "obs.text");
    await page.click("#action-step-add");
    await form.getByLabel("Text source", { exact: true }).fill("Raid banner");
    await form.getByLabel("Text", { exact: true }).fill("Be right back\nwith {user}");
    await everyScreen(page, "actions-editor");
    await page.click("#action-save");
    const refusal = await textOf(form.locator(".action-trigger .field-error"), (t) => t.length > 0);
    expect(refusal).toContain("trigger.command");
    expect(await form.getByLabel("Chat command", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect((await demo.panel<ActionList>("actions")).items).toHaveLength(4);
    demo.watch.problems.length = 0; // the refusal's 400, as the browser logs it

    await form.getByLabel("Trigger", { exact: true }).selectOption("button");
    await page.click("#action-save");
    const list = await demo.panelUntil<ActionList>("actions", (l) => l.items.length === 5);
    const added = list.items.find((a) => a.name === "Go BRB") as Action;
    expect(added.trigger).toEqual({ type: "button" });
    expect(added.steps).toEqual([
      { type: "wait", seconds: 0.5 },
      { type: "obs.scene", scene: "BRB" },
      { type: "obs.text", source: "Raid banner", text: "Be right back\nwith {user}" },
    ]);
    const item = page.locator(`[data-action-id="${added.id}"]`);
    await item.waitFor();
    await item.getByRole("button", { name: /^Run now: / }).click();
    expect(await textOf(item.locator(".action-run-out"), (t) => t.includes("Done"))).toContain(
      "Done (3 steps).",
    );
    expect(await item.locator(".action-outcomes li").allTextContents()).toEqual([
      "Wait: done",
      "Switch OBS's scene: done",
      "Set a text source's text: done",
    ]);
    await programScene("BRB");
    await item.locator("summary").click();
    expect(await textOf(item.locator(".action-runs"), (t) => t.length > 0)).toContain("by");
  }, 60_000);

  test("editing an action: a scene OBS does not have is saved, and Run now says which", async () => {
    const page = demo.page;
    const item = page.locator(".action-item", { hasText: "Go BRB" });
    await item.getByRole("button", { name: "Edit Go BRB" }).click();
    const form = page.locator("#actions-editor form");
    await form.locator('[data-step="0"] [data-control="remove"]').click();
    await form.locator('[data-step="1"] [data-control="remove"]').click();
    await form.getByLabel("Scene", { exact: true }).fill("Nowhere");
    await page.click("#action-save");
    await demo.panelUntil<ActionList>("actions", (l) =>
      l.items.some((a) => a.name === "Go BRB" && a.steps.length === 1),
    );
    const edited = page.locator(".action-item", { hasText: "Go BRB" });
    await edited.getByRole("button", { name: /^Run now: / }).click();
    expect(await textOf(edited.locator(".action-run-out"), (t) => t.includes("Failed"))).toContain(
      'OBS has no scene "Nowhere"',
    );
    await everyScreen(page, "actions");
  }, 60_000);

  test("the Deck: a press runs the action and says so on its button; the program follows", async () => {
    // Names as a streamer (or a troll with their session) might type them: markup, a right-to-left
    // override, emoji, one unbroken word as long as allowed. Shown as text, on a 360 px screen too.
    for (const name of ["<img src=x onerror=alert(1)> \u202Egnp.exe 🎉", "W".repeat(50)]) {
      const made = await demo.page.request.post(`${demo.base}/api/dashboard/actions`, {
        headers: { origin: demo.base },
        data: { name, trigger: { type: "button" }, steps: [{ type: "wait", seconds: 1 }] },
      });
      expect(made.status()).toBe(200);
    }
    const page = await openView("deck", ".deck-button");
    expect(await page.locator(".deck-name").allTextContents()).toContain(
      "<img src=x onerror=alert(1)> \u202Egnp.exe 🎉",
    );
    expect(await page.locator(".deck img").count()).toBe(0);
    const back = page.locator(".deck-button", { hasText: "Back to live" });
    await back.click();
    expect(await textOf(back.locator(".deck-note"), (t) => t.startsWith("Done"))).toBe("Done (1 step).");
    expect(await back.getAttribute("data-outcome")).toBe("ok");
    expect(await textOf(page.locator("#demo-program-scene"), (t) => t === "Live")).toBe("Live");
    const broken = page.locator(".deck-button", { hasText: "Go BRB" });
    await broken.click();
    expect(await textOf(broken.locator(".deck-note"), (t) => t.startsWith("Failed"))).toContain("Nowhere");
    // Buttons large enough for a thumb on a phone.
    await page.setViewportSize({ width: 360, height: 740 });
    const box = await back.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(96);
    expect(box!.width).toBeGreaterThanOrEqual(140);
    await everyScreen(page, "deck");
  }, 60_000);

  test("deleting an action asks first; confirmed, it is gone from the list and the Deck", async () => {
    const page = await openView("actions", ".action-item");
    const before = (await demo.panel<ActionList>("actions")).items.length;
    const long = "W".repeat(50);
    await page.getByRole("button", { name: `Delete ${long}` }).click();
    const dialog = page.locator("dialog[open]");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await demo.panelUntil<ActionList>("actions", (l) => l.items.length === before - 1);
    await page.locator(".action-name", { hasText: long }).waitFor({ state: "detached" });
    await openView("deck", ".deck-button");
    expect(await page.locator(".deck-name").allTextContents()).not.toContain(long);
  }, 30_000);

  test("a raid switches the simulated OBS to the Raid scene, with the raider's welcome, and back", async () => {
    const page = await openView("alerts", "#alerts-state");
    await page.click("#alerts-enabled");
    expect(await textOf(page.locator("#alerts-state"), (t) => t === "Connected")).toBe("Connected");
    const sent = await page.request.post(`${demo.base}/api/dashboard/alerts/simulate`, {
      headers: { origin: demo.base },
      data: { type: "raid" },
    });
    expect(sent.status()).toBe(200);
    const raid = await programScene("Raid");
    expect(raid.sources[0]!.text).toMatch(/^Welcome, .+ and \d+ raiders!$/);
    await demo.panelUntil<DemoProgram>("demo/obs", (p) => p.scene === "Live");
    expect(demo.watch.problems).toEqual([]);
  }, 60_000);
});
