/**
 * A custom command's name (CONTRACT §6, issue 24): `!` plus 1–32 letters, digits or underscores,
 * case-insensitive, stored in lower case without the `!`. Nightbot allows any prefix or none and
 * emoji; cuebot's chat triggers are `!` + a word, so a name is held to the shape a trigger can match.
 * db/chat-bot-rules.ts checks the same shape when it stores one; this module says what is wrong in
 * chat's words, and refuses look-alike letters that lower-case into ASCII.
 */

import { CHAT_BOT_LIMITS } from "../../db/chat-bot-rules.ts";

export const MAX_NAME_LENGTH = CHAT_BOT_LIMITS.commandNameLength;

/** Checked before lower-casing: `"\u212A".toLowerCase()` is an ASCII "k" (the Kelvin sign). */
const NAME_SHAPE = /^[A-Za-z0-9_]+$/;

export const NAME_RULE = `A command name is ! and 1 to ${MAX_NAME_LENGTH} letters, digits or underscores, like !discord.`;

export type NameResult = { ok: true; name: string } | { ok: false; error: string };

/**
 * A typed name (`!Discord`, `discord`: the `!` may be left out, as a dashboard field would) as stored
 * (`discord`), or the rule it breaks. The error never repeats what was typed: a name that fails may
 * be a link or a sentence.
 */
export function parseCommandName(typed: string): NameResult {
  const bare = typed.trim().replace(/^!/, "");
  if (bare === "") return { ok: false, error: NAME_RULE };
  if (!NAME_SHAPE.test(bare)) return { ok: false, error: NAME_RULE };
  if (bare.length > MAX_NAME_LENGTH) {
    return { ok: false, error: `A command name is at most ${MAX_NAME_LENGTH} characters after the !.` };
  }
  return { ok: true, name: bare.toLowerCase() };
}

/** A stored name as chat types it. */
export function shownName(name: string): string {
  return `!${name}`;
}
