import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ApiError } from "../../../server/core/errors.ts";
import { type ImportPlan, planImport } from "../../../server/custom/import.ts";
import { cooldownSeconds, nightbotTableCommands } from "../../../server/custom/import-table.ts";
import { FOLDING_LOOKALIKES, TROLL_TEXTS } from "../../helpers/troll-texts.ts";

/** The whole public commands page, selected and copied (menus and footer included). */
const PAGE = readFileSync(
  join(import.meta.dir, "../../fixtures/chat-bots/nightbot-commands-page.txt"),
  "utf8",
);
const HEADER = "Command\tMessage\tUserlevel\tCooldown";

function plan(text: string, existing: string[] = [], builtins: string[] = []): ImportPlan {
  return planImport({ body: text, format: "detect", existingNames: existing, builtinNamesOn: builtins });
}

function refusal(text: unknown, format: "detect" | "nightbot" | "streamelements" = "detect"): string {
  try {
    planImport({ body: text, format, existingNames: [], builtinNamesOn: [] });
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error("the text was accepted");
}

const table = (...rows: string[]) => [HEADER, ...rows].join("\n");
const whyOf = (notes: { name: string; why: string }[], name: string) =>
  notes.find((n) => n.name === name)?.why;

describe("Nightbot's commands page, copied whole from the browser", () => {
  const result = plan(PAGE, ["lurk"], ["followage", "so", "shoutout"]);

  test("reads the table's rows as Nightbot's list: names, messages, levels and cooldowns", () => {
    expect(result.format).toBe("nightbot");
    expect(result.add.map((c) => [c.name, c.level, c.cooldownSeconds])).toEqual([
      ["discord", "everyone", 30],
      ["socials", "regular", 30],
      ["vipsonly", "twitch_vip", 300],
      ["modcheck", "moderator", 5],
      ["uptime", "everyone", 30],
    ]);
    expect(result.add[0]!.response).toBe("Join the community Discord: https://discord.gg/example");
    // Nightbot's own way to print the uptime becomes cuebot's variable, as from the API's list.
    expect(result.add.find((c) => c.name === "uptime")!.response).toBe("$(uptime)");
  });

  test("the page's menus and footer are not commands; an existing name is a conflict; a cut cooldown is said", () => {
    expect(result.unsupported).toEqual([]);
    expect(result.conflicts.map((c) => c.name)).toEqual(["lurk"]);
    expect(whyOf(result.adjusted, "vipsonly")).toBe("Its cooldown of 600 s becomes 300 s.");
  });

  test("Windows line ends, a header in another order and case, an Actions column: the same commands", () => {
    const text = ["cooldown\tUSER LEVEL\tmessage\tcommand\tActions", "5\tmoderator\thi there\t!hi\t✎ 🗑"].join(
      "\r\n",
    );
    expect(plan(text).add).toEqual([
      expect.objectContaining({ name: "hi", response: "hi there", level: "moderator", cooldownSeconds: 5 }),
    ]);
  });

  test("without a header the columns are Nightbot's order; only the name and message are needed", () => {
    expect(nightbotTableCommands("!a\tone\n!b\ttwo\tSubscriber\t1m 30s\n")).toEqual({
      commands: [
        { name: "!a", message: "one" },
        { name: "!b", message: "two", userLevel: "subscriber", coolDown: 90 },
      ],
    });
  });

  test("several pages pasted one after another: each header once, every row once", () => {
    const twice = `${table("!one\tfirst\tEveryone\t5s")}\nPage 2\n${table("!two\tsecond\tEveryone\t5s")}`;
    expect(plan(twice).add.map((c) => c.name)).toEqual(["one", "two"]);
  });
});

describe("what a pasted table cannot be", () => {
  test("text with no columns at all says what to paste", () => {
    for (const text of ["", "   ", "hello world", "!discord join us"]) {
      expect(refusal(text)).toContain("neither JSON nor a table copied from Nightbot");
    }
  });

  test("a header with no rows asks for the rows", () => {
    expect(refusal(`${HEADER}\n`)).toBe("The table has a header but no command rows; copy the rows too.");
  });

  test("a cooldown that is no number names its line and imports nothing", () => {
    const message = refusal(table("!ok\tfine\tEveryone\t5s", "!bad\toops\tEveryone\tsoon"));
    expect(message).toBe(
      'Line 3: the cooldown "soon" is not a number of seconds (like 30 or 30s); nothing was imported.',
    );
    expect(refusal(table(`!bad\toops\tEveryone\t${"9".repeat(5000)}`))).toContain("…");
  });

  test("Nightbot's channel lookup pasted instead of its commands says so", () => {
    const channel = { status: 200, channel: { _id: "567224fe9511a38f5114cae0", name: "cuebotdemo" } };
    expect(refusal(channel)).toStartWith("This is your Nightbot channel, not its commands");
  });

  test("read as StreamElements, a table is refused saying why", () => {
    expect(refusal(table("!a\tb\tEveryone\t5s"), "streamelements")).toContain(
      "a pasted table is read as Nightbot's",
    );
  });
});

describe("troll rows", () => {
  test("names leading with / or . or made of look-alikes or trolls' texts are refused one by one; good rows stay", () => {
    const bad = ["/ban", ".timeout", "/me", "\\so", ...FOLDING_LOOKALIKES, ...TROLL_TEXTS];
    const result = plan(table("!fine\tok\tEveryone\t5s", ...bad.map((name) => `${name}\tx\tEveryone\t5s`)));
    expect(result.add.map((c) => c.name)).toEqual(["fine"]);
    expect(result.unsupported).toHaveLength(bad.length);
  });

  test("duplicated names: the first wins, the others are conflicts; built-in names are conflicts", () => {
    const result = plan(
      table("!dup\tone\tEveryone\t5s", "!DUP\ttwo\tEveryone\t5s", "!so\thi\tEveryone\t5s"),
      [],
      ["so"],
    );
    expect(result.add.map((c) => c.response)).toEqual(["one"]);
    expect(result.conflicts.map((c) => [c.name, c.why.split(";")[0]])).toEqual([
      ["dup", "The file holds this name more than once"],
      ["so", "A built-in command of this name is on"],
    ]);
  });

  test("a message leading with a command character is kept as written (chat's sending drops the lead); invisible characters in cells are no header or level trick", () => {
    const result = plan(table("!cmd\t/ban everyone\tEveryone\t5s", "!lvl\tok\tMod\u200berator\t5s"));
    expect(result.add.map((c) => [c.name, c.level])).toEqual([
      ["cmd", "everyone"],
      ["lvl", "moderator"],
    ]);
  });

  test("an unknown level refuses its command only", () => {
    const result = plan(table("!a\tone\tSuper Fan\t5s", "!b\ttwo\tEveryone\t5s"));
    expect(result.add.map((c) => c.name)).toEqual(["b"]);
    expect(whyOf(result.unsupported, "a")).toBe('Its user level "Super Fan" is not one cuebot has.');
  });

  test("a huge paste: 1,001 rows are refused whole; 20,000 lines of page text without rows are read quickly and refused", () => {
    const rows = Array.from({ length: 1001 }, (_, i) => `!c${i}\tmessage ${i}\tEveryone\t5s`);
    expect(refusal(table(...rows))).toContain("at most 1000 can be imported at once");
    const started = performance.now();
    expect(refusal("menu text\n".repeat(20_000))).toContain("neither JSON nor a table");
    const longRow = `!long\t${"é".repeat(200_000)}\tEveryone\t5s`;
    expect(whyOf(plan(table(longRow)).unsupported, "long")).toContain("characters; at most");
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test("odd Unicode in messages is carried (emoji, right-to-left, combining marks); control characters refuse the command", () => {
    const result = plan(
      table("!emoji\t🎉 héllo שלום e\u0301\tEveryone\t5s", "!ctl\tbad\u0007bell\tEveryone\t5s"),
    );
    expect(result.add.map((c) => c.response)).toEqual(["🎉 héllo שלום e\u0301"]);
    expect(whyOf(result.unsupported, "ctl")).toBe("Its response holds control characters.");
  });
});

test("cooldown cells: seconds, units, sums, nothing; anything else is no cooldown", () => {
  expect(cooldownSeconds("30")).toBe(30);
  expect(cooldownSeconds(" 30s ")).toBe(30);
  expect(cooldownSeconds("5 minutes")).toBe(300);
  expect(cooldownSeconds("1m 30s")).toBe(90);
  expect(cooldownSeconds("1 min, 5 sec")).toBe(65);
  expect(cooldownSeconds("")).toBeUndefined();
  expect(cooldownSeconds("-")).toBeUndefined();
  for (const bad of ["-5", "abc", "5x", "1.5s", "３０", "30s!", "s"]) expect(cooldownSeconds(bad)).toBeNull();
});
