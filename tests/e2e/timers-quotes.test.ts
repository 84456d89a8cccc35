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

const demo = useDemoDashboard({ watch: true });

/** A full load of the view, its lists arrived. */
async function openView(page = demo.page): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${demo.base}/dashboard#/timers-quotes`);
  await page.locator("#timer-count:not(:empty)").waitFor();
  await page.locator("#quote-count:not(:empty)").waitFor();
  expect(await page.locator(".state-error").count()).toBe(0);
}

interface TimerShape {
  name: string;
  message: string;
  intervalMinutes: number;
  minChatLines: number;
  enabled: boolean;
}

async function storedTimer(name: string): Promise<TimerShape | undefined> {
  return (await demo.panel<{ items: TimerShape[] }>("timers")).items.find((t) => t.name === name);
}

async function confirmDelete(): Promise<void> {
  const dialog = demo.page.locator("dialog[open]");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await dialog.waitFor({ state: "detached" });
}

describe.skipIf(!haveChromium)("Timers & quotes in a real browser (serve --demo)", () => {
  test("a timer: a bad interval is refused at its field with what was typed kept, then added, turned off, edited and deleted", async () => {
    await openView();
    expect(await demo.page.locator("#view-timers-quotes").textContent()).toContain(
      "only while your stream is live",
    );
    expect(await demo.page.locator("#view-timers-quotes a[href='#/chat']").count()).toBeGreaterThan(0);
    const add = demo.page.locator("form[aria-label='Add a timer']");
    await add.getByLabel("Name").fill("e2e-socials");
    await add.getByLabel("Message").fill("Follow me on X: @cuebotdemo");
    await add.getByLabel("Every (minutes)").fill("3");
    await add.getByRole("button", { name: "Add the timer" }).click();
    const every = add.getByLabel("Every (minutes)");
    expect(await every.getAttribute("aria-invalid")).toBe("true");
    expect(await add.locator(".field-error").nth(2).textContent()).not.toBe("");
    expect(await add.getByLabel("Name").inputValue()).toBe("e2e-socials");
    expect(await add.getByLabel("Message").inputValue()).toBe("Follow me on X: @cuebotdemo");
    expect(await every.inputValue()).toBe("3");
    expect(await storedTimer("e2e-socials")).toBeUndefined();

    await every.fill("15");
    await add.getByRole("button", { name: "Add the timer" }).click();
    const row = demo.page.locator("#timer-list li", { hasText: "e2e-socials" });
    expect(await textOf(row, (t) => t.includes("Every 15 min"))).toContain("after 2 chat lines");
    expect(await row.locator(".badge").isVisible()).toBe(false);
    expect(await storedTimer("e2e-socials")).toMatchObject({
      intervalMinutes: 15,
      minChatLines: 2,
      enabled: true,
    });
    // The add form starts again empty.
    expect(await add.getByLabel("Name").inputValue()).toBe("");

    // The same name again: the server's refusal lands at the name, and the message stays typed.
    await add.getByLabel("Name").fill("e2e-socials");
    await add.getByLabel("Message").fill("A second one");
    await add.getByRole("button", { name: "Add the timer" }).click();
    const name = add.getByLabel("Name");
    await textOf(add.locator(".field-error").first(), (t) => t.includes("already exists"));
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    expect(await add.getByLabel("Message").inputValue()).toBe("A second one");

    await row.getByRole("checkbox", { name: "On timer e2e-socials" }).uncheck();
    await row.locator(".badge", { hasText: "Off" }).waitFor({ state: "visible" });
    expect((await storedTimer("e2e-socials"))?.enabled).toBe(false);

    // Escape leaves an edit unsaved, back on its Edit button.
    await row.getByRole("button", { name: "Edit timer e2e-socials" }).click();
    await demo.page.keyboard.type("typed but not kept");
    await demo.page.keyboard.press("Escape");
    const editButton = row.getByRole("button", { name: "Edit timer e2e-socials" });
    expect(await editButton.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await row.textContent()).not.toContain("typed but not kept");

    await editButton.click();
    const edit = demo.page.locator("form[aria-label='Edit timer e2e-socials']");
    await edit.getByLabel("Message").fill("Discord: discord.gg/example");
    await edit.getByLabel("Every (minutes)").fill("30");
    await edit.getByLabel("After chat lines").fill("5");
    await edit.getByRole("button", { name: "Save" }).click();
    expect(await textOf(row, (t) => t.includes("Every 30 min"))).toContain("Discord: discord.gg/example");
    expect(await row.textContent()).toContain("after 5 chat lines");
    expect(await storedTimer("e2e-socials")).toMatchObject({
      message: "Discord: discord.gg/example",
      intervalMinutes: 30,
      minChatLines: 5,
      enabled: false,
    });

    await row.getByRole("button", { name: "Delete timer e2e-socials" }).click();
    await confirmDelete();
    await row.waitFor({ state: "detached" });
    expect(await storedTimer("e2e-socials")).toBeUndefined();
  }, 60_000);

  test("quotes: add (a too long one refused at its field), search, edit, delete, and page through more than a page", async () => {
    await openView();
    const add = demo.page.locator("form[aria-label='Add a quote']");
    const tooLong = `${"a".repeat(501)}`;
    await add.getByLabel("Quote").fill(tooLong);
    await add.getByRole("button", { name: "Add the quote" }).click();
    expect(await add.getByLabel("Quote").getAttribute("aria-invalid")).toBe("true");
    expect(await add.locator(".field-error").first().textContent()).toContain("At most 500 characters");
    expect(await add.getByLabel("Quote").inputValue()).toBe(tooLong);

    await add.getByLabel("Quote").fill("I never miss, said the zebracorn.");
    await add.getByLabel("Game").fill("VALORANT");
    await add.getByRole("button", { name: "Add the quote" }).click();
    await textOf(add.locator(".save-status"), (t) => /Quote #\d+ added\./.test(t));
    const added = Number(/#(\d+)/.exec((await add.locator(".save-status").textContent()) ?? "")![1]);

    // More than a page (20), a chatter's markup among them: it shows as text, never as markup.
    for (let i = 1; i <= 22; i++) {
      const text = i === 7 ? "<b>bold</b> <img src=x> from chat" : `Filler quote number ${i}`;
      const response = await demo.page.request.post(`${demo.base}/api/dashboard/quotes`, {
        headers: { origin: demo.base },
        data: { text, game: null },
      });
      expect(response.status()).toBe(200);
    }

    await demo.page.getByLabel("Search quotes").fill("ZEBRACORN");
    await textOf(demo.page.locator("#quote-count"), (t) => t === "1 quote holds “ZEBRACORN”");
    const found = demo.page.locator("#quote-list li");
    expect(await found.count()).toBe(1);
    expect(await found.textContent()).toContain(`#${added}`);
    expect(await found.textContent()).toContain("VALORANT");

    await found.getByRole("button", { name: `Edit quote #${added}` }).click();
    const edit = demo.page.locator(`form[aria-label='Edit quote #${added}']`);
    await edit.getByLabel("Quote").fill("I never miss, said the zebracorn, missing.");
    await edit.getByLabel("Game").fill("");
    await edit.getByRole("button", { name: "Save" }).click();
    const row = demo.page.locator(`#quote-list li[data-quote='${added}']`);
    expect(await textOf(row, (t) => t.includes("missing."))).not.toContain("VALORANT");
    const stored = await demo.panel<{ items: { text: string; game: string | null }[] }>(
      "quotes?search=zebracorn",
    );
    expect(stored.items).toMatchObject([{ text: "I never miss, said the zebracorn, missing.", game: null }]);

    await demo.page.getByLabel("Search quotes").fill("from chat");
    await textOf(demo.page.locator("#quote-count"), (t) => t === "1 quote holds “from chat”");
    const markup = demo.page.locator("#quote-list li .tq-text");
    expect(await markup.textContent()).toBe("<b>bold</b> <img src=x> from chat");
    expect(await demo.page.locator("#quote-list li b, #quote-list li img").count()).toBe(0);

    await demo.page.getByLabel("Search quotes").fill("");
    const count = await textOf(demo.page.locator("#quote-count"), (t) => t.includes("of at most 10,000"));
    const total = Number(/^(\d+)/.exec(count)![1]);
    expect(total).toBeGreaterThan(20);
    const pager = demo.page.locator("nav[aria-label='Quote pages']");
    expect(await pager.locator("#quote-page").textContent()).toBe(`Page 1 of ${Math.ceil(total / 20)}`);
    expect(await demo.page.locator("#quote-list li").count()).toBe(20);
    const firstOnPage1 = await demo.page.locator("#quote-list li").first().getAttribute("data-quote");
    await pager.getByRole("button", { name: "Next" }).click();
    await textOf(pager.locator("#quote-page"), (t) => t.startsWith("Page 2"));
    await demo.page.locator("#quote-list li").first().waitFor();
    expect(await demo.page.locator("#quote-list li").first().getAttribute("data-quote")).not.toBe(
      firstOnPage1,
    );
    await pager.getByRole("button", { name: "Previous" }).click();
    await textOf(pager.locator("#quote-page"), (t) => t.startsWith("Page 1"));
    await textOf(demo.page.locator("#quote-list li").first(), () => true);
    expect(await demo.page.locator("#quote-list li").first().getAttribute("data-quote")).toBe(firstOnPage1);

    const doomed = demo.page.locator(`#quote-list li[data-quote='${added}']`);
    await demo.page.getByLabel("Search quotes").fill("zebracorn");
    await doomed.getByRole("button", { name: `Delete quote #${added}` }).click();
    await confirmDelete();
    await textOf(demo.page.locator("#quote-count"), (t) => t.startsWith("0 quotes"));
    expect(await demo.page.locator("#quotes").textContent()).toBe("No quote holds “zebracorn”.");
    expect((await demo.panel<{ total: number }>("quotes")).total).toBe(total - 1);
  }, 60_000);

  test("the view at 360 and 1280 px, light and dark: no sideways scrolling, axe clean, nothing broken", async () => {
    // The refusals asked for above are the only failed requests the browser logged.
    expect(demo.watch.problems.filter((p) => !p.includes("status of 409"))).toEqual([]);
    // Something in each list, as a streamer's view would have.
    const timer = await demo.page.request.post(`${demo.base}/api/dashboard/timers`, {
      headers: { origin: demo.base },
      data: { name: "socials", message: "Follow on X and Instagram: @cuebotdemo", intervalMinutes: 20 },
    });
    expect(timer.status()).toBe(200);
    const fresh = await demo.context.newPage();
    const seen = watchPage(fresh, demo.base);
    for (const [name, width, height] of [
      ["1280", 1280, 800],
      ["360", 360, 740],
    ] as const) {
      await fresh.setViewportSize({ width, height });
      for (const scheme of ["light", "dark"] as const) {
        await fresh.emulateMedia({ colorScheme: scheme });
        await openView(fresh);
        await fresh.locator("#quote-list li").first().waitFor();
        expect(await horizontalOverflow(fresh)).toBe(0);
        expect(await axeViolations(fresh)).toEqual([]);
        const suffix = scheme === "dark" ? `${name}-dark` : name;
        await fresh.screenshot({ path: screenshotPath(`timers-quotes-${suffix}`), fullPage: true });
      }
    }
    // A troll's quote with no spaces to break at still fits a phone's width.
    const long = await demo.page.request.post(`${demo.base}/api/dashboard/quotes`, {
      headers: { origin: demo.base },
      data: { text: "W".repeat(480), game: "G".repeat(200) },
    });
    expect(long.status()).toBe(200);
    await fresh.getByLabel("Search quotes").fill("WWWWWWWW");
    await textOf(fresh.locator("#quote-count"), (t) => t.startsWith("1 quote holds"));
    expect(await horizontalOverflow(fresh)).toBe(0);
    await fresh.locator("#quote-list").screenshot({ path: screenshotPath("timers-quotes-360-dark-long") });
    expect(seen.problems).toEqual([]);
  }, 90_000);

  // The findings of the outside review (each step failed before its fix).

  test("a quote's open edit survives a reload of the list, and paging or searching waits for it", async () => {
    // A step that fails says so in seconds, and the next steps still run.
    demo.page.setDefaultTimeout(8000);
    await demo.page.setViewportSize({ width: 1280, height: 800 });
    await demo.page.emulateMedia({ colorScheme: "light" });
    await openView();
    const first = demo.page.locator("#quote-list li").first();
    const number = await first.getAttribute("data-quote");
    await first.getByRole("button", { name: `Edit quote #${number}` }).click();
    const edit = demo.page.locator(`form[aria-label='Edit quote #${number}']`);
    await edit.getByLabel("Quote").fill("half typed edit");

    const add = demo.page.locator("form[aria-label='Add a quote']");
    await add.getByLabel("Quote").fill("Another quote, added meanwhile");
    await add.getByRole("button", { name: "Add the quote" }).click();
    await textOf(add.locator(".save-status"), (t) => /Quote #\d+ added\./.test(t));
    await textOf(demo.page.locator("#quote-count"), (t) => t.includes("of at most"));
    await demo.page.locator("#quote-list").waitFor();
    expect(await edit.getByLabel("Quote").inputValue()).toBe("half typed edit");

    await demo.page.getByLabel("Search quotes").fill("Filler");
    const notice = demo.page.locator("#quote-notice");
    expect(await textOf(notice, (t) => t !== "")).toBe(
      `Finish or cancel the edit of quote #${number} first.`,
    );
    await demo.page.locator("nav[aria-label='Quote pages']").getByRole("button", { name: "Next" }).click();
    expect(await demo.page.locator("#quote-page").textContent()).toStartWith("Page 1");
    expect(await edit.getByLabel("Quote").inputValue()).toBe("half typed edit");

    await edit.getByRole("button", { name: "Cancel" }).click();
    await demo.page.getByLabel("Search quotes").press("Enter");
    await textOf(demo.page.locator("#quote-count"), (t) => t.includes("hold “Filler”"));
    expect(await notice.textContent()).toBe("");
    await demo.page.getByLabel("Search quotes").fill("");
    await textOf(demo.page.locator("#quote-count"), (t) => t.includes("of at most"));
  }, 30_000);

  test("two quick clicks on Next move one page, and Previous goes back to the first", async () => {
    await openView();
    const pager = demo.page.locator("nav[aria-label='Quote pages']");
    await textOf(pager.locator("#quote-page"), (t) => t.startsWith("Page 1 of"));
    await demo.page.locator("#quote-list li").first().waitFor();
    const firstOnPage1 = await demo.page.locator("#quote-list li").first().getAttribute("data-quote");
    await pager.getByRole("button", { name: "Next" }).evaluate((next: HTMLButtonElement) => {
      next.click();
      next.click();
    });
    await demo.page.locator("#quote-list li").first().waitFor();
    await Bun.sleep(300);
    expect(await pager.locator("#quote-page").textContent()).toStartWith("Page 2 of");
    const firstOnPage2 = await demo.page.locator("#quote-list li").first().getAttribute("data-quote");
    expect(firstOnPage2).not.toBe(firstOnPage1);
    await pager.getByRole("button", { name: "Previous" }).click();
    await textOf(pager.locator("#quote-page"), (t) => t.startsWith("Page 1"));
    await demo.page.locator("#quote-list li").first().waitFor();
    expect(await demo.page.locator("#quote-list li").first().getAttribute("data-quote")).toBe(firstOnPage1);
  }, 30_000);

  test("two quick Enters store a quote once", async () => {
    await openView();
    const add = demo.page.locator("form[aria-label='Add a quote']");
    await demo.page.route("**/api/dashboard/quotes", async (route) => {
      if (route.request().method() === "POST") await Bun.sleep(600);
      await route.continue();
    });
    try {
      await add.getByLabel("Quote").fill("Enter twice, stored once");
      await add.getByLabel("Quote").press("Enter");
      await add.getByLabel("Quote").press("Enter");
      await textOf(add.locator(".save-status"), (t) => /Quote #\d+ added\./.test(t));
      await Bun.sleep(800);
    } finally {
      await demo.page.unroute("**/api/dashboard/quotes");
    }
    expect((await demo.panel<{ total: number }>("quotes?search=Enter%20twice")).total).toBe(1);
  }, 30_000);

  test("a trailing line break is trimmed as the server does, not refused", async () => {
    await openView();
    const add = demo.page.locator("form[aria-label='Add a quote']");
    await add.getByLabel("Quote").fill("Ends with a break\n");
    await add.getByRole("button", { name: "Add the quote" }).click();
    await textOf(add.locator(".save-status"), (t) => /Quote #\d+ added\./.test(t));
    expect((await demo.panel<{ total: number }>("quotes?search=Ends%20with%20a%20break")).total).toBe(1);
  }, 30_000);

  test("a tab is refused at the field, before asking the server", async () => {
    await openView();
    const add = demo.page.locator("form[aria-label='Add a quote']");
    await add.getByLabel("Quote").fill("a\tb");
    await add.getByRole("button", { name: "Add the quote" }).click();
    expect(await textOf(add.locator(".field-error").first(), (t) => t !== "")).toContain("tabs");
    expect(await add.getByLabel("Quote").inputValue()).toBe("a\tb");
    await add.getByLabel("Quote").fill("");
  }, 30_000);

  test("a timer added before the list arrived appears once it does", async () => {
    await demo.page.route("**/api/dashboard/timers", async (route) => {
      if (route.request().method() !== "GET") return route.continue();
      // The list as it was when asked, answered late: the add below happens in between.
      const response = await route.fetch();
      await Bun.sleep(1500);
      await route.fulfill({ response });
    });
    try {
      await demo.page.goto("about:blank");
      await demo.page.goto(`${demo.base}/dashboard#/timers-quotes`);
      const add = demo.page.locator("form[aria-label='Add a timer']");
      await add.getByLabel("Name").fill("early-bird");
      await add.getByLabel("Message").fill("Posted by the early bird");
      await add.getByRole("button", { name: "Add the timer" }).click();
      await textOf(add.locator(".save-status"), (t) => t === "Timer early-bird added.");
      await demo.page.locator("#timer-list").waitFor();
      expect(await demo.page.locator("#timer-list li", { hasText: "early-bird" }).count()).toBe(1);
    } finally {
      await demo.page.unroute("**/api/dashboard/timers");
    }
  }, 30_000);
});
