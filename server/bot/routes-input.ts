import { chatName } from "../core/chat-text.ts";
import type { QueryReader } from "../http/query-params.ts";
import { requestInfo } from "../http/request-info.ts";
import { COMMANDS, type CommandInputOf, type CommandName } from "./catalog.ts";
import type { ChatCaller } from "./command-input.ts";

/**
 * A bot endpoint's request as a command call (server/bot/command-input.ts): the arguments the
 * command reads from its query, the caller from the chat bot's headers.
 */

/** The arguments command C reads, from a query (the first value of each, as every route reads it). */
export function commandArgsOf<C extends CommandName>(
  query: QueryReader,
  command: C,
): CommandInputOf<C>["args"] {
  const args: Record<string, string | undefined> = {};
  for (const name of COMMANDS[command].reads) args[name] = query.get(name) ?? undefined;
  return args;
}

export function commandInputOf<C extends CommandName>(request: Request, command: C): CommandInputOf<C> {
  return { args: commandArgsOf(requestInfo(request).query, command), caller: chatCaller(request) };
}

function nightbotField(header: string | null, field: string): string | undefined {
  if (!header) return undefined;
  try {
    return new URLSearchParams(header).get(field) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The caller as the chat bots tell it. Nightbot sends `Nightbot-User` and `Nightbot-Channel`
 * (URL-encoded `name=…&displayName=…&providerId=…&userLevel=…`); Fossabot sends
 * `x-fossabot-channellogin` and friends.
 */
export function chatCaller(request: Request): ChatCaller {
  const h = request.headers;
  const nightbotUser = h.get("nightbot-user");
  const nightbotChannel = h.get("nightbot-channel");
  return {
    channel: chatName(nightbotField(nightbotChannel, "name") ?? h.get("x-fossabot-channellogin")),
    user: chatName(nightbotField(nightbotUser, "name") ?? h.get("x-fossabot-message-userlogin")),
    displayName: chatName(
      nightbotField(nightbotUser, "displayName") ?? h.get("x-fossabot-message-userdisplayname"),
    ),
    userLevel: nightbotField(nightbotUser, "userLevel") ?? h.get("x-fossabot-message-userlevel") ?? undefined,
  };
}
