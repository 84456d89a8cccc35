/**
 * A custom command's response with its variables filled in (issue 24; Nightbot's `$(…)` syntax,
 * reference/chat-bot-commands.md §2). Pure apart from what is injected: the random source, the clock
 * and the async resolvers for what needs Twitch or the game API.
 *
 * What a chatter typed is never read as variables: the template is the streamer's text, parsed once;
 * a variable's value (a chatter's words, a resolver's answer) is inserted as text and never scanned
 * again, so a `$(query)` of `$(count)` stays `$(count)`. Inner variables are filled first, as
 * Nightbot does (`$(pick $(1)|nobody)`). Unknown variables stay as typed. Nothing fetches a URL:
 * `$(urlfetch …)` and its old name `$(customapi …)` answer a fixed sentence, and so does `$(eval …)`.
 *
 * The rules of core/chat-echo.ts apply where a variable chooses a name: `$(touser)` and
 * `$(followage <name>)` take a chatter's word only when it is login-shaped (`echoable`). `$(query)`
 * and `$(1)`…`$(9)` insert the chatter's words as typed: placing them is the streamer's choice
 * (CONTRACT §6), but their control characters (newlines, bidi overrides) are dropped. Whoever wrote
 * it, the reply loses the command characters and invisible characters it would open with
 * (core/chat-lead.ts: `!bot part` → `bot part`), as native chat's send queue does to every line, so
 * the dashboard's preview shows what chat will.
 * core/chat-text.ts's unreplaced-template rule does not apply: there is no other bot in between.
 */
import { pickOne, type Random, randomInt } from "../bot/chance.ts";
import { GAME_COMMANDS, type GameCommandName } from "../bot/game-commands.ts";
import { chatLine } from "../chat/send-limits.ts";
import { echoable } from "../core/chat-echo.ts";
import { withoutCommandLead } from "../core/chat-lead.ts";
import type { Clock } from "../core/clock.ts";
import { MAX_RESPONSE_LENGTH } from "./management.ts";

/** What needs Twitch or the game API; each may fail, and then shows a placeholder. */
export interface VariableResolvers {
  /** How long the stream has been live (the resolver words "offline" itself). */
  uptime(): Promise<string>;
  /** The channel's category. */
  game(): Promise<string>;
  /** How long `login` has followed the channel. */
  followage(login: string): Promise<string>;
  /** A game command's chat line for the streamer's configured player (`$(rank)`, …). */
  gameCommand(command: GameCommandName): Promise<string>;
}

export interface ExpansionInput {
  /** Who ran the command: chat shows `displayName`. */
  caller: { login: string; displayName: string };
  /** The channel's name as chat shows it. */
  channel: string;
  /** The chatter's words after the trigger. */
  args: readonly string[];
  /** This command's use count, this use included (`$(count)`; see `usesCount`). */
  count: number;
  random: Random;
  clock: Clock;
  resolvers: Partial<VariableResolvers>;
}

/** Every variable name cuebot fills (lower case); any other `$(…)` stays as typed. */
export const KNOWN_VARIABLES: readonly string[] = [
  "user",
  "touser",
  "query",
  "count",
  "channel",
  "uptime",
  "game",
  "followage",
  "time",
  "random",
  "pick",
  "1",
  "2",
  "3",
  "4",
  "5",
  "6",
  "7",
  "8",
  "9",
  ...GAME_COMMANDS,
  "urlfetch",
  "customapi",
  "eval",
];

/** Variables that would run code or fetch a URL: each answers this instead, whatever it names. */
const REFUSED: Readonly<Record<string, string>> = {
  urlfetch: "(cuebot does not fetch URLs)",
  customapi: "(cuebot does not fetch URLs)",
  eval: "(cuebot does not run code)",
};

/** Deeper nesting than this is left as typed; a real response needs two or three levels. */
const MAX_DEPTH = 8;
const LONGEST_ZONE = 64;

type Node =
  | { kind: "text"; text: string }
  | { kind: "variable"; name: string; argument: Node[]; typed: string };

/** Whether the response shows `$(count)`: Nightbot counts a use only then (reference §2.1). */
export function usesCount(template: string): boolean {
  const filled = (node: Node) =>
    node.kind === "variable" && KNOWN_VARIABLES.includes(node.name) && !Object.hasOwn(REFUSED, node.name);
  const has = (nodes: Node[]): boolean =>
    nodes.some(
      (node) => node.kind === "variable" && filled(node) && (node.name === "count" || has(node.argument)),
    );
  return has(parseTemplate(template));
}

/**
 * The reply: one line, at most a chat line long, never opening with a command; empty when nothing
 * else came out.
 */
export async function expandResponse(template: string, input: ExpansionInput): Promise<string> {
  const pieces = await fill(parseTemplate(template), new Expansion(input));
  return chatLine(withoutCommandLead(pieces.join("")));
}

/** The template as text and variables; an unclosed `$(` is text. */
function parseTemplate(template: string, depth = 0): Node[] {
  const nodes: Node[] = [];
  let text = "";
  let i = 0;
  while (i < template.length) {
    const close = template.startsWith("$(", i) && depth < MAX_DEPTH ? closingParen(template, i + 2) : -1;
    const inner = close < 0 ? null : template.slice(i + 2, close);
    const name = inner === null ? null : /^\s*([A-Za-z0-9_]+)(?=\s|$)/u.exec(inner);
    if (inner === null || name === null) {
      text += template[i];
      i += 1;
      continue;
    }
    if (text) nodes.push({ kind: "text", text });
    text = "";
    const argument = parseTemplate(inner.slice(name[0].length).trim(), depth + 1);
    nodes.push({ kind: "variable", name: (name[1] ?? "").toLowerCase(), argument, typed: `$(${inner})` });
    i = close + 1;
  }
  if (text) nodes.push({ kind: "text", text });
  return nodes;
}

/**
 * The index of the `)` that closes a `$(` whose contents start at `from`, or -1. A variable is never
 * longer than a response may be, so an unclosed `$(((…` costs a bounded look, not the rest of the text.
 */
function closingParen(template: string, from: number): number {
  let depth = 1;
  const end = Math.min(template.length, from + MAX_RESPONSE_LENGTH);
  for (let i = from; i < end; i++) {
    if (template[i] === "(") depth += 1;
    else if (template[i] === ")" && --depth === 0) return i;
  }
  return -1;
}

/** Siblings are filled together, so two resolvers wait for each other's answer only once. */
async function fill(nodes: Node[], expansion: Expansion): Promise<string[]> {
  return await Promise.all(
    nodes.map(async (node): Promise<string> => {
      if (node.kind === "text") return node.text;
      if (!KNOWN_VARIABLES.includes(node.name)) return node.typed;
      if (Object.hasOwn(REFUSED, node.name)) return REFUSED[node.name] ?? "";
      const argument = await fill(node.argument, expansion);
      return await expansion.value(node.name, argument.join("").trim());
    }),
  );
}

/** Control characters a chatter may slip in: newlines, tabs, bidi overrides and isolates. */
const CONTROL = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** A chatter's words as a variable inserts them: their control characters dropped, a newline a space. */
function chatterText(text: string): string {
  return text.replace(CONTROL, (c) => (/\s/u.test(c) ? " " : ""));
}

/** One expansion's state: the input, and each resolver's answer, asked for once however often used. */
class Expansion {
  readonly #asked = new Map<string, Promise<string>>();
  constructor(readonly input: ExpansionInput) {}

  /** A resolver's answer, or a short placeholder when it is missing, fails or answers nothing. */
  resolve(key: string, label: string, ask: (() => Promise<string>) | null): Promise<string> {
    let answer = this.#asked.get(key);
    if (!answer) {
      const placeholder = `(${label} unavailable)`;
      answer = (async () => {
        try {
          const text = ask ? await ask() : "";
          return typeof text === "string" && text.trim() !== "" ? text : placeholder;
        } catch {
          return placeholder;
        }
      })();
      this.#asked.set(key, answer);
    }
    return answer;
  }

  /** The target of `$(touser)`: the first word when it is a login (an `@` dropped), else the caller. */
  touser(): string {
    return echoable(this.input.args[0]) ?? this.callerName();
  }

  callerName(): string {
    return this.input.caller.displayName || this.input.caller.login;
  }

  /** A known variable's value; `argument` is its argument, filled in. */
  async value(name: string, argument: string): Promise<string> {
    const { input } = this;
    const { resolvers } = input;
    if (/^[1-9]$/.test(name)) return chatterText(input.args[Number(name) - 1] ?? "");
    switch (name) {
      case "user":
        return this.callerName();
      case "touser":
        return this.touser();
      case "query":
        return chatterText(input.args.join(" "));
      case "count":
        return String(input.count);
      case "channel":
        return input.channel;
      case "uptime":
        return this.resolve("uptime", "uptime", ask(resolvers.uptime, resolvers));
      case "game":
        return this.resolve("game", "game", ask(resolvers.game, resolvers));
      case "followage": {
        const login = echoable(argument) ?? this.touser();
        const resolver = ask(resolvers.followage, resolvers, login);
        return this.resolve(`followage:${login.toLowerCase()}`, "followage", resolver);
      }
      case "time":
        return timeIn(argument.split(/\s+/u)[0] || "UTC", input.clock.now());
      case "random":
        return randomIn(argument, input.random);
      case "pick":
        return pickFrom(argument, input.random);
      default: {
        const command = name as GameCommandName;
        return this.resolve(command, command, ask(resolvers.gameCommand, resolvers, command));
      }
    }
  }
}

/** A resolver call with its arguments bound, or null when the resolver was not given. */
function ask<A extends unknown[]>(
  resolver: ((...args: A) => Promise<string>) | undefined,
  owner: Partial<VariableResolvers>,
  ...args: A
): (() => Promise<string>) | null {
  return resolver ? () => resolver.apply(owner, args) : null;
}

/** `$(time Europe/Paris)`: the date and time there, or a fixed sentence for a zone Intl does not know. */
export function timeIn(zone: string, now: number): string {
  if (zone.length > LONGEST_ZONE) return "(unknown time zone)";
  try {
    return new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZoneName: "short",
    }).format(now);
  } catch {
    return "(unknown time zone)";
  }
}

const RANGE = /^(-?\d{1,9})\s*-\s*(-?\d{1,9})$/u;

/** `$(random 1-100)`: a whole number in the range, both ends included (either order). */
export function randomIn(argument: string, random: Random): string {
  const match = RANGE.exec(argument.trim());
  if (!match) return "(random needs a range like 1-100)";
  const a = Number(match[1]);
  const b = Number(match[2]);
  return String(randomInt(random, Math.min(a, b), Math.max(a, b)));
}

/** `$(pick a|b|c)`: one of the choices, blanks skipped. */
export function pickFrom(argument: string, random: Random): string {
  const choices = argument
    .split("|")
    .map((choice) => choice.trim())
    .filter((choice) => choice !== "");
  return pickOne(random, choices) ?? "(pick needs choices like a|b|c)";
}
