/**
 * How a chat line may open (CONTRACT §6): no line cuebot sends leads with `/`, `.`, `!` or `\`, with
 * or without invisible characters before it, whoever wrote its text (a streamer's response, a
 * moderator's, a chatter's `$(query)`, cuebot's own sentences). Posted under the streamer's name, such a
 * line is a command: Twitch's own (`/ban`, `.timeout`) or another bot's in the channel (`!addcom …`,
 * `\` for a few). Pure; native chat's send queue (chat/send-queue.ts) holds every line to it, and the
 * code that builds a line (custom/variables.ts, alerts/template.ts) too, so a preview shows what chat
 * will.
 *
 * What such a line becomes: the command characters and invisible characters it opens with are dropped
 * and the rest is said ("!bot part" → "bot part", "\u200B!addcom …" → "addcom …"), the way the
 * alerts' thanks lines and `$(query)` always dropped a chatter's lead: the streamer's words stay, and
 * nothing cuebot adds appears under their name. Nightbot's `/me` (an action line, which responses
 * imported from Nightbot use) goes as a whole word: "/me waves" → "waves", not "me waves".
 */

/**
 * A line's opening that shows nothing or commands something: the command characters, whitespace and
 * every space separator, control characters, Unicode format characters (Cf: zero-width spaces and
 * joiners, U+FEFF, the soft hyphen, U+180E, the tags), Default_Ignorable_Code_Point (the combining
 * grapheme joiner U+034F, variation selectors, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0,
 * the whole U+E0000–U+E0FFF block), nonspacing marks with nothing to sit on, and the blank look-alike
 * that is none of these: the braille blank U+2800. And `/me` or `.me` as a word.
 */
const COMMAND_LEAD =
  /^(?:[/.]me(?![\p{L}\p{N}_])|[/.!\\\s\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{Mn}\u2800])+/iu;

/** `line` without the command characters and invisible characters it opens with (maybe empty). */
export function withoutCommandLead(line: string): string {
  return line.replace(COMMAND_LEAD, "");
}
