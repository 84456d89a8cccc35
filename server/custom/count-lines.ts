/**
 * A counter's moderator forms (issue 24): `!deaths +`, `!deaths -`, `!deaths +3`, `!deaths -2`,
 * `!deaths = 12` (or `=12`) change a custom command's `$(count)` instead of running it. Pure: who may
 * (moderators and the broadcaster) and the store are the service's business.
 */
import { CHAT_BOT_LIMITS } from "../../db/chat-bot-rules.ts";
import { shownName } from "./names.ts";

export type CountChange = { kind: "add"; by: number } | { kind: "set"; value: number } | { kind: "usage" };

/** Steps larger than this are a typo, not a count. */
export const MAX_COUNT_STEP = 1000;

const STEP = /^([+-])(\d{0,9})$/u;
const SET = /^=(-?\d{1,12})?$/u;

export const COUNT_USAGE = (name: string) =>
  `Usage: ${shownName(name)} + | - | +n | -n | = number (n up to ${MAX_COUNT_STEP}).`;

/**
 * The change the words after a command's name ask for, or null when they are not a counter form
 * (the command then answers as usual, with the words as its `$(query)`).
 */
export function parseCountLine(words: readonly string[]): CountChange | null {
  const first = words[0];
  if (first === undefined) return null;
  const step = STEP.exec(first);
  if (step) {
    if (words.length > 1) return { kind: "usage" };
    const size = step[2] === "" ? 1 : Number(step[2]);
    if (size < 1 || size > MAX_COUNT_STEP) return { kind: "usage" };
    return { kind: "add", by: step[1] === "-" ? -size : size };
  }
  const set = SET.exec(first);
  if (!set) return null;
  const typed = set[1] ?? (words.length === 2 ? words[1] : undefined);
  if (typed === undefined || words.length > (set[1] === undefined ? 2 : 1)) return { kind: "usage" };
  const value = /^-?\d{1,12}$/u.test(typed) ? Number(typed) : Number.NaN;
  const { min, max } = CHAT_BOT_LIMITS.count;
  return value >= min && value <= max ? { kind: "set", value } : { kind: "usage" };
}

export const COUNT_REPLIES = {
  now: (name: string, count: number) => `The count of ${shownName(name)} is now ${count}.`,
} as const;
