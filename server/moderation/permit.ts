import { MODERATION_LIMITS, PERMIT_TRIGGER } from "../vocabulary.ts";

/** What a `!permit` line from the broadcaster or a moderator asks: the login, or why not. */
export type PermitLine = { login: string } | { refusal: string } | null;

const LOGIN = /^@?([A-Za-z0-9_]{1,25})$/;

/**
 * `!permit <user>` (any case): the user as a login (an `@` dropped), or a fixed sentence when the
 * argument is missing or not shaped like a Twitch login (the reply never repeats what was typed).
 * Null for any other line.
 */
export function readPermitLine(text: string): PermitLine {
  const words = text.trim().split(/\s+/);
  if (words[0]?.toLowerCase() !== `!${PERMIT_TRIGGER}`) return null;
  const target = words[1];
  if (target === undefined) return { refusal: "Say who: !permit <user>." };
  const login = LOGIN.exec(target)?.[1];
  if (!login || words.length > 2) return { refusal: "That user was not found." };
  return { login: login.toLowerCase() };
}

/** The one line saying a permit was given. */
export function permitLine(login: string): string {
  return `@${login} may post links for the next ${MODERATION_LIMITS.permitSeconds} seconds.`;
}
