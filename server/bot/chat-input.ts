import { LOGIN_SHAPE } from "../core/chat-echo.ts";
import { chatName } from "../http/text-mode.ts";

/**
 * Who is asking, and in which channel, as the chat bots tell it. Nightbot sends `Nightbot-User` and
 * `Nightbot-Channel` (URL-encoded `name=…&displayName=…&providerId=…&userLevel=…`); Fossabot sends
 * `x-fossabot-channellogin` and friends. These headers are hints for defaults only — never
 * authorisation (anyone can send them; the API key decides whose channel it is).
 */
export interface ChatCaller {
  channel?: string;
  /** The caller's login. */
  user?: string;
  /** How chat shows the caller (Nightbot's displayName), for answers that name them. */
  displayName?: string;
  userLevel?: string;
}

function nightbotField(header: string | null, field: string): string | undefined {
  if (!header) return undefined;
  try {
    return new URLSearchParams(header).get(field) ?? undefined;
  } catch {
    return undefined;
  }
}

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

/** A query parameter as chat gives it: `@name`, blanks and unreplaced templates handled. */
export function chatParam(url: URL, name: string): string | undefined {
  return chatName(url.searchParams.get(name));
}

/** Lowercase login if the text can be one; otherwise null (the name cannot exist on Twitch). */
export function asLogin(name: string): string | null {
  return LOGIN_SHAPE.test(name) ? name.toLowerCase() : null;
}
