import { CHAT_BOT_LIMITS } from "../server/vocabulary.ts";
import { parseUserLevel, USER_LEVELS, type UserLevel } from "./schema-enums.ts";

/**
 * What a channel's own chat-bot data may hold (custom commands, regulars, quotes, timers; issue 24):
 * the limits, and the checks every write passes before it reaches the database, so a chat line, the
 * dashboard and an import are refused alike, in words, and nothing half-valid is stored. Pure: no
 * database here (db/custom-commands.ts, db/regulars.ts, db/quotes.ts and db/timers.ts use it).
 */

// The limits are cuebot's vocabulary: the dashboard's forms say them before a round trip.
export { CHAT_BOT_LIMITS } from "../server/vocabulary.ts";

export type ChatBotErrorCode = "invalid_input" | "duplicate" | "limit_reached";

/**
 * A write refused for what it asked, never for a fault: `field` names the input at fault (for the
 * dashboard's field errors) and the message says why in words a streamer or moderator reads.
 */
export class ChatBotDataError extends Error {
  constructor(
    readonly code: ChatBotErrorCode,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "ChatBotDataError";
  }
}

const invalid = (field: string, message: string) => new ChatBotDataError("invalid_input", field, message);

const WORD = /^[A-Za-z0-9_]+$/;

/**
 * A name (a command's, an alias, a login) as typed, lower-cased, or null when it is not 1 to
 * `maxLength` (by default any number of) letters a–z, digits or underscores. The shape is checked
 * before folding: lower-casing first lets a look-alike through (`"\u212A".toLowerCase()` is an
 * ASCII "k": the Kelvin sign).
 */
export function foldedWord(typed: string, maxLength = Number.POSITIVE_INFINITY): string | null {
  return typed.length <= maxLength && WORD.test(typed) ? typed.toLowerCase() : null;
}

/** A command name as typed (`!Discord`, `discord`), lower-cased and without its "!", or null if it cannot be one. */
export function parseCommandName(input: string): string | null {
  return foldedWord(input.trim().replace(/^!/, ""), CHAT_BOT_LIMITS.commandNameLength);
}

/** parseCommandName, refusing what cannot be a name. */
export function checkCommandName(input: string, field = "name"): string {
  const name = parseCommandName(input);
  if (name === null) {
    throw invalid(
      field,
      `A command's name is ! and then 1 to ${CHAT_BOT_LIMITS.commandNameLength} letters a–z, digits or underscores.`,
    );
  }
  return name;
}

/** Length in code points, as Twitch counts a chat line's characters. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Control characters (line breaks, tabs, NUL) cannot be part of one chat line, and PostgreSQL refuses NUL. */
const CONTROL = /\p{Cc}/u;

/**
 * A single line of text of at most `max` code points, trimmed; empty, broken (lone surrogates) or
 * multi-line text is refused. `what` names it in the message ("The response").
 */
export function checkLine(text: string, field: string, what: string, max: number): string {
  const line = text.trim();
  if (line === "") throw invalid(field, `${what} cannot be empty.`);
  if (!line.isWellFormed() || CONTROL.test(line)) {
    throw invalid(field, `${what} must be one line of plain text (no line breaks or control characters).`);
  }
  const length = codePoints(line);
  if (length > max) throw invalid(field, `${what} is ${max} characters at most (this one has ${length}).`);
  return line;
}

/** A response, quote text or timer message: one line of at most 500 characters. */
export function checkText(text: string, field: string, what: string): string {
  return checkLine(text, field, what, CHAT_BOT_LIMITS.textLength);
}

function checkWholeNumber(value: number, field: string, range: { min: number; max: number }, what: string) {
  if (!Number.isSafeInteger(value) || value < range.min || value > range.max) {
    throw invalid(field, `${what} is a whole number from ${range.min} to ${range.max}.`);
  }
  return value;
}

/** 0 (no cooldown) or 5–300 seconds. */
export function checkCooldown(seconds: number, field = "cooldownSeconds"): number {
  const { min, max } = CHAT_BOT_LIMITS.cooldownSeconds;
  if (seconds === 0) return 0;
  if (!Number.isSafeInteger(seconds) || seconds < min || seconds > max) {
    throw invalid(field, `A cooldown is 0 (none) or ${min} to ${max} seconds.`);
  }
  return seconds;
}

export function checkCount(count: number, field = "count"): number {
  return checkWholeNumber(count, field, CHAT_BOT_LIMITS.count, "A count");
}

export function checkIntervalMinutes(minutes: number, field = "intervalMinutes"): number {
  return checkWholeNumber(minutes, field, CHAT_BOT_LIMITS.intervalMinutes, "A timer's interval in minutes");
}

export function checkMinChatLines(lines: number, field = "minChatLines"): number {
  return checkWholeNumber(lines, field, CHAT_BOT_LIMITS.minChatLines, "The chat lines between posts");
}

/** The game being played when a quote was added: null when unknown or blank. */
export function checkGame(game: string | null, field = "game"): string | null {
  if (game === null || game.trim() === "") return null;
  return checkLine(game, field, "The game", CHAT_BOT_LIMITS.gameLength);
}

/** Twitch's logins: 1 to 25 letters, digits or underscores. */
const LOGIN_LENGTH = 25;
const TWITCH_USER_ID = /^[0-9]{1,20}$/;

/** A Twitch login as typed (`@Alice`), lower-cased without "@", refused when it cannot be a login. */
export function checkLogin(input: string, field = "login"): string {
  const login = foldedWord(input.trim().replace(/^@/, ""), LOGIN_LENGTH);
  if (login === null) throw invalid(field, "A Twitch login is 1 to 25 letters, digits or underscores.");
  return login;
}

export function checkTwitchUserId(id: string, field = "twitchUserId"): string {
  if (!TWITCH_USER_ID.test(id)) throw invalid(field, "A Twitch user id is a number.");
  return id;
}

/** The limit of a kind of row per account, refused in words once reached. */
export function limitReached(field: string, what: string, limit: number): ChatBotDataError {
  return new ChatBotDataError(
    "limit_reached",
    field,
    `A channel has at most ${limit.toLocaleString("en-US")} ${what}; delete one first.`,
  );
}

/** A user level as given (a chat option, a dashboard field, an import), refused when it is none of Nightbot's. */
export function checkUserLevel(input: string, field = "userLevel"): UserLevel {
  const level = parseUserLevel(input);
  if (level === null) throw invalid(field, `A user level is one of: ${USER_LEVELS.join(", ")}.`);
  return level;
}

/** A quote number or timer id: a positive whole number an integer column holds; anything else names no row. */
export function isRowKey(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 1 && n <= CHAT_BOT_LIMITS.count.max;
}
