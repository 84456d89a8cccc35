/** Platform logins are 1–25 characters of letters, digits and underscores. */
export const LOGIN_SHAPE = /^[a-zA-Z0-9_]{1,25}$/;

/**
 * What a reply may repeat of what a chatter typed (CONTRACT §6): a login-shaped name (a leading `@`
 * dropped), else null. Anything else — a link, a sentence joined by U+2800, zero-width or RTL marks —
 * would be posted under the streamer's name, where Twitch's link filter, AutoMod and blocked terms do
 * not apply; such input gets a fixed sentence instead.
 */
export function echoable(typed: string | undefined): string | null {
  if (typed === undefined) return null;
  const name = typed.trim().replace(/^@+/, "");
  return LOGIN_SHAPE.test(name) ? name : null;
}

/** A player id (`name#tag`) when both parts may be echoed, else null. */
export function echoablePlayer(name: string, tag: string): string | null {
  const shownName = echoable(name);
  const shownTag = echoable(tag);
  return shownName !== null && shownTag !== null ? `${shownName}#${shownTag}` : null;
}
