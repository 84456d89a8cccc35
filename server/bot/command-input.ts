/**
 * What one command call carries, built alike by the bot endpoints (server/bot/routes-input.ts, from
 * the query and the chat bot's headers) and by native chat (server/chat/chat-command-input.ts, from a
 * chat line and its EventSub message), so a command never knows which of them asked.
 */

/**
 * Who is asking, and in which channel, as the chat bots tell it (Nightbot's and Fossabot's headers)
 * or as Twitch tells it to native chat. Hints for defaults only — never authorisation (anyone can send
 * the headers; the API key decides whose channel it is).
 */
export interface ChatCaller {
  channel?: string;
  /** The caller's login. */
  user?: string;
  /** How chat shows the caller (Nightbot's displayName), for answers that name them. */
  displayName?: string;
  userLevel?: string;
}

/**
 * A command's arguments by name (its definition's `inputs`, bot/definition.ts), as a chat bot puts
 * them in the bot endpoint's query (and native chat reads them off a line's words). Raw text as sent:
 * the command reads each once it is enabled and its cooldown claimed — a blank or an unreplaced bot
 * variable counts as absent, a bad number is a 400 naming it. Every command has `user`: a viewer the
 * caller names (the one asked about or shouted out, who pulls the trigger, who rolls or flips), which
 * names the caller in the activity feed when the bot does not.
 */
export type CommandArgs<A extends string = string> = { [K in A | "user"]?: string };

/** One command call: the arguments command reading A reads, and what the chat bot (or Twitch) said of the caller. */
export interface CommandInput<A extends string = string> {
  args: CommandArgs<A>;
  caller: ChatCaller;
}
