// biome-ignore-all lint/suspicious/noTemplateCurlyInString: StreamElements' ${…} variables are literal line text.
// The copy-paste lines for each chat bot (docs/chat-bots.md, the README's first line of each), built for this
// server's public URL and the streamer's key, and the same call made "as the bot would" for a test:
// the bot's variables filled with sample values and the bot's identifying headers sent. Pure.

import type { CommandName } from "../../../vocabulary.ts";

export type BotId = "nightbot" | "streamelements" | "fossabot" | "streamerbot";

export interface Bot {
  id: BotId;
  name: string;
  /** Cloud bots call from the internet; Streamer.bot runs on the streamer's PC. */
  cloud: boolean;
  /** Where the line goes, in the bot's own words. */
  howTo: string;
}

export const BOTS: readonly Bot[] = [
  {
    id: "nightbot",
    name: "Nightbot",
    cloud: true,
    howTo: "Nightbot → Commands → Custom → Add Command: the name in Command, the line in Message.",
  },
  {
    id: "streamelements",
    name: "StreamElements",
    cloud: true,
    howTo:
      "StreamElements → Chat bot → Chat commands → Custom commands → Add new command: the line is the response.",
  },
  {
    id: "fossabot",
    name: "Fossabot",
    cloud: true,
    howTo: "Fossabot → Commands → Add command: the line is the response.",
  },
  {
    id: "streamerbot",
    name: "Streamer.bot",
    cloud: false,
    howTo:
      "Streamer.bot → Actions: add a Command trigger, a Fetch URL sub-action with this URL (variable name reply), then Send Message %reply%.",
  },
];

/** Sample values a test puts where the bot would put chat's. */
export interface Sample {
  /** The streamer's channel login. */
  channel: string;
  /** The viewer who typed the command (and who it is about, for $(touser)). */
  viewer: string;
  /** The words after the command. */
  words: string;
}

interface Param {
  name: string;
  /** The bot's variable for it; a bot missing here sends no such parameter. */
  expr: Partial<Record<BotId, string>>;
  sample: (s: Sample) => string;
}

interface CommandLine {
  command: CommandName;
  /** What viewers type. */
  chat: string;
  path: string;
  params: Param[];
}

const channel: Param = {
  name: "channel",
  expr: { streamelements: "${channel}", fossabot: "$(channel)", streamerbot: "%broadcastUserName%" },
  sample: (s) => s.channel,
};
const caller: Param = {
  name: "user",
  expr: { streamelements: "${user}", fossabot: "$(user.login)", streamerbot: "%userName%" },
  sample: (s) => s.viewer,
};
const touser: Param = {
  name: "user",
  expr: {
    nightbot: "$(touser)",
    streamelements: "${touser}",
    fossabot: "$(touser)",
    streamerbot: "%userName%",
  },
  sample: (s) => s.viewer,
};

const LINES: readonly CommandLine[] = [
  { command: "followage", chat: "!followage", path: "/api/followage", params: [channel, touser] },
  {
    command: "shoutout",
    chat: "!so",
    path: "/api/bot/shoutout",
    params: [
      {
        name: "user",
        expr: {
          nightbot: "$(touser)",
          streamelements: "${touser}",
          fossabot: "$(touser)",
          streamerbot: "%input0%",
        },
        sample: (s) => s.words.split(/\s+/)[0] || s.viewer,
      },
    ],
  },
  {
    command: "magic8",
    chat: "!8ball",
    path: "/api/bot/magic8",
    params: [
      {
        name: "question",
        expr: {
          nightbot: "$(querystring)",
          streamelements: "${queryescape ${1:}}",
          fossabot: "$(querystring)",
          streamerbot: "%rawInputUrlEncoded%",
        },
        sample: (s) => s.words,
      },
    ],
  },
  { command: "clip", chat: "!clip", path: "/api/bot/clip", params: [] },
  { command: "roulette", chat: "!roulette", path: "/api/bot/roulette", params: [caller] },
  { command: "pick", chat: "!pick", path: "/api/bot/pick", params: [] },
  {
    command: "dice",
    chat: "!dice",
    path: "/api/bot/dice",
    params: [
      { ...caller, expr: { ...caller.expr, nightbot: undefined } },
      { name: "sides", expr: { nightbot: "$(1)" }, sample: () => "20" },
    ],
  },
  {
    command: "coinflip",
    chat: "!coin",
    path: "/api/bot/coinflip",
    params: [{ ...caller, expr: { streamelements: "${user}", streamerbot: "%userName%" } }],
  },
];

/** Nightbot and Fossabot identify themselves by headers (text mode is automatic); the others ask for it. */
const NEEDS_FORMAT: Record<BotId, boolean> = {
  nightbot: false,
  streamelements: true,
  fossabot: false,
  streamerbot: true,
};

function wrap(bot: BotId, url: string): string {
  switch (bot) {
    case "nightbot":
      return `$(urlfetch ${url})`;
    case "streamelements":
      return `\${customapi.${url}}`;
    case "fossabot":
      return `$(customapi ${url})`;
    case "streamerbot":
      return url;
  }
}

function query(bot: BotId, key: string, pairs: [string, string][]): string {
  const parts = [`apiKey=${key}`];
  if (NEEDS_FORMAT[bot]) parts.push("format=text");
  for (const [name, value] of pairs) parts.push(`${name}=${value}`);
  return parts.join("&");
}

export interface BotLine {
  command: CommandName;
  chat: string;
  /** What to paste into the bot. */
  line: string;
}

/** The lines for one bot, for the commands given (in catalog order). */
export function botLines(
  bot: BotId,
  publicUrl: string,
  key: string,
  commands: readonly CommandName[],
): BotLine[] {
  const base = publicUrl.replace(/\/+$/, "");
  return LINES.filter((l) => commands.includes(l.command)).map((l) => {
    const pairs = l.params.flatMap((p): [string, string][] => (p.expr[bot] ? [[p.name, p.expr[bot]!]] : []));
    return {
      command: l.command,
      chat: l.chat,
      line: wrap(bot, `${base}${l.path}?${query(bot, key, pairs)}`),
    };
  });
}

export interface BotCall {
  /** Path and query on this server (the test goes to the dashboard's own origin). */
  path: string;
  headers: Record<string, string>;
}

/** The request the bot would send for `command` when `sample.viewer` types it in `sample.channel`. */
export function botCall(bot: BotId, command: CommandName, key: string, sample: Sample): BotCall {
  const line = LINES.find((l) => l.command === command);
  if (!line) throw new Error(`no bot line for ${command}`);
  const pairs = line.params.flatMap((p): [string, string][] =>
    p.expr[bot] ? [[p.name, encodeURIComponent(p.sample(sample))]] : [],
  );
  const headers: Record<string, string> = {};
  if (bot === "nightbot") {
    const who = (name: string) =>
      new URLSearchParams({ name, displayName: name, provider: "twitch" }).toString();
    headers["Nightbot-Channel"] = who(sample.channel);
    headers["Nightbot-User"] = `${who(sample.viewer)}&userLevel=everyone`;
  }
  if (bot === "fossabot") {
    headers["x-fossabot-channellogin"] = sample.channel;
    headers["x-fossabot-message-userlogin"] = sample.viewer;
    headers["x-fossabot-message-userdisplayname"] = sample.viewer;
    headers["x-fossabot-message-userlevel"] = "everyone";
  }
  return { path: `${line.path}?${query(bot, encodeURIComponent(key), pairs)}`, headers };
}

/** Cloud bots run on the internet: a loopback or private address is out of their reach. */
export function isLocalUrl(publicUrl: string): boolean {
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, "");
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "::1" ||
    host === "0.0.0.0" ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host)
  );
}
