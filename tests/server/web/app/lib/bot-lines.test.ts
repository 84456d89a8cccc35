import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CommandName } from "../../../../../server/vocabulary.ts";
import {
  BOTS,
  type BotId,
  botCall,
  botLines,
  isLocalUrl,
} from "../../../../../server/web/app/lib/bot-lines.ts";

const KEY = "11111111-2222-4333-8444-555555555555";
const ALL: CommandName[] = [
  "followage",
  "shoutout",
  "magic8",
  "clip",
  "roulette",
  "pick",
  "dice",
  "coinflip",
];

describe("the chat-bot lines the dashboard offers", () => {
  test("Nightbot: the documented lines with the public URL and key filled in, text mode left to its headers", () => {
    expect(
      botLines("nightbot", "https://bot.example.com/", KEY, ALL).map((l) => `${l.chat} ${l.line}`),
    ).toEqual([
      `!followage $(urlfetch https://bot.example.com/api/followage?apiKey=${KEY}&user=$(touser))`,
      `!so $(urlfetch https://bot.example.com/api/bot/shoutout?apiKey=${KEY}&user=$(touser))`,
      `!8ball $(urlfetch https://bot.example.com/api/bot/magic8?apiKey=${KEY}&question=$(querystring))`,
      `!clip $(urlfetch https://bot.example.com/api/bot/clip?apiKey=${KEY})`,
      `!roulette $(urlfetch https://bot.example.com/api/bot/roulette?apiKey=${KEY})`,
      `!pick $(urlfetch https://bot.example.com/api/bot/pick?apiKey=${KEY})`,
      `!dice $(urlfetch https://bot.example.com/api/bot/dice?apiKey=${KEY}&sides=$(1))`,
      `!coin $(urlfetch https://bot.example.com/api/bot/coinflip?apiKey=${KEY})`,
    ]);
  });

  test("StreamElements and Streamer.bot ask for format=text and pass the channel and caller", () => {
    expect(botLines("streamelements", "https://h", KEY, ["followage"])[0]!.line).toBe(
      `\${customapi.https://h/api/followage?apiKey=${KEY}&format=text&channel=\${channel}&user=\${touser}}`,
    );
    expect(
      botLines("streamerbot", "http://localhost:8080", KEY, ["roulette", "magic8"]).map((l) => l.line),
    ).toEqual([
      `http://localhost:8080/api/bot/magic8?apiKey=${KEY}&format=text&question=%rawInputUrlEncoded%`,
      `http://localhost:8080/api/bot/roulette?apiKey=${KEY}&format=text&user=%userName%`,
    ]);
    expect(botLines("fossabot", "https://h", KEY, ["dice"])[0]!.line).toBe(
      `$(customapi https://h/api/bot/dice?apiKey=${KEY}&user=$(user.login))`,
    );
  });

  test("only the commands asked for (the enabled ones) get a line", () => {
    expect(botLines("nightbot", "https://h", KEY, ["coinflip"]).map((l) => l.command)).toEqual(["coinflip"]);
    expect(botLines("nightbot", "https://h", KEY, [])).toEqual([]);
  });

  test("a test call is the bot's request: sample values in its variables, its identifying headers", () => {
    const sample = { channel: "cuebotdemo", viewer: "viewer_anna", words: "will it rain?" };
    const nightbot = botCall("nightbot", "magic8", KEY, sample);
    expect(nightbot.path).toBe(`/api/bot/magic8?apiKey=${KEY}&question=will%20it%20rain%3F`);
    expect(new URLSearchParams(nightbot.headers["Nightbot-User"]).get("name")).toBe("viewer_anna");
    expect(new URLSearchParams(nightbot.headers["Nightbot-Channel"]).get("name")).toBe("cuebotdemo");
    const fossabot = botCall("fossabot", "followage", KEY, sample);
    expect(fossabot.path).toBe(`/api/followage?apiKey=${KEY}&channel=cuebotdemo&user=viewer_anna`);
    expect(fossabot.headers["x-fossabot-channellogin"]).toBe("cuebotdemo");
    expect(botCall("streamerbot", "shoutout", KEY, { ...sample, words: "otherstreamer" })).toEqual({
      path: `/api/bot/shoutout?apiKey=${KEY}&format=text&user=otherstreamer`,
      headers: {},
    });
  });

  test("loopback and private addresses are out of the cloud bots' reach; Streamer.bot is the local one", () => {
    for (const url of [
      "http://localhost:8080",
      "http://127.0.0.1:8080",
      "http://[::1]:8080",
      "http://192.168.1.20",
    ])
      expect(isLocalUrl(url)).toBe(true);
    for (const url of ["https://bot.example.com", "http://203.0.113.5:8080"])
      expect(isLocalUrl(url)).toBe(false);
    expect(BOTS.filter((b) => !b.cloud).map((b) => b.name)).toEqual(["Streamer.bot"]);
  });
});

const ROOT = join(import.meta.dir, "../../../../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** The lines of the first fenced block after `heading`, each with its runs of spaces made one. */
function blockAfter(text: string, heading: string): string[] {
  const start = text.indexOf(heading);
  if (start < 0) throw new Error(`no "${heading}" in the document`);
  const block = text.slice(start).match(/```\n([\s\S]*?)```/)?.[1] ?? "";
  return block
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.replace(/\s+/g, " ").trim());
}

/** What the dashboard offers a bot, written as the docs write it: `!chat line`, or the URL alone. */
function offered(bot: BotId): string[] {
  return botLines(bot, "HOST", "KEY", ALL).map((l) =>
    bot === "streamerbot" ? l.line : `${l.chat} ${l.line}`,
  );
}

describe("the lines the docs show are the ones the dashboard offers", () => {
  // The game commands' lines (`!rank`) are the game API's, not a bot command's: the dashboard has none.
  const notGame = (line: string) => !line.includes("/api/game/");

  test("docs/chat-bots.md: every bot's block, command by command", () => {
    for (const bot of BOTS) {
      expect(blockAfter(read("docs/chat-bots.md"), `## ${bot.name} `).filter(notGame)).toEqual(
        offered(bot.id),
      );
    }
  });

  test("README: each bot's one line is among them", () => {
    for (const bot of BOTS) {
      const lines = blockAfter(read("README.md"), `**${bot.name}**`);
      expect(lines).toHaveLength(1);
      expect(offered(bot.id)).toContain(lines[0] as string);
    }
  });
});
