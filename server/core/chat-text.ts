/**
 * How text a chat bot sent is read, wherever it came from (a URL's query or path, or a native chat
 * line): an unreplaced bot variable means the bot had nothing to put there, and a name may come with
 * chat's `@`.
 */

/**
 * An unreplaced bot variable: Nightbot/Fossabot `$(touser)`, StreamElements `${user}`, Streamer.bot
 * `%input0%`.
 */
const UNREPLACED_TEMPLATE = /^(\$[({].*[)}]|%[A-Za-z_][\w.]*%)$/;

export function isUnreplacedTemplate(value: string): boolean {
  return UNREPLACED_TEMPLATE.test(value.trim());
}

/** Chat-style name input: trimmed, leading `@` dropped, empty or unreplaced templates → undefined. */
export function chatName(value: string | null | undefined): string | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim().replace(/^@+/, "").trim();
  if (!trimmed || UNREPLACED_TEMPLATE.test(trimmed)) return undefined;
  return trimmed;
}
