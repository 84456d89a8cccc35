/**
 * Nightbot's `!regulars` line in native chat (issue 24): `!regulars add <login>`, `!regulars delete
 * <login>` (or `remove`), read into a typed request, and the one-line replies. Pure: who may change
 * the list, the Twitch lookup and the store are the service's business (custom/regulars-chat.ts). A
 * reply names the chatter only when what was typed is login-shaped (core/chat-echo.ts); anything else
 * — a link, a sentence, odd Unicode — gets a fixed sentence.
 */
import { CHAT_BOT_LIMITS } from "../../db/chat-bot-rules.ts";
import { echoable } from "../core/chat-echo.ts";

/** The trigger this module reads; a custom command cannot take it from chat. */
export const REGULAR_TRIGGERS: readonly string[] = ["regulars"];

export type RegularRequest =
  | { kind: "add"; login: string }
  | { kind: "remove"; login: string }
  | { kind: "usage"; reply: string };

const ACTIONS: ReadonlyMap<string, "add" | "remove"> = new Map([
  ["add", "add"],
  ["delete", "remove"],
  ["remove", "remove"],
  ["del", "remove"],
]);

export const REGULAR_REPLIES = {
  usage: () => "Usage: !regulars add|delete login",
  notLogin: () => "That is not a Twitch login; usage: !regulars add|delete login",
  added: (login: string) => `${login} is now a regular.`,
  already: (login: string) => `${login} is already a regular.`,
  removed: (login: string) => `${login} is no longer a regular.`,
  notListed: (login: string) => `${login} is not a regular.`,
  noSuchUser: (login: string) => `There is no Twitch user called ${login}.`,
  full: () =>
    `The list of regulars holds ${CHAT_BOT_LIMITS.regularsPerAccount.toLocaleString("en-US")}, the most it can; remove one first.`,
  twitchAway: () => "Twitch could not be asked about that user right now; try again later.",
} as const;

/**
 * The request a `!regulars` line makes: `trigger` is the lower-case word after `!`, `rest` what follows
 * it (trimmed). Null when the trigger is not `regulars`.
 */
export function parseRegularLine(trigger: string, rest: string): RegularRequest | null {
  if (!REGULAR_TRIGGERS.includes(trigger)) return null;
  const words = rest.split(/\s+/u).filter((word) => word !== "");
  const action = ACTIONS.get((words[0] ?? "").toLowerCase());
  if (!action) return { kind: "usage", reply: REGULAR_REPLIES.usage() };
  const login = words.length === 2 ? echoable(words[1]) : null;
  if (login === null) return { kind: "usage", reply: REGULAR_REPLIES.notLogin() };
  return { kind: action, login: login.toLowerCase() };
}
