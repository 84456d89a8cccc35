// What the Moderation view says of the filters, the log and a tried line, and the checks its lists get
// before a round trip. Pure: the words (filters, log actions, terms actions), the defaults and the
// limits are cuebot's vocabulary, the server's own (CONTRACT §6 "Chat moderation").
import {
  DEFAULT_FILTER_SETTINGS,
  type FilterCommon,
  MODERATION_LIMITS,
  type ModerationFilter,
  type ModerationLogAction,
  type TermsAction,
  type UserLevel,
} from "../../../../vocabulary.ts";
import { durationText } from "../../lib/format.ts";

export { shownText } from "../../lib/format.ts";

import type { ModerationLogItem, ModerationTestResult, ShieldInfo } from "../../lib/types.ts";

export {
  DEFAULT_FILTER_SETTINGS,
  DEFAULT_SHIELD_SETTINGS,
  MODERATION_FILTERS,
  MODERATION_LIMITS,
  type ModerationFilter,
  TERMS_ACTIONS,
  type TermsAction,
} from "../../../../vocabulary.ts";

/** Any filter's settings: the common ones and every filter's own, each present where it belongs. */
export type AnyFilterSettings = FilterCommon & {
  minLength?: number;
  percent?: number;
  max?: number;
  allow?: string[];
  list?: string[];
  action?: TermsAction;
};

interface Range {
  readonly min: number;
  readonly max: number;
}

/** A filter's own number setting. */
export interface NumberSetting {
  kind: "number";
  key: "minLength" | "percent" | "max";
  label: string;
  range: Range;
  /** After the number in the hint ("%"), if any. */
  unit: string;
}

/** A filter's own list, edited one entry per line. */
export interface ListSetting {
  kind: "list";
  key: "allow" | "list";
  label: string;
  /** What an entry looks like. */
  hint: string;
  limits: ListLimits;
}

export interface ListLimits {
  entries: number;
  entryLength: number;
}

export type OwnSetting = NumberSetting | ListSetting | { kind: "action"; key: "action"; label: string };

export interface FilterFacts {
  label: string;
  /** What it catches, as a sentence. */
  catches: string;
  own: readonly OwnSetting[];
}

const L = MODERATION_LIMITS;

const minLength = (what: string): NumberSetting => ({
  kind: "number",
  key: "minLength",
  label: `Shortest line checked (${what})`,
  range: L.minLength,
  unit: "",
});
const percent = (what: string): NumberSetting => ({
  kind: "number",
  key: "percent",
  label: `${what} (%)`,
  range: L.percent,
  unit: "%",
});
const max = (label: string, range: Range): NumberSetting => ({
  kind: "number",
  key: "max",
  label,
  range,
  unit: "",
});

export const FILTER_FACTS: Readonly<Record<ModerationFilter, FilterFacts>> = {
  links: {
    label: "Links",
    catches:
      "A link, also written as example . com, example(dot)com or example[.]com, to a host not on the allow list.",
    own: [
      {
        kind: "list",
        key: "allow",
        label: "Allowed hosts (one per line)",
        hint: "e.g. clips.twitch.tv; *.example.com allows its subdomains.",
        limits: { entries: L.allowEntries, entryLength: L.allowEntryLength },
      },
    ],
  },
  caps: {
    label: "Caps",
    catches: "Shouting: a line mostly in capital letters (emote names aside).",
    own: [minLength("letters"), percent("Capitals at least")],
  },
  symbols: {
    label: "Symbols",
    catches: "A line mostly of characters that are not letters, digits, spaces or emotes.",
    own: [minLength("characters"), percent("Symbols at least")],
  },
  repetition: {
    label: "Repetition",
    catches: "A character, word or emote repeated many times in a row.",
    own: [max("Most repeats in a row", L.repetitionMax)],
  },
  emotes: {
    label: "Emotes",
    catches: "Too many Twitch emotes in one message.",
    own: [max("Most emotes in a message", L.emotesMax)],
  },
  length: {
    label: "Length",
    catches: "A message longer than the limit.",
    own: [max("Most characters in a message", L.lengthMax)],
  },
  terms: {
    label: "Blocked terms",
    catches: "A word, phrase or pattern you block (any case, look-alike letters and hidden characters too).",
    own: [
      {
        kind: "list",
        key: "list",
        label: "Blocked terms (one per line)",
        hint: `A word or phrase (* matches within a word), or ~/regex/flags (at most ${L.regexTerms} regexes).`,
        limits: { entries: L.terms, entryLength: L.termLength },
      },
      { kind: "action", key: "action", label: "When caught" },
    ],
  },
};

/** Who a tried line comes from. */
export const CHATTER_LABELS: Readonly<Record<UserLevel, string>> = {
  everyone: "A viewer",
  subscriber: "A subscriber",
  regular: "A regular",
  twitch_vip: "A VIP",
  moderator: "A moderator",
  owner: "You (the broadcaster)",
};

export const TERMS_ACTION_LABELS: Readonly<Record<TermsAction, string>> = {
  timeout: "Delete and warn, then time out",
  ban: "Ban at once",
};

/** What a log entry did, as the log says it. */
export const LOG_ACTION_LABELS: Readonly<Record<ModerationLogAction, string>> = {
  deleted: "Deleted",
  warned: "Warned",
  timeout: "Timed out",
  ban: "Banned",
  permit: "Links allowed",
  shield: "Raid shield raised",
};

function count(n: number): string {
  return n.toLocaleString("en");
}

/** "default 70%", "default 15", "default none": a filter's own setting's default, for its hint. */
export function defaultText(filter: ModerationFilter, setting: OwnSetting): string {
  const value = (DEFAULT_FILTER_SETTINGS[filter] as AnyFilterSettings)[setting.key];
  if (Array.isArray(value)) return value.length === 0 ? "default none" : `default ${value.join(", ")}`;
  if (setting.kind === "action") return `default: ${TERMS_ACTION_LABELS[value as TermsAction].toLowerCase()}`;
  return `default ${value}${setting.kind === "number" ? setting.unit : ""}`;
}

/** "1 to 100": a number setting's range, for its hint. */
export function rangeText(range: Range): string {
  return `${count(range.min)} to ${count(range.max)}`;
}

/** "At most 1,000 entries, each up to 200 characters". */
export function listLimitText(limits: ListLimits): string {
  return `At most ${count(limits.entries)} entries, each up to ${count(limits.entryLength)} characters`;
}

/** A textarea's entries: one per line, trimmed, empty lines and repeats left out. */
export function listOf(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((line) => line.trim()))].filter((line) => line !== "");
}

/** Why `entries` cannot be saved under `limits`, or "" when they can. */
export function listProblem(entries: readonly string[], limits: ListLimits): string {
  if (entries.length > limits.entries)
    return `At most ${count(limits.entries)} entries (this has ${count(entries.length)}).`;
  const index = entries.findIndex((entry) => [...entry].length > limits.entryLength);
  if (index === -1) return "";
  return `Entry ${index + 1} is longer than ${count(limits.entryLength)} characters.`;
}

/** Only a timeout or a ban that still holds can be lifted. */
export function canUndo(item: ModerationLogItem): boolean {
  return (item.action === "timeout" || item.action === "ban") && !item.undone;
}

/** "Timed out 10 min", "Links allowed 1 min", "Banned", "Deleted": what a log entry did. */
export function logActionText(item: ModerationLogItem): string {
  const label = LOG_ACTION_LABELS[item.action];
  const timed = item.action === "timeout" || item.action === "permit";
  return timed && item.seconds !== null ? `${label} ${durationText(item.seconds)}` : label;
}

/** Who an entry is about: "Anna", "アンナ (anna)"; nobody for the shield (the channel's own). */
export function logWho(item: ModerationLogItem): string {
  if (!item.user || item.action === "shield") return "";
  const { name, login } = item.user;
  return name.toLowerCase() === login ? name : `${name} (${login})`;
}

/** What a tried line would meet, as a sentence. */
export function testOutcomeText(result: ModerationTestResult): string {
  if (!result.caught || result.filter === null) return "Not caught: this line would stay in chat.";
  const by = `Caught by the ${FILTER_FACTS[result.filter].label.toLowerCase()} filter`;
  switch (result.action) {
    case "ban":
      return `${by}: the chatter would be banned.`;
    case "timeout":
      return `${by}: the message deleted and the chatter timed out.`;
    case "warned":
      return `${by}: the message deleted and a warning sent (a repeat within the hour is a timeout).`;
    case "deleted":
      return `${by}: the message deleted silently (a repeat within the hour is a timeout).`;
    default:
      return `${by}.`;
  }
}

export interface ShieldState {
  label: "On" | "Ready" | "Off";
  detail: string;
}

/** "On" "until 14:05 (followers-only chat)", or what would raise it. `time` formats the hour (the page's locale). */
export function shieldState(shield: ShieldInfo, time: (iso: string) => string): ShieldState {
  if (shield.active)
    return {
      label: "On",
      detail: `${shield.until ? `until ${time(shield.until)} ` : ""}(followers-only chat)`,
    };
  if (!shield.enabled) return { label: "Off", detail: "a flood meets the filters alone." };
  return {
    label: "Ready",
    detail: `followers-only chat goes on when ${shield.chatters} chatters are caught, or send the same text, within ${shield.seconds} s.`,
  };
}
