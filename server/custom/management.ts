/**
 * The chat lines that add, edit and delete custom commands, Nightbot's syntax
 * (reference/chat-bot-commands.md §1, CONTRACT §6), read into a typed operation or one usage line.
 * Pure: whether the caller may manage, and the store, are the caller's business; what an operation
 * does to a stored command is in changes.ts.
 */
import { CHAT_BOT_LIMITS } from "../../db/chat-bot-rules.ts";
import { LEVEL_RULE, parseLevel, type UserLevel } from "./levels.ts";
import { NAME_RULE, parseCommandName } from "./names.ts";

export const MAX_RESPONSE_LENGTH = CHAT_BOT_LIMITS.textLength;
/**
 * `-cd=` from chat: "5 or more" (CONTRACT §6), at most 300 (issue 24). The store also takes 0 (no
 * cooldown) from the dashboard and imports; chat cannot set it, as Nightbot's `-cd` cannot.
 */
export const MIN_COOLDOWN_SECONDS = CHAT_BOT_LIMITS.cooldownSeconds.min;
export const MAX_COOLDOWN_SECONDS = CHAT_BOT_LIMITS.cooldownSeconds.max;
/**
 * `-c=` sets the use count (undocumented but sent by bots: `-c=0`, `-c=-1` in alias bodies), within
 * ± this (an import holds counts to the same bound); well inside what the store's column holds.
 */
export const MAX_COUNT = 1_000_000_000;

/** The options a line names; an option it does not name is absent (an edit keeps it). */
export interface CommandOptions {
  userLevel?: UserLevel;
  cooldownSeconds?: number;
  /** `-a=!other`: the command runs `!other` with its response as input (stored name). */
  aliasTarget?: string;
  count?: number;
}

export type ManagementOperation =
  | { kind: "add"; name: string; options: CommandOptions; response: string }
  | { kind: "edit"; name: string; options: CommandOptions; response: string | null }
  | { kind: "delete"; name: string }
  /** Bare `!commands`: Nightbot answers with where the list is. */
  | { kind: "list" };

export type ManagementParse = { ok: true; operation: ManagementOperation } | { ok: false; error: string };

export const USAGE = {
  add: "Usage: !commands add !name [-ul=level] [-cd=seconds] [-a=!other] response",
  edit: "Usage: !commands edit !name [-ul=level] [-cd=seconds] [-a=!other] [response]",
  delete: "Usage: !commands delete !name",
  any: "Usage: !commands add|edit|delete !name [-ul=level] [-cd=seconds] [-a=!other] response",
} as const;

type Action = "add" | "edit" | "delete";

/** The response of an alias added without one: the caller's words, handed to the target. */
export const ALIAS_PASS_THROUGH = "$(query)";

/** The words after `!commands`: Nightbot's, plus StreamElements' `remove`, `del` and `update`. */
const SUBCOMMANDS: Readonly<Record<string, Action>> = {
  add: "add",
  edit: "edit",
  update: "edit",
  delete: "delete",
  remove: "delete",
  del: "delete",
};

/** The short forms (§1.2): `!addcom` is Nightbot's own, `!editcom` and `!delcom` other bots'. */
const SHORT_FORMS: Readonly<Record<string, Action>> = { addcom: "add", editcom: "edit", delcom: "delete" };

/** The triggers this module reads; a custom command cannot take these names. */
export const MANAGEMENT_TRIGGERS: readonly string[] = ["commands", ...Object.keys(SHORT_FORMS)];

interface Token {
  text: string;
  start: number;
}

const tokensOf = (text: string): Token[] =>
  [...text.matchAll(/\S+/gu)].map((m) => ({ text: m[0], start: m.index ?? 0 }));

/**
 * A chat line (the message text) as a management operation, a usage error, or null when the line is
 * not a management line at all (any other text, including `!commandsfoo`).
 */
export function parseManagementLine(line: string): ManagementParse | null {
  const tokens = tokensOf(line);
  const trigger = tokens[0]?.text.toLowerCase();
  if (trigger === "!commands") {
    const word = tokens[1]?.text.toLowerCase();
    if (word === undefined) return { ok: true, operation: { kind: "list" } };
    const action = Object.hasOwn(SUBCOMMANDS, word) ? SUBCOMMANDS[word] : undefined;
    return action ? parseAction(action, line, tokens.slice(2)) : { ok: false, error: USAGE.any };
  }
  const short = trigger?.startsWith("!") ? trigger.slice(1) : undefined;
  const action = short !== undefined && Object.hasOwn(SHORT_FORMS, short) ? SHORT_FORMS[short] : undefined;
  return action ? parseAction(action, line, tokens.slice(1)) : null;
}

const OPTION = /^-([a-z]+)=(.*)$/isu;
/** An option's key with nothing after it (`-cd`, `-ul`): a value was forgotten. */
const BARE_OPTION = /^-(ul|cd|a|c)$/iu;

type OptionRead = { ok: true; options: CommandOptions } | { ok: false; error: string };

function parseAction(action: Action, line: string, rest: Token[]): ManagementParse {
  // Options may come before the name too (a forum guide writes `!commands add -cd=5 !name …`).
  const before = readOptions(rest, 0);
  const nameToken = rest[before.next];
  if (!before.result.ok) return before.result;
  if (nameToken === undefined) return { ok: false, error: USAGE[action] };
  const name = parseCommandName(nameToken.text);
  if (!name.ok)
    return { ok: false, error: name.error === NAME_RULE ? `${NAME_RULE} ${USAGE[action]}` : name.error };
  if (action === "delete") {
    return rest.length > before.next + 1 || before.next > 0
      ? { ok: false, error: USAGE.delete }
      : { ok: true, operation: { kind: "delete", name: name.name } };
  }
  const after = readOptions(rest, before.next + 1);
  if (!after.result.ok) return after.result;
  const options = merge(before.result.options, after.result.options);
  if (!options.ok) return options;
  const first = rest[after.next];
  const response = first === undefined ? "" : unescapeOptions(line.slice(first.start).trim());
  if (!response.isWellFormed() || /\p{Cc}/u.test(response)) {
    return { ok: false, error: "A response is one line of plain text (no control characters)." };
  }
  if ([...response].length > MAX_RESPONSE_LENGTH) {
    return { ok: false, error: `A response is at most ${MAX_RESPONSE_LENGTH} characters.` };
  }
  if (action === "edit") {
    const noChange = response === "" && Object.keys(options.options).length === 0;
    if (noChange) return { ok: false, error: USAGE.edit };
    return {
      ok: true,
      operation: { kind: "edit", name: name.name, options: options.options, response: response || null },
    };
  }
  if (response === "" && options.options.aliasTarget === undefined) {
    return { ok: false, error: `A new command needs a response. ${USAGE.add}` };
  }
  // An alias with no text of its own passes the caller's words on (`!so2 @bob` runs `!so @bob`).
  const text = response === "" ? ALIAS_PASS_THROUGH : response;
  return { ok: true, operation: { kind: "add", name: name.name, options: options.options, response: text } };
}

/** Reads option tokens from `from` until the first token that is not one. */
function readOptions(tokens: Token[], from: number): { result: OptionRead; next: number } {
  const options: CommandOptions = {};
  let next = from;
  for (; next < tokens.length; next++) {
    const text = tokens[next]?.text ?? "";
    if (BARE_OPTION.test(text)) {
      return {
        result: { ok: false, error: `${text.toLowerCase()} needs a value, like ${example(text)}.` },
        next,
      };
    }
    const match = OPTION.exec(text);
    if (!match) break;
    const error = setOption(options, (match[1] ?? "").toLowerCase(), match[2] ?? "");
    if (error) return { result: { ok: false, error }, next };
  }
  return { result: { ok: true, options }, next };
}

const EXAMPLES: Readonly<Record<string, string>> = {
  ul: "-ul=moderator",
  cd: "-cd=30",
  a: "-a=!other",
  c: "-c=0",
};
const example = (bare: string): string => EXAMPLES[bare.slice(1).toLowerCase()] ?? "-cd=30";

/** Sets one option, or says why it cannot be; never repeats the typed value. */
function setOption(options: CommandOptions, key: string, value: string): string | null {
  if (value === "") return `-${key} needs a value, like ${example(`-${key}`)}.`;
  switch (key) {
    case "ul": {
      const level = parseLevel(value);
      if (!level) return LEVEL_RULE;
      options.userLevel = level;
      return null;
    }
    case "cd": {
      const seconds = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
      if (!(seconds >= MIN_COOLDOWN_SECONDS && seconds <= MAX_COOLDOWN_SECONDS)) {
        return `A cooldown is a whole number of seconds from ${MIN_COOLDOWN_SECONDS} to ${MAX_COOLDOWN_SECONDS}.`;
      }
      options.cooldownSeconds = seconds;
      return null;
    }
    case "a": {
      const target = value.startsWith("!") ? parseCommandName(value) : null;
      if (!target?.ok) return `-a= takes the command to run, like -a=!other. ${NAME_RULE}`;
      options.aliasTarget = target.name;
      return null;
    }
    case "c": {
      const count = /^-?\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
      if (!(Math.abs(count) <= MAX_COUNT)) {
        return `-c= takes a whole number up to ${MAX_COUNT.toLocaleString("en-US")}.`;
      }
      options.count = count;
      return null;
    }
    default:
      return "Options are -ul=level, -cd=seconds, -a=!other and -c=count.";
  }
}

/** Options before and after the name together; naming one twice is a mistake, not a choice. */
function merge(a: CommandOptions, b: CommandOptions): OptionRead {
  const twice = (Object.keys(a) as (keyof CommandOptions)[]).some((key) => key in b);
  return twice
    ? { ok: false, error: "Each option may be given once." }
    : { ok: true, options: { ...a, ...b } };
}

/**
 * Nightbot's escape for option-like words inside a response (`\-c=-1` in an alias body, reference
 * §1.3): the backslash is dropped, so the stored text reads `-c=-1` when the alias runs it.
 */
function unescapeOptions(response: string): string {
  return response.replace(/(^|\s)\\(-[a-z]+=)/giu, "$1$2");
}
