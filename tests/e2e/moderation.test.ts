// The Moderation view in Chromium against `cuebot serve --demo`: moderation turned on through the
// simulated Twitch consent page, a filter's setting refused at its field then saved alone, a line
// tried at two levels, spam typed in the simulated chat caught and logged with Undo, the raid shield
// raised by a flood and ended from the view, and the view at 360 and 1280 px, light and dark.
import { describe, expect, test } from "bun:test";
import type { FilterSettings } from "../../server/vocabulary.ts";
import type { ModerationLogPage } from "../../server/web/app/lib/types.ts";
import {
  haveChromium,
  horizontalOverflow,
  onEveryScreen,
  type PageWatch,
  screenshotPath,
  textOf,
  useDemoDashboard,
  watchPage,
} from "../helpers/browser.ts";

interface Info {
  enabled: boolean;
  state: string;
  filters: FilterSettings;
  shield: { chatters: number; seconds: number; active: boolean; until: string | null };
}

type LogPage = ModerationLogPage;

const demo = useDemoDashboard();
let watch: PageWatch;

async function openView(): Promise<void> {
  await demo.page.goto("about:blank");
  await demo.page.goto(`${demo.base}/dashboard#/moderation`);
  await demo.page.locator("#moderation-state").waitFor();
  await demo.page.locator("#moderation-log ol, #moderation-log .state-empty").first().waitFor();
  expect(await demo.page.locator(".state-error").count()).toBe(0);
}

describe.skipIf(!haveChromium)("the Moderation view in demo mode (a real browser)", () => {
  test("on from the demo's first login, allow it on Twitch's page, and it connects (native chat with it)", async () => {
    await openView();
    // The demo turns moderation on at the streamer's first login; Twitch has not allowed it yet.
    expect(await demo.page.locator("#moderation-enabled").isChecked()).toBe(true);
    expect(await textOf(demo.page.locator("#moderation-state"), (t) => t === "Needs your permission")).toBe(
      "Needs your permission",
    );
    expect(await demo.page.locator("#moderation-reason").textContent()).toContain(
      "moderator:manage:chat_messages",
    );
    await demo.page
      .locator("#moderation-switch")
      .screenshot({ path: screenshotPath("moderation-view-1280-consent") });
    const consent = await demo.allowOnTwitch("moderation");
    expect(consent).toContain("moderator:manage:chat_messages");
    expect(consent).toContain("moderator:manage:chat_settings");
    // From here on, every request stays on this server.
    watch = watchPage(demo.page, demo.base);
    expect(await textOf(demo.page.locator("#moderation-state"), (t) => t === "Connected")).toBe("Connected");
    expect(await demo.page.locator("#moderation-consent").count()).toBe(0);
    expect((await demo.panel<{ enabled: boolean }>("chat")).enabled).toBe(true);
  }, 60_000);

  test("a filter's setting out of range is refused at its field; fixed, only that filter is saved", async () => {
    const caps = demo.page.locator("#moderation-filter-caps");
    expect(await caps.locator(".hint").allTextContents()).toContain("1 to 100; default 70%");
    const percent = caps.getByLabel("Capitals at least (%)");
    await percent.fill("120");
    await caps.getByRole("button", { name: "Save" }).click();
    expect(await percent.getAttribute("aria-invalid")).toBe("true");
    expect(await caps.locator(".field-error").allTextContents()).toContainEqual(
      expect.stringContaining("100"),
    );
    expect((await demo.panel<Info>("moderation")).filters.caps.percent).toBe(70);

    await percent.fill("80");
    await caps.getByLabel("Warning (sent after @name)").fill("easy on the caps, please.");
    await caps.getByRole("button", { name: "Save" }).click();
    expect(await textOf(caps.locator(".save-status"), (t) => t.length > 0)).toBe("Caps filter saved.");
    expect(await percent.getAttribute("aria-invalid")).toBeNull();
    const saved = await demo.panel<Info>("moderation");
    expect(saved.filters.caps.percent).toBe(80);
    expect(saved.filters.caps.message).toBe("easy on the caps, please.");
    expect(saved.filters.symbols.percent).toBe(50);
  }, 30_000);

  test("the blocked terms: a pattern the server refuses is said beside the form and kept; a good list is saved", async () => {
    const terms = demo.page.locator("#moderation-filter-terms");
    const list = terms.getByLabel("Blocked terms (one per line)");
    await list.fill("free followers\n~/(unclosed/");
    await terms.getByRole("button", { name: "Save" }).click();
    // The server names the entry it refuses; the message lands at the list, what was typed stays.
    const refusal = await textOf(terms.locator(".field-error"), (t) => t.length > 0);
    expect(refusal).toStartWith("filters.terms.list[1]: ");
    expect(await list.getAttribute("aria-invalid")).toBe("true");
    expect(await list.inputValue()).toBe("free followers\n~/(unclosed/");
    expect((await demo.panel<Info>("moderation")).filters.terms.list).toEqual([]);

    await list.fill("free followers\n\n  spam*bot  \nfree followers");
    await terms.getByLabel("When caught").selectOption("ban");
    await terms.getByRole("button", { name: "Save" }).click();
    expect(await textOf(terms.locator(".save-status"), (t) => t.length > 0)).toBe(
      "Blocked terms filter saved.",
    );
    expect(await list.inputValue()).toBe("free followers\nspam*bot");
    const saved = await demo.panel<Info>("moderation");
    expect(saved.filters.terms.list).toEqual(["free followers", "spam*bot"]);
    expect(saved.filters.terms.action).toBe("ban");
  }, 30_000);

  test("try a line: caught from a viewer, not from a moderator; nothing is logged", async () => {
    const shout = "THIS IS ME SHOUTING VERY LOUDLY IN CHAT";
    await demo.page.getByLabel("A chat line").fill(shout);
    await demo.page.locator("#moderation-try").getByLabel("From").selectOption("everyone");
    await demo.page.click("#moderation-try-run");
    expect(await textOf(demo.page.locator("#moderation-try-out"), (t) => t.length > 0)).toStartWith(
      "Caught by the caps filter",
    );
    await demo.page.locator("#moderation-try").getByLabel("From").selectOption("moderator");
    await demo.page.click("#moderation-try-run");
    expect(await textOf(demo.page.locator("#moderation-try-out"), (t) => t.startsWith("Not"))).toBe(
      "Not caught: this line would stay in chat.",
    );
    // (The demo's own spam bot may be logged meanwhile: only the tried line must not be.)
    expect((await demo.panel<LogPage>("moderation/log")).items.filter((i) => i.text === shout)).toEqual([]);
  }, 30_000);

  test("spam in the simulated chat is logged, newest first; a timeout is lifted with Undo", async () => {
    await demo.say("lurker_eve", "cheap viewers at cheap-viewers . com");
    await demo.say("lurker_eve", "really, cheap-viewers(dot)com");
    const logged = await demo.panelUntil<LogPage>("moderation/log", (p) =>
      p.items.some((i) => i.action === "timeout"),
    );
    const timeout = logged.items.find((i) => i.action === "timeout")!;
    expect(timeout.user?.login).toBe("lurker_eve");
    expect(timeout.filter).toBe("links");

    await openView();
    const row = demo.page.locator(`#moderation-log li[data-id="${timeout.id}"]`);
    expect(await row.textContent()).toContain("Timed out 10 min");
    const ids = await demo.page
      .locator("#moderation-log li")
      .evaluateAll((rows) => rows.map((li) => Number(li.getAttribute("data-id"))));
    expect(ids).toEqual(ids.toSorted((a, b) => b - a));
    expect(ids).toContain(logged.items[0]!.id);
    await row.getByRole("button", { name: /^Undo/ }).click();
    expect(
      await textOf(demo.page.locator(`#moderation-log li[data-id="${timeout.id}"]`), (t) =>
        t.includes("undone"),
      ),
    ).toContain("undone");
    expect(await demo.page.locator(`#moderation-log li[data-id="${timeout.id}"] button`).count()).toBe(0);
    const after = await demo.panel<LogPage>("moderation/log");
    expect(after.items.find((i) => i.id === timeout.id)?.undone).toBe(true);
  }, 30_000);

  test("the raid shield: raised by a flood of caught chatters, shown with its end, and ended from the view", async () => {
    const shield = demo.page.locator("#moderation-shield");
    await shield.getByLabel("Chatters").fill("2");
    await shield.getByRole("button", { name: "Save" }).click();
    expect(await textOf(shield.locator("form .save-status"), (t) => t.length > 0)).toBe("Raid shield saved.");
    await demo.say("viewer_anna", "follow me at spam-site . net");
    await demo.say("subdave", "FREE FOLLOWERS at spam-site(dot)net");
    await demo.panelUntil<Info>("moderation", (i) => i.shield.active);

    await openView();
    expect(await textOf(demo.page.locator("#moderation-shield-state"), (t) => t.length > 0)).toBe("On");
    expect(await demo.page.locator("#moderation-shield-line").textContent()).toMatch(/until \d/);
    await demo.page.click("#moderation-shield-end");
    expect(await textOf(demo.page.locator("#moderation-shield-state"), (t) => t !== "On")).toBe("Ready");
    expect(await demo.page.locator("#moderation-shield-end").isHidden()).toBe(true);
    expect((await demo.panel<Info>("moderation")).shield.active).toBe(false);
  }, 30_000);

  test("Load more asks the server for the entries before the last one shown", async () => {
    const all = await demo.panel<LogPage>("moderation/log");
    expect(all.items.length).toBeGreaterThan(2);
    // The first page cut to two entries, as if a page held two: the rest comes from the real cursor.
    await demo.page.route("**/api/dashboard/moderation/log", async (route) => {
      const first = { items: all.items.slice(0, 2), cursor: String(all.items[1]!.id) };
      await route.fulfill({ json: { status: 200, data: first } });
    });
    try {
      await openView();
      expect(await demo.page.locator("#moderation-log li").count()).toBe(2);
      await demo.page.click("#moderation-log-more");
      await textOf(demo.page.locator("#moderation-log li").nth(all.items.length - 1), (t) => t.length > 0);
      const shown = await demo.page
        .locator("#moderation-log li")
        .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-id"))));
      expect(shown).toEqual(all.items.map((i) => i.id));
      expect(await demo.page.locator("#moderation-log-more").isHidden()).toBe(true);
    } finally {
      await demo.page.unroute("**/api/dashboard/moderation/log");
    }
  }, 30_000);

  test("a caught line shows as the chatter typed it: markup stays text, overrides and marks stay in their row", async () => {
    const troll = `<img src=x onerror="document.title='owned'"> ${"w".repeat(200)}.example.com \u202Emoc.live\u202C e${"\u0301".repeat(150)}`;
    await demo.say("lurker_eve", troll);
    const caught = (p: LogPage) => p.items.find((i) => i.user?.login === "lurker_eve" && i.text === troll);
    const entry = caught(await demo.panelUntil<LogPage>("moderation/log", (p) => caught(p) !== undefined))!;
    await openView();
    await demo.page.setViewportSize({ width: 360, height: 740 });
    try {
      const row = demo.page.locator(`#moderation-log li[data-id="${entry.id}"]`);
      // As typed, but for the pile of marks: cut to three on their letter.
      const shown = troll.replace(/e\u0301+$/, "e\u0301\u0301\u0301");
      expect(await row.locator(".moderation-log-text").textContent()).toBe(shown);
      expect(await row.locator("img").count()).toBe(0);
      expect(await demo.page.title()).not.toBe("owned");
      expect(await horizontalOverflow(demo.page)).toBe(0);
      await row.screenshot({ path: screenshotPath("moderation-view-360-log-troll") });
    } finally {
      await demo.page.setViewportSize({ width: 1280, height: 800 });
    }
  }, 30_000);

  test("the view at 360 and 1280 px, light and dark: no sideways scrolling, axe clean, nothing broken", async () => {
    await openView();
    await demo.page.getByLabel("A chat line").fill("buy followers at example . com");
    await demo.page.click("#moderation-try-run");
    await textOf(demo.page.locator("#moderation-try-out"), (t) => t.length > 0);
    await onEveryScreen(demo.page, async (screen) => {
      const name = `moderation-view-${screen.name}`;
      await demo.page.screenshot({ path: screenshotPath(name), fullPage: true });
      await demo.page.locator("#moderation-switch").screenshot({ path: screenshotPath(`${name}-switch`) });
      await demo.page.locator(".moderation-split").screenshot({ path: screenshotPath(`${name}-try-shield`) });
      await demo.page
        .locator("#moderation-filter-terms")
        .screenshot({ path: screenshotPath(`${name}-terms`) });
      await demo.page.locator("#moderation-log").screenshot({ path: screenshotPath(`${name}-log`) });
    });
    // The demo chat shows what moderation removed: struck through, and said in words.
    await demo.say("viewer_anna", "grab free viewers at viewbot . stream");
    await demo.page.goto(`${demo.base}/dashboard#/chat`);
    const removed = demo.page.locator("#demo-chat-log li.deleted", { hasText: "viewbot . stream" });
    expect(await textOf(removed, (t) => t.includes("deleted by a moderator"))).toContain("viewbot . stream");
    await onEveryScreen(
      demo.page,
      (screen) =>
        demo.page
          .locator("#demo-chat-log")
          .screenshot({ path: screenshotPath(`chat-demo-deleted-${screen.name}`) }),
      { overflow: false },
    );
    // The refusals asked for above are the only failed requests the browser logged.
    expect(watch.problems.filter((p) => !p.includes("status of 400"))).toEqual([]);
  }, 60_000);
});
