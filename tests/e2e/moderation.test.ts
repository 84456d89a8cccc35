// The Moderation view in Chromium against `cuebot serve --demo`: moderation turned on through the
// simulated Twitch consent page, a filter's setting refused at its field then saved alone, a line
// tried at two levels, spam typed in the simulated chat caught and logged with Undo, the raid shield
// raised by a flood and ended from the view, and the view at 360 and 1280 px, light and dark.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { FilterSettings } from "../../server/vocabulary.ts";
import type { ModerationLogPage } from "../../server/web/app/lib/types.ts";
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
  textOf,
  watchPage,
} from "../helpers/browser.ts";

interface Info {
  enabled: boolean;
  state: string;
  filters: FilterSettings;
  shield: { chatters: number; seconds: number; active: boolean; until: string | null };
}

type LogPage = ModerationLogPage;

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

async function api<T>(path: string): Promise<T> {
  const response = await page.request.get(`${server.base}/api/dashboard/${path}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

/** A line typed in the demo's simulated chat by one of its viewers. */
async function say(user: string, text: string): Promise<void> {
  const response = await page.request.post(`${server.base}/api/dashboard/demo/chat`, {
    headers: { origin: server.base },
    data: { user, text },
  });
  expect(response.status()).toBe(200);
}

/** Polls the API until `matches` accepts its answer (10 s). */
async function until<T>(path: string, matches: (data: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  let data = await api<T>(path);
  while (!matches(data) && Date.now() < deadline) {
    await Bun.sleep(100);
    data = await api<T>(path);
  }
  expect(matches(data)).toBe(true);
  return data;
}

async function openView(): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${server.base}/dashboard#/moderation`);
  await page.locator("#moderation-state").waitFor();
  await page.locator("#moderation-log ol, #moderation-log .state-empty").first().waitFor();
  expect(await page.locator(".state-error").count()).toBe(0);
}

describe.skipIf(!haveChromium)("the Moderation view in demo mode (a real browser)", () => {
  test("on from the demo's first login, allow it on Twitch's page, and it connects (native chat with it)", async () => {
    await openView();
    // The demo turns moderation on at the streamer's first login; Twitch has not allowed it yet.
    expect(await page.locator("#moderation-enabled").isChecked()).toBe(true);
    expect(await textOf(page.locator("#moderation-state"), (t) => t === "Needs your permission")).toBe(
      "Needs your permission",
    );
    expect(await page.locator("#moderation-reason").textContent()).toContain(
      "moderator:manage:chat_messages",
    );
    await page
      .locator("#moderation-switch")
      .screenshot({ path: screenshotPath("moderation-view-1280-consent") });
    await page.click("#moderation-consent");
    const consent = (await page.locator("body").textContent()) ?? "";
    expect(consent).toContain("moderator:manage:chat_messages");
    expect(consent).toContain("moderator:manage:chat_settings");
    await page.click("a.approve >> nth=0");
    await page.waitForURL(`${server.base}/dashboard#/moderation`);
    // From here on, every request stays on this server.
    watch = watchPage(page, server.base);
    expect(await textOf(page.locator("#moderation-state"), (t) => t === "Connected")).toBe("Connected");
    expect(await page.locator("#moderation-consent").count()).toBe(0);
    expect((await api<{ enabled: boolean }>("chat")).enabled).toBe(true);
  }, 60_000);

  test("a filter's setting out of range is refused at its field; fixed, only that filter is saved", async () => {
    const caps = page.locator("#moderation-filter-caps");
    expect(await caps.locator(".hint").allTextContents()).toContain("1 to 100; default 70%");
    const percent = caps.getByLabel("Capitals at least (%)");
    await percent.fill("120");
    await caps.getByRole("button", { name: "Save" }).click();
    expect(await percent.getAttribute("aria-invalid")).toBe("true");
    expect(await caps.locator(".field-error").allTextContents()).toContainEqual(
      expect.stringContaining("100"),
    );
    expect((await api<Info>("moderation")).filters.caps.percent).toBe(70);

    await percent.fill("80");
    await caps.getByLabel("Warning (sent after @name)").fill("easy on the caps, please.");
    await caps.getByRole("button", { name: "Save" }).click();
    expect(await textOf(caps.locator(".save-status"), (t) => t.length > 0)).toBe("Caps filter saved.");
    expect(await percent.getAttribute("aria-invalid")).toBeNull();
    const saved = await api<Info>("moderation");
    expect(saved.filters.caps.percent).toBe(80);
    expect(saved.filters.caps.message).toBe("easy on the caps, please.");
    expect(saved.filters.symbols.percent).toBe(50);
  }, 30_000);

  test("the blocked terms: a pattern the server refuses is said beside the form and kept; a good list is saved", async () => {
    const terms = page.locator("#moderation-filter-terms");
    const list = terms.getByLabel("Blocked terms (one per line)");
    await list.fill("free followers\n~/(unclosed/");
    await terms.getByRole("button", { name: "Save" }).click();
    // The server names the entry it refuses; the message lands at the list, what was typed stays.
    const refusal = await textOf(terms.locator(".field-error"), (t) => t.length > 0);
    expect(refusal).toStartWith("filters.terms.list[1]: ");
    expect(await list.getAttribute("aria-invalid")).toBe("true");
    expect(await list.inputValue()).toBe("free followers\n~/(unclosed/");
    expect((await api<Info>("moderation")).filters.terms.list).toEqual([]);

    await list.fill("free followers\n\n  spam*bot  \nfree followers");
    await terms.getByLabel("When caught").selectOption("ban");
    await terms.getByRole("button", { name: "Save" }).click();
    expect(await textOf(terms.locator(".save-status"), (t) => t.length > 0)).toBe(
      "Blocked terms filter saved.",
    );
    expect(await list.inputValue()).toBe("free followers\nspam*bot");
    const saved = await api<Info>("moderation");
    expect(saved.filters.terms.list).toEqual(["free followers", "spam*bot"]);
    expect(saved.filters.terms.action).toBe("ban");
  }, 30_000);

  test("try a line: caught from a viewer, not from a moderator; nothing is logged", async () => {
    const shout = "THIS IS ME SHOUTING VERY LOUDLY IN CHAT";
    await page.getByLabel("A chat line").fill(shout);
    await page.locator("#moderation-try").getByLabel("From").selectOption("everyone");
    await page.click("#moderation-try-run");
    expect(await textOf(page.locator("#moderation-try-out"), (t) => t.length > 0)).toStartWith(
      "Caught by the caps filter",
    );
    await page.locator("#moderation-try").getByLabel("From").selectOption("moderator");
    await page.click("#moderation-try-run");
    expect(await textOf(page.locator("#moderation-try-out"), (t) => t.startsWith("Not"))).toBe(
      "Not caught: this line would stay in chat.",
    );
    // (The demo's own spam bot may be logged meanwhile: only the tried line must not be.)
    expect((await api<LogPage>("moderation/log")).items.filter((i) => i.text === shout)).toEqual([]);
  }, 30_000);

  test("spam in the simulated chat is logged, newest first; a timeout is lifted with Undo", async () => {
    await say("lurker_eve", "cheap viewers at cheap-viewers . com");
    await say("lurker_eve", "really, cheap-viewers(dot)com");
    const logged = await until<LogPage>("moderation/log", (p) => p.items.some((i) => i.action === "timeout"));
    const timeout = logged.items.find((i) => i.action === "timeout")!;
    expect(timeout.user?.login).toBe("lurker_eve");
    expect(timeout.filter).toBe("links");

    await openView();
    const row = page.locator(`#moderation-log li[data-id="${timeout.id}"]`);
    expect(await row.textContent()).toContain("Timed out 10 min");
    const ids = await page
      .locator("#moderation-log li")
      .evaluateAll((rows) => rows.map((li) => Number(li.getAttribute("data-id"))));
    expect(ids).toEqual(ids.toSorted((a, b) => b - a));
    expect(ids).toContain(logged.items[0]!.id);
    await row.getByRole("button", { name: /^Undo/ }).click();
    expect(
      await textOf(page.locator(`#moderation-log li[data-id="${timeout.id}"]`), (t) => t.includes("undone")),
    ).toContain("undone");
    expect(await page.locator(`#moderation-log li[data-id="${timeout.id}"] button`).count()).toBe(0);
    const after = await api<LogPage>("moderation/log");
    expect(after.items.find((i) => i.id === timeout.id)?.undone).toBe(true);
  }, 30_000);

  test("the raid shield: raised by a flood of caught chatters, shown with its end, and ended from the view", async () => {
    const shield = page.locator("#moderation-shield");
    await shield.getByLabel("Chatters").fill("2");
    await shield.getByRole("button", { name: "Save" }).click();
    expect(await textOf(shield.locator("form .save-status"), (t) => t.length > 0)).toBe("Raid shield saved.");
    await say("viewer_anna", "follow me at spam-site . net");
    await say("subdave", "FREE FOLLOWERS at spam-site(dot)net");
    await until<Info>("moderation", (i) => i.shield.active);

    await openView();
    expect(await textOf(page.locator("#moderation-shield-state"), (t) => t.length > 0)).toBe("On");
    expect(await page.locator("#moderation-shield-line").textContent()).toMatch(/until \d/);
    await page.click("#moderation-shield-end");
    expect(await textOf(page.locator("#moderation-shield-state"), (t) => t !== "On")).toBe("Ready");
    expect(await page.locator("#moderation-shield-end").isHidden()).toBe(true);
    expect((await api<Info>("moderation")).shield.active).toBe(false);
  }, 30_000);

  test("Load more asks the server for the entries before the last one shown", async () => {
    const all = await api<LogPage>("moderation/log");
    expect(all.items.length).toBeGreaterThan(2);
    // The first page cut to two entries, as if a page held two: the rest comes from the real cursor.
    await page.route("**/api/dashboard/moderation/log", async (route) => {
      const first = { items: all.items.slice(0, 2), cursor: String(all.items[1]!.id) };
      await route.fulfill({ json: { status: 200, data: first } });
    });
    try {
      await openView();
      expect(await page.locator("#moderation-log li").count()).toBe(2);
      await page.click("#moderation-log-more");
      await textOf(page.locator("#moderation-log li").nth(all.items.length - 1), (t) => t.length > 0);
      const shown = await page
        .locator("#moderation-log li")
        .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-id"))));
      expect(shown).toEqual(all.items.map((i) => i.id));
      expect(await page.locator("#moderation-log-more").isHidden()).toBe(true);
    } finally {
      await page.unroute("**/api/dashboard/moderation/log");
    }
  }, 30_000);

  test("a caught line shows as the chatter typed it: markup stays text, overrides and marks stay in their row", async () => {
    const troll = `<img src=x onerror="document.title='owned'"> ${"w".repeat(200)}.example.com \u202Emoc.live\u202C e${"\u0301".repeat(150)}`;
    await say("lurker_eve", troll);
    const caught = (p: LogPage) => p.items.find((i) => i.user?.login === "lurker_eve" && i.text === troll);
    const entry = caught(await until<LogPage>("moderation/log", (p) => caught(p) !== undefined))!;
    await openView();
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      const row = page.locator(`#moderation-log li[data-id="${entry.id}"]`);
      // As typed, but for the pile of marks: cut to three on their letter.
      const shown = troll.replace(/e\u0301+$/, "e\u0301\u0301\u0301");
      expect(await row.locator(".moderation-log-text").textContent()).toBe(shown);
      expect(await row.locator("img").count()).toBe(0);
      expect(await page.title()).not.toBe("owned");
      expect(await horizontalOverflow(page)).toBe(0);
      await row.screenshot({ path: screenshotPath("moderation-view-360-log-troll") });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }, 30_000);

  test("the view at 360 and 1280 px, light and dark: no sideways scrolling, axe clean, nothing broken", async () => {
    await openView();
    await page.getByLabel("A chat line").fill("buy followers at example . com");
    await page.click("#moderation-try-run");
    await textOf(page.locator("#moderation-try-out"), (t) => t.length > 0);
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
        const name = scheme === "light" ? `moderation-view-${width}` : `moderation-view-${width}-dark`;
        await page.screenshot({ path: screenshotPath(name), fullPage: true });
        await page.locator("#moderation-switch").screenshot({ path: screenshotPath(`${name}-switch`) });
        await page.locator(".moderation-split").screenshot({ path: screenshotPath(`${name}-try-shield`) });
        await page.locator("#moderation-filter-terms").screenshot({ path: screenshotPath(`${name}-terms`) });
        await page.locator("#moderation-log").screenshot({ path: screenshotPath(`${name}-log`) });
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 800 });
    // The demo chat shows what moderation removed: struck through, and said in words.
    await say("viewer_anna", "grab free viewers at viewbot . stream");
    await page.goto(`${server.base}/dashboard#/chat`);
    const removed = page.locator("#demo-chat-log li.deleted", { hasText: "viewbot . stream" });
    expect(await textOf(removed, (t) => t.includes("deleted by a moderator"))).toContain("viewbot . stream");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: 800 });
        await Bun.sleep(100);
        expect(await axeViolations(page)).toEqual([]);
        const name = `chat-demo-deleted-${width}${scheme === "dark" ? "-dark" : ""}`;
        await page.locator("#demo-chat-log").screenshot({ path: screenshotPath(name) });
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 800 });
    // The refusals asked for above are the only failed requests the browser logged.
    expect(watch.problems.filter((p) => !p.includes("status of 400"))).toEqual([]);
  }, 60_000);
});
