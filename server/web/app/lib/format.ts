import type { CommandRefusal } from "../../../vocabulary.ts";

/** "2 h 5 min", "45 min", "30 s". */
export function durationText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

export function dateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function time(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Combining marks kept on one character when shown: enough for any script's accents. */
const MARKS_SHOWN = 3;
const MARK_PILE = new RegExp(`(\\p{M}{${MARKS_SHOWN}})\\p{M}+`, "gu");

/**
 * A chatter's text as a page shows it (the moderation log, the demo chat): a pile of combining marks
 * ("zalgo") cut to a few per letter, so it cannot cover the rows around it.
 */
export function shownText(text: string): string {
  return text.replace(MARK_PILE, "$1");
}

/** Why a chat command got no reply, as the activity feed and the demo chat say it. */
export const NO_REPLY_TEXT: Readonly<Record<CommandRefusal, string>> = {
  cooldown: "no reply: the command is on cooldown",
  viewer_limit: "no reply: this viewer already used 3 commands in 30 s",
  user_level: "no reply: the command is for a higher user level",
  chat_budget: "no reply: the channel's chat budget for this minute is used up",
};
