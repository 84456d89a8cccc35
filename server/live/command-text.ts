import type { ChatMessageEvent } from "./eventsub-message.ts";

/**
 * A chat line as a command of the channel's (a custom command, an action's `!brb`) is read: the line
 * as typed, without the `@parent ` the reply UI puts first (as chat/triggers.ts reads it), or null
 * when it does not start with `!`.
 */
export function commandText(event: Pick<ChatMessageEvent, "text" | "replyParentLogin">): string | null {
  let text = event.text.trim();
  const parent = event.replyParentLogin;
  if (parent && text.toLowerCase().startsWith(`@${parent.toLowerCase()}`)) {
    text = text.slice(parent.length + 1).trimStart();
  }
  return text.startsWith("!") ? text : null;
}
