// The Custom commands view (issue 24) in a real Chromium against `cuebot serve --demo`: adding with
// errors at the field, editing with the live preview, a counter, deleting, the Nightbot import through
// its dialog, the regulars; then the view at 360 and 1280 px, light and dark.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator } from "playwright-core";
import {
  axeViolations,
  haveChromium,
  horizontalOverflow,
  screenshotPath,
  textOf,
  useDemoDashboard,
} from "../helpers/browser.ts";

const NIGHTBOT_LIST = readFileSync(
  join(import.meta.dir, "..", "fixtures", "chat-bots", "nightbot-commands.json"),
  "utf8",
);

/** Nightbot's public commands page, reduced to what a copy of it holds: menus, the table, a footer. */
const NIGHTBOT_PAGE = `<!doctype html><html><body>
<nav><a href="#">Dashboard</a> <a href="#">Commands</a></nav>
<h1>CuebotDemo's Commands</h1>
<table>
<thead><tr><th>Command</th><th>Message</th><th>Userlevel</th><th>Cooldown</th></tr></thead>
<tbody>
<tr><td>!tbl_discord</td><td>Join us on Discord: https://discord.gg/example</td><td>Everyone</td><td>30s</td></tr>
<tr><td>!tbl_mods</td><td>Moderators, to the lounge.</td><td>Moderator</td><td>5s</td></tr>
<tr><td>!discord</td><td>Our older Discord</td><td>Everyone</td><td>5s</td></tr>
</tbody></table>
<footer>© NightDev</footer>
</body></html>`;

const demo = useDemoDashboard({ watch: true });

/** A command list as Nightbot's API returns it, one command per name. */
function nightbotList(names: string[]): string {
  const commands = names.map((name) => ({
    name: `!${name}`,
    message: `${name} here`,
    coolDown: 30,
    userLevel: "everyone",
    count: 0,
  }));
  return JSON.stringify({ status: 200, commands });
}

/** The input of the field the API calls `path`, inside `scope`. */
const input = (scope: Locator, path: string) => scope.locator(`[data-field="${path}"]`);
/** The error line of that field. */
const errorOf = (scope: Locator, path: string) =>
  scope.locator(`.field:has([data-field="${path}"]) .field-error`);
const item = (name: string) => demo.page.locator(`#cc-commands li[data-command="${name}"]`);

async function openView(): Promise<void> {
  await demo.page.goto("about:blank");
  await demo.page.goto(`${demo.base}/dashboard#/custom-commands`);
  await demo.page.locator("#cc-commands .cc-list, #cc-commands .cc-empty").first().waitFor();
  await demo.page.locator("#cc-regulars ul, #cc-regulars .state-empty").first().waitFor();
}

async function confirm(label: string): Promise<void> {
  const dialog = demo.page.locator("dialog[open]");
  await dialog.getByRole("button", { name: label }).click();
  await dialog.waitFor({ state: "detached" });
}

describe.skipIf(!haveChromium)("the Custom commands view in a real browser (serve --demo)", () => {
  test("add: a bad name is refused at the field with everything typed kept; fixed, the command is listed", async () => {
    await openView();
    const add = demo.page.locator("#cc-add");
    await input(add, "name").fill("!bad name!");
    await input(add, "response").fill("Streams Mon, Wed, Fri at 19:00 CET");
    await add.getByRole("button", { name: "Add command" }).click();
    expect(await errorOf(add, "name").textContent()).toBe(
      'A name is "!" then 1 to 32 letters a–z, digits or _, like !discord.',
    );
    expect(await input(add, "name").getAttribute("aria-invalid")).toBe("true");
    expect(await input(add, "name").inputValue()).toBe("!bad name!");
    expect(await input(add, "response").inputValue()).toBe("Streams Mon, Wed, Fri at 19:00 CET");

    // The server's refusal lands at the same field: a built-in that is on keeps its name.
    await input(add, "name").fill("!followage");
    await add.getByRole("button", { name: "Add command" }).click();
    expect(await textOf(errorOf(add, "name"), (t) => t.length > 0)).toContain("!followage");
    expect(await input(add, "response").inputValue()).toBe("Streams Mon, Wed, Fri at 19:00 CET");

    await input(add, "name").fill("!Schedule");
    await add.getByRole("button", { name: "Add command" }).click();
    expect(await textOf(add.locator(".save-status").last(), (t) => t !== "")).toBe("!schedule added.");
    expect(await item("schedule").locator(".cc-response").textContent()).toBe(
      "Streams Mon, Wed, Fri at 19:00 CET",
    );
    expect(await item("schedule").locator(".cc-meta").textContent()).toContain("30 s cooldown");
    // The form is ready for the next command.
    expect(await input(add, "name").inputValue()).toBe("");
  }, 30_000);

  test("edit in a dialog, with the preview showing the reply a chosen viewer would get", async () => {
    await item("schedule").getByRole("button", { name: "Edit !schedule" }).click();
    const dialog = demo.page.locator("dialog[open]");
    expect(await dialog.locator("h2").textContent()).toBe("Edit !schedule");
    await input(dialog, "response").fill("Hi $(user), $(touser) says we stream Mon, Wed, Fri");
    await input(dialog, "user").fill("lurker_eve");
    await input(dialog, "args").fill("@subdave");
    await dialog.getByRole("button", { name: "Preview" }).click();
    const reply = await textOf(dialog.locator(".cc-preview-text"), (t) => t.includes("lurker_eve"));
    expect(reply).toBe("Hi lurker_eve, subdave says we stream Mon, Wed, Fri");

    // Below the command's level, chat answers nothing, and the preview says so.
    await dialog.locator("select").first().selectOption("moderator");
    await dialog.getByRole("button", { name: "Preview" }).click();
    expect(await textOf(dialog.locator(".cc-preview-out"), (t) => t.includes("below"))).toContain(
      "chat gives no reply",
    );
    await input(dialog, "cooldownSeconds").fill("3");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    expect(await errorOf(dialog, "cooldownSeconds").textContent()).toContain("5 to 300");
    await input(dialog, "cooldownSeconds").fill("60");
    await input(dialog, "userCooldownSeconds").fill("301");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    expect(await errorOf(dialog, "userCooldownSeconds").textContent()).not.toBe("");
    expect(await errorOf(dialog, "cooldownSeconds").textContent()).toBe("");
    await input(dialog, "userCooldownSeconds").fill("20");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await dialog.waitFor({ state: "detached" });
    await textOf(item("schedule").locator(".cc-response"), (t) => t.startsWith("Hi $(user)"));
    expect(await item("schedule").locator(".cc-meta").textContent()).toContain("moderators+");
    expect(await item("schedule").locator(".cc-meta").textContent()).toContain("60 s cooldown");
    expect(await item("schedule").locator(".cc-meta").textContent()).toContain("20 s per viewer");
    // Focus comes back to the command's Edit button.
    expect(await demo.page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "Edit !schedule",
    );
  }, 30_000);

  test("a counter: its count is set in place, kept across a reload, and the preview counts from it", async () => {
    const add = demo.page.locator("#cc-add");
    await input(add, "name").fill("!wins");
    await input(add, "response").fill("We won $(count) games today.");
    // The preview follows the typing by itself (a new command's first use is count 1).
    expect(await textOf(add.locator(".cc-preview-text"), (t) => t !== "")).toBe("We won 1 games today.");
    await add.getByRole("button", { name: "Add command" }).click();
    const wins = item("wins");
    await wins.waitFor();
    expect(await wins.locator(".cc-count").textContent()).toBe("count 0");
    await input(wins, "count").fill("12");
    await wins.getByRole("button", { name: "Set count" }).click();
    expect(await textOf(wins.locator(".cc-count"), (t) => t === "count 12")).toBe("count 12");

    await openView();
    expect(await item("wins").locator(".cc-count").textContent()).toBe("count 12");
    await item("wins").getByRole("button", { name: "Edit !wins" }).click();
    const dialog = demo.page.locator("dialog[open]");
    await dialog.getByRole("button", { name: "Preview" }).click();
    expect(await textOf(dialog.locator(".cc-preview-text"), (t) => t !== "")).toBe("We won 13 games today.");
    // Escape closes the dialog, as a keyboard user expects; nothing was saved.
    await demo.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await item("wins").locator(".cc-count").textContent()).toBe("count 12");
  }, 30_000);

  test("delete asks first; confirmed, the command is gone", async () => {
    await item("schedule").getByRole("button", { name: "Delete !schedule" }).click();
    await confirm("Cancel");
    expect(await item("schedule").count()).toBe(1);
    await item("schedule").getByRole("button", { name: "Delete !schedule" }).click();
    await confirm("Delete");
    await item("schedule").waitFor({ state: "detached" });
    const listed = await demo.page.request.get(`${demo.base}/api/dashboard/custom-commands`);
    const names = ((await listed.json()) as { data: { items: { name: string }[] } }).data.items.map(
      (c) => c.name,
    );
    expect(names).not.toContain("schedule");
    expect(names).toContain("wins");
  }, 30_000);

  test("import a Nightbot list: the preview lists what happens, nothing stored until Import", async () => {
    const total = async () => Number((await demo.page.locator(".cc-total").textContent())?.split(" ")[0]);
    const before = await total();
    await demo.page.click("#cc-import");
    const dialog = demo.page.locator("dialog[open]");
    await input(dialog, "body").fill("{not json");
    await dialog.getByRole("button", { name: "Preview" }).click();
    expect(await errorOf(dialog, "body").textContent()).toContain("This is not JSON");
    expect(await input(dialog, "body").inputValue()).toBe("{not json");

    await input(dialog, "body").fill(NIGHTBOT_LIST);
    await dialog.getByRole("button", { name: "Preview" }).click();
    await dialog.locator(".cc-import-add li").first().waitFor();
    const planned = await dialog.locator(".cc-import-add li").allTextContents();
    expect(planned.some((line) => line.startsWith("!socials regulars+: Twitter:"))).toBe(true);
    // The demo's !discord and !deaths exist, !followage is a built-in that is on; a 600 s cooldown is cut.
    const conflicts = await dialog.locator(".cc-import-conflicts").textContent();
    for (const name of ["!discord", "!deaths", "!followage"]) expect(conflicts).toContain(name);
    expect(planned.some((line) => line.startsWith("!discord"))).toBe(false);
    expect(await dialog.locator(".cc-import-adjusted").textContent()).toContain(
      "!vipsonly: Its cooldown of 600 s becomes 300 s.",
    );
    // Nothing is stored by the preview.
    expect(await item("socials").count()).toBe(0);
    expect(await total()).toBe(before);

    await demo.page.screenshot({ path: screenshotPath("custom-commands-import-plan-1280") });
    const apply = dialog.locator(".cc-import-apply");
    expect(await apply.textContent()).toBe(`Import ${planned.length} commands`);
    await apply.click();
    expect(await textOf(dialog.locator(".cc-import-summary"), (t) => t.startsWith("Imported"))).toBe(
      `Imported ${planned.length} commands from Nightbot.`,
    );
    await dialog.getByRole("button", { name: "Close" }).click();
    await item("socials").waitFor();
    expect(await item("socials").locator(".cc-meta").textContent()).toContain("regulars+");
    expect(await total()).toBe(before + planned.length);
    // With this many, a filter finds one by name or text.
    await demo.page.getByLabel("Find a command").fill("youtube");
    expect(await demo.page.locator("#cc-commands li.cc-item:visible").count()).toBe(1);
    expect(await item("socials").isVisible()).toBe(true);
    await demo.page.getByLabel("Find a command").fill("");
    expect(await demo.page.locator("#cc-commands li.cc-item:visible").count()).toBe(before + planned.length);
  }, 30_000);

  test("import the table copied from Nightbot's commands page: the dialog links the page, the paste is previewed and imported", async () => {
    // Nightbot's public commands page, as a table the browser copies (select all, copy).
    const nightbot = await demo.context.newPage();
    await nightbot.setContent(NIGHTBOT_PAGE);
    await nightbot.keyboard.press("Control+A");
    await nightbot.keyboard.press("Control+C");
    const copied = await nightbot.evaluate(() => window.getSelection()?.toString() ?? "");
    await nightbot.close();
    expect(copied).toContain("!tbl_discord\tJoin us on Discord");

    await demo.page.click("#cc-import");
    const dialog = demo.page.locator("dialog[open]");
    expect(await dialog.locator(".cc-import-steps a").getAttribute("href")).toBe(
      "https://nightbot.tv/t/cuebotdemo/commands",
    );
    await input(dialog, "body").focus();
    await demo.page.keyboard.press("Control+V");
    // Headless Chromium may keep its clipboard to itself: then the copied text is typed in as pasted.
    if ((await input(dialog, "body").inputValue()) === "") await input(dialog, "body").fill(copied);
    await dialog.getByRole("button", { name: "Preview" }).click();
    await dialog.locator(".cc-import-add li").first().waitFor();
    expect(await dialog.locator(".cc-import-summary").textContent()).toStartWith("Read as a Nightbot list.");
    const planned = await dialog.locator(".cc-import-add li").allTextContents();
    expect(planned.map((line) => line.split(" ")[0])).toEqual(["!tbl_discord", "!tbl_mods"]);
    expect(planned[1]).toContain("moderators+");
    expect(await dialog.locator(".cc-import-conflicts").textContent()).toContain("!discord");
    await demo.page.screenshot({ path: screenshotPath("custom-commands-import-table-1280") });
    await dialog.locator(".cc-import-apply").click();
    expect(await textOf(dialog.locator(".cc-import-summary"), (t) => t.startsWith("Imported"))).toBe(
      "Imported 2 commands from Nightbot.",
    );
    await dialog.getByRole("button", { name: "Close" }).click();
    await item("tbl_mods").waitFor();
    expect(await item("tbl_discord").textContent()).toContain("Join us on Discord");
  }, 30_000);

  test("regulars: an unknown login is refused at the field; a viewer is added, then removed", async () => {
    const card = demo.page.locator("#cc-regulars");
    await input(card, "login").fill("no_such_viewer_xyz");
    await card.getByRole("button", { name: "Add regular" }).click();
    expect(await textOf(errorOf(card, "login"), (t) => t !== "")).toContain("no_such_viewer_xyz");
    expect(await input(card, "login").inputValue()).toBe("no_such_viewer_xyz");

    await input(card, "login").fill("@viewer_anna");
    await card.getByRole("button", { name: "Add regular" }).click();
    await card.locator('li[data-login="viewer_anna"]').waitFor();
    await card.getByRole("button", { name: "Remove viewer_anna" }).click();
    await confirm("Remove");
    await card.locator('li[data-login="viewer_anna"]').waitFor({ state: "detached" });
    await card.locator(".state-empty").waitFor();
  }, 30_000);

  test("a response a moderator typed in chat shows as text, never as markup", async () => {
    const markup = '<img src=x onerror="window.pwned=1"> <b>bold</b> $(user)';
    const added = await demo.page.request.post(`${demo.base}/api/dashboard/custom-commands`, {
      headers: { origin: demo.base },
      data: { name: "markup", response: markup },
    });
    expect(added.status()).toBe(200);
    await openView();
    expect(await item("markup").locator(".cc-response").textContent()).toBe(markup);
    expect(await item("markup").locator("img, b").count()).toBe(0);
    expect(await demo.page.evaluate(() => "pwned" in window)).toBe(false);
    await item("markup").getByRole("button", { name: "Delete !markup" }).click();
    await confirm("Delete");
    await item("markup").waitFor({ state: "detached" });
  }, 30_000);

  test("at 360 and 1280 px, light and dark: no sideways scrolling, axe clean, screenshots", async () => {
    await input(demo.page.locator("#cc-regulars"), "login").fill("modbob");
    await demo.page.locator("#cc-regulars").getByRole("button", { name: "Add regular" }).click();
    await demo.page.locator('#cc-regulars li[data-login="modbob"]').waitFor();
    await openView();
    await demo.page.locator("#cc-add details summary").click();
    for (const [width, height] of [
      [1280, 800],
      [360, 740],
    ] as const) {
      await demo.page.setViewportSize({ width, height });
      for (const scheme of ["light", "dark"] as const) {
        await demo.page.emulateMedia({ colorScheme: scheme });
        const name = `${width}${scheme === "dark" ? "-dark" : ""}`;
        expect(await horizontalOverflow(demo.page)).toBe(0);
        expect(await axeViolations(demo.page)).toEqual([]);
        await demo.page.screenshot({ path: screenshotPath(`custom-commands-${name}`), fullPage: true });
      }
      await item("wins").getByRole("button", { name: "Edit !wins" }).click();
      const dialog = demo.page.locator("dialog[open]");
      await dialog.getByRole("button", { name: "Preview" }).click();
      await dialog.locator(".cc-preview-text").waitFor();
      expect(await axeViolations(demo.page)).toEqual([]);
      await demo.page.screenshot({ path: screenshotPath(`custom-commands-edit-${width}-dark`) });
      await dialog.getByRole("button", { name: "Close" }).click();
      await demo.page.click("#cc-import");
      await input(dialog, "body").fill(NIGHTBOT_LIST);
      await dialog.getByRole("button", { name: "Preview" }).click();
      await dialog.locator(".cc-import-conflicts").waitFor();
      expect(await axeViolations(demo.page)).toEqual([]);
      await demo.page.screenshot({ path: screenshotPath(`custom-commands-import-${width}-dark`) });
      await dialog.getByRole("button", { name: "Close" }).click();
      await demo.page.emulateMedia({ colorScheme: "light" });
    }
    // Chromium logs each refused request; the only ones are the two refusals asked for above.
    expect(demo.watch.problems).toEqual([
      "console error: Failed to load resource: the server responded with a status of 409 (Conflict)",
      "console error: Failed to load resource: the server responded with a status of 404 (Not Found)",
    ]);
  }, 90_000);

  test("an empty list says how to add a command, from here or from chat", async () => {
    const listed = await demo.page.request.get(`${demo.base}/api/dashboard/custom-commands`);
    const items = ((await listed.json()) as { data: { items: { name: string }[] } }).data.items;
    for (const { name } of items) {
      const deleted = await demo.page.request.delete(`${demo.base}/api/dashboard/custom-commands/${name}`, {
        headers: { origin: demo.base },
      });
      expect(deleted.status()).toBe(200);
    }
    await openView();
    expect(await demo.page.locator("#cc-commands .cc-empty").textContent()).toContain("!addcom !discord");
    expect(await axeViolations(demo.page)).toEqual([]);
  }, 30_000);

  // The findings of the outside review (each step failed before its fix).

  test("the automatic preview never takes focus from the field being typed in, and clears the errors it placed", async () => {
    // A step that fails says so in seconds, and the next steps still run.
    demo.page.setDefaultTimeout(8000);
    await openView();
    const add = demo.page.locator("#cc-add");
    await input(add, "user").fill("not a login!");
    await input(add, "response").click();
    await demo.page.keyboard.type("Hello");
    // The automatic preview runs (700 ms after typing stops) and the server refuses the viewer…
    expect(await textOf(errorOf(add, "user"), (t) => t !== "")).not.toBe("");
    // …but the cursor stays where the streamer types.
    await demo.page.keyboard.type(" there");
    expect(await input(add, "response").inputValue()).toBe("Hello there");
    expect(await input(add, "user").inputValue()).toBe("not a login!");
    expect(await demo.page.evaluate(() => document.activeElement?.getAttribute("data-field"))).toBe(
      "response",
    );

    // A refusal of the response itself goes away with the next preview that is accepted.
    await input(add, "user").fill("viewer_anna");
    await input(add, "response").fill("a".repeat(501));
    expect(await textOf(errorOf(add, "response"), (t) => t !== "")).not.toBe("");
    await input(add, "response").fill("Hi $(user)");
    expect(await textOf(add.locator(".cc-preview-text"), (t) => t !== "")).toBe("Hi viewer_anna");
    expect(await errorOf(add, "response").textContent()).toBe("");
    expect(await errorOf(add, "user").textContent()).toBe("");
  }, 30_000);

  test("an old preview answer never shows after the response was cleared", async () => {
    const add = demo.page.locator("#cc-add");
    await demo.page.route("**/api/dashboard/custom-commands/test", async (route) => {
      await Bun.sleep(1200);
      await route.continue();
    });
    try {
      await input(add, "response").fill("slow reply");
      await add.getByRole("button", { name: "Preview" }).click();
      await input(add, "response").fill("");
      await add.getByRole("button", { name: "Preview" }).click();
      await Bun.sleep(2000);
      expect(await add.locator(".cc-preview-out").textContent()).toBe("Type a response to see the reply.");
    } finally {
      await demo.page.unroute("**/api/dashboard/custom-commands/test");
    }
  }, 30_000);

  test("a double click on Add command stores once and says so once", async () => {
    const add = demo.page.locator("#cc-add");
    await input(add, "name").fill("!twice");
    await input(add, "response").fill("Said once.");
    await add.evaluate((form) => {
      const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
      button.click();
      button.click();
    });
    expect(await textOf(add.locator(".save-status").last(), (t) => t !== "")).toBe("!twice added.");
    await Bun.sleep(500);
    expect(await add.locator(".save-status").last().textContent()).toBe("!twice added.");
    expect(await errorOf(add, "name").textContent()).toBe("");
  }, 30_000);

  test("a pasted response keeps every character the server counts (emoji too), and Enter adds no line break", async () => {
    await openView();
    const add = demo.page.locator("#cc-add");
    const emoji = "😀".repeat(300);
    await input(add, "response").fill(emoji);
    expect(await input(add, "response").inputValue()).toBe(emoji);
    expect(await add.locator(".cc-length").textContent()).toContain("300 / 500");
    await input(add, "response").fill("one line");
    await input(add, "response").press("End");
    await input(add, "response").press("Enter");
    expect(await input(add, "response").inputValue()).not.toContain("\n");
    await input(add, "response").fill("");
    await input(add, "name").fill("");
  }, 30_000);

  test("clearing an alias whose response only passes the words on is refused at Response", async () => {
    await openView();
    const add = demo.page.locator("#cc-add");
    const target = await demo.page.request.post(`${demo.base}/api/dashboard/custom-commands`, {
      headers: { origin: demo.base },
      data: { name: "aliased", response: "The aliased command: $(query)" },
    });
    expect(target.status()).toBe(200);
    await input(add, "name").fill("!echoalias");
    await input(add, "aliasTarget").fill("!aliased");
    await add.getByRole("button", { name: "Add command" }).click();
    await item("echoalias").waitFor({ timeout: 5000 });
    await item("echoalias").getByRole("button", { name: "Edit !echoalias" }).click();
    const dialog = demo.page.locator("dialog[open]");
    await input(dialog, "aliasTarget").fill("");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    expect(await textOf(errorOf(dialog, "response"), (t) => t !== "")).toContain(
      "without its alias the command would repeat what the chatter types",
    );
    const stored = await demo.page.request.get(`${demo.base}/api/dashboard/custom-commands`);
    const echo = (
      (await stored.json()) as { data: { items: { name: string; aliasTarget: string | null }[] } }
    ).data.items.find((c) => c.name === "echoalias");
    expect(echo?.aliasTarget).toBe("aliased");
    await demo.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached", timeout: 5000 });
  }, 30_000);

  test("a reload of the list keeps the filter and a count typed but not set", async () => {
    const add = demo.page.locator("#cc-add");
    for (const name of ["f1", "f2", "f3", "f4"]) {
      const made = await demo.page.request.post(`${demo.base}/api/dashboard/custom-commands`, {
        headers: { origin: demo.base },
        data: { name, response: `${name} $(count)` },
      });
      expect(made.status()).toBe(200);
    }
    await openView();
    await demo.page.getByLabel("Find a command").fill("f2");
    await input(item("f2"), "count").fill("99");
    await input(add, "name").fill("!later");
    await input(add, "response").fill("added later");
    await add.getByRole("button", { name: "Add command" }).click();
    await item("later").waitFor({ state: "attached", timeout: 5000 });
    expect(await demo.page.getByLabel("Find a command").inputValue()).toBe("f2");
    expect(await item("later").isHidden()).toBe(true);
    expect(await item("f1").isHidden()).toBe(true);
    expect(await input(item("f2"), "count").inputValue()).toBe("99");
  }, 30_000);

  test("after a delete, focus goes to the next command's Edit, and to the next regular's Remove", async () => {
    await openView();
    await demo.page.getByLabel("Find a command").fill("");
    const next = await item("f2").evaluate((li) => (li.nextElementSibling as HTMLElement).dataset.command);
    await item("f2").getByRole("button", { name: "Delete !f2" }).click();
    await confirm("Delete");
    await item("f2").waitFor({ state: "detached", timeout: 5000 });
    await demo.page.waitForFunction(
      (name) => document.activeElement?.getAttribute("aria-label") === `Edit !${name}`,
      next,
      { timeout: 5000 },
    );

    const card = demo.page.locator("#cc-regulars");
    for (const login of ["subdave", "lurker_eve"]) {
      await input(card, "login").fill(login);
      await card.getByRole("button", { name: "Add regular" }).click();
      await card.locator(`li[data-login="${login}"]`).waitFor({ timeout: 5000 });
    }
    const first = await card.locator("li").first().getAttribute("data-login");
    const second = await card.locator("li").nth(1).getAttribute("data-login");
    await card.getByRole("button", { name: `Remove ${first}` }).click();
    await confirm("Remove");
    await demo.page.waitForFunction(
      (login) => document.activeElement?.getAttribute("aria-label") === `Remove ${login}`,
      second,
      { timeout: 5000 },
    );
  }, 30_000);

  test("a save finishing after its dialog was closed still updates the list", async () => {
    await openView();
    await demo.page.route("**/api/dashboard/custom-commands/f1", async (route) => {
      if (route.request().method() === "PUT") await Bun.sleep(800);
      await route.continue();
    });
    try {
      await item("f1").getByRole("button", { name: "Edit !f1" }).click();
      const dialog = demo.page.locator("dialog[open]");
      await input(dialog, "response").fill("f1 changed $(count)");
      await dialog.getByRole("button", { name: "Save changes" }).click();
      await dialog.getByRole("button", { name: "Close" }).click();
      await dialog.waitFor({ state: "detached", timeout: 5000 });
      expect(await textOf(item("f1").locator(".cc-response"), (t) => t.includes("changed"))).toBe(
        "f1 changed $(count)",
      );
    } finally {
      await demo.page.unroute("**/api/dashboard/custom-commands/f1");
    }
  }, 30_000);

  /** Opens the import dialog with a Nightbot-shaped list of `names` pasted and previewed. */
  async function importPreviewed(names: string[]): Promise<Locator> {
    await openView();
    await demo.page.getByRole("button", { name: "Import from Nightbot or StreamElements" }).click();
    const dialog = demo.page.locator("dialog[open]");
    await input(dialog, "body").fill(nightbotList(names));
    await dialog.getByRole("button", { name: "Preview" }).click();
    await textOf(dialog.locator(".cc-import-apply"), (t) => t.startsWith("Import "));
    return dialog;
  }

  test("import: a double click on Import imports once and keeps saying what it imported", async () => {
    const dialog = await importPreviewed(["imp_a", "imp_b"]);
    await dialog.locator(".cc-import-apply").evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    const summary = dialog.locator(".cc-import-summary");
    expect(await textOf(summary, (t) => t.startsWith("Imported"))).toBe("Imported 2 commands from Nightbot.");
    await Bun.sleep(600);
    expect(await summary.textContent()).toBe("Imported 2 commands from Nightbot.");
    // The list behind the dialog already shows them.
    await item("imp_b").waitFor({ state: "attached", timeout: 5000 });
    await dialog.getByRole("button", { name: "Close" }).click();
  }, 30_000);

  test("import: one command is “Import 1 command”", async () => {
    const dialog = await importPreviewed(["imp_one"]);
    expect(await dialog.locator(".cc-import-apply").textContent()).toBe("Import 1 command");
    await dialog.getByRole("button", { name: "Close" }).click();
  }, 30_000);

  test("import: a list changed while its preview loads gets no stale plan and no Import button", async () => {
    const dialog = await importPreviewed(["imp_one"]);
    await demo.page.route("**/api/dashboard/custom-commands/import", async (route) => {
      await Bun.sleep(800);
      await route.continue();
    });
    try {
      await input(dialog, "body").fill(nightbotList(["imp_two"]));
      await dialog.getByRole("button", { name: "Preview" }).click();
      await input(dialog, "body").fill(nightbotList(["imp_three"]));
      await Bun.sleep(1500);
      expect(await dialog.locator(".cc-import-apply").isHidden()).toBe(true);
      expect(await dialog.locator(".cc-import-plan").textContent()).toBe("");
    } finally {
      await demo.page.unroute("**/api/dashboard/custom-commands/import");
    }
    await dialog.getByRole("button", { name: "Close" }).click();
  }, 30_000);

  test("at 360 px a 32-character name's Edit dialog keeps its Close button on one line", async () => {
    const name = "a".repeat(32);
    const made = await demo.page.request.post(`${demo.base}/api/dashboard/custom-commands`, {
      headers: { origin: demo.base },
      data: { name, response: "long name" },
    });
    expect(made.status()).toBe(200);
    await demo.page.setViewportSize({ width: 360, height: 800 });
    try {
      await openView();
      await item(name)
        .getByRole("button", { name: `Edit !${name}` })
        .click();
      const dialog = demo.page.locator("dialog[open]");
      const close = await dialog.getByRole("button", { name: "Close" }).boundingBox();
      const preview = await dialog.getByRole("button", { name: "Preview" }).boundingBox();
      expect(close!.height).toBe(preview!.height);
      expect(await horizontalOverflow(demo.page)).toBeLessThanOrEqual(0);
      await demo.page.screenshot({ path: screenshotPath("custom-commands-edit-long-name-360") });
      await demo.page.keyboard.press("Escape");
    } finally {
      await demo.page.setViewportSize({ width: 1280, height: 800 });
    }
  }, 30_000);
});
