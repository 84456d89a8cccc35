import type { CommandName } from "./catalog.ts";

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
 * A command's arguments by name, as a chat bot puts them in the bot endpoint's query (and native chat
 * reads them off a line's words). Raw text as sent: the command reads each once it is enabled and its
 * cooldown claimed — a blank or an unreplaced bot variable counts as absent, a bad number is a 400
 * naming it.
 */
export interface CommandArgs {
  /** The channel the bot says it speaks in (followage checks it is the key owner's). */
  channel?: string;
  /**
   * A viewer the caller names: the one asked about or shouted out, who pulls the trigger, who rolls
   * or flips. Every command reads it: it names the caller in the activity feed when the bot does not.
   */
  user?: string;
  /** Followage: how many non-zero units the text shows. */
  precision?: string;
  /** Magic 8-ball: the question asked. */
  question?: string;
  /** Roulette: `random` lets the gun pick someone from chat. */
  target?: string;
  /** Dice: sides per die, and how many dice. */
  sides?: string;
  count?: string;
}

/** The arguments each command reads besides `user`. */
export const COMMAND_ARGS = {
  followage: ["channel", "precision"],
  shoutout: [],
  magic8: ["question"],
  clip: [],
  roulette: ["target"],
  pick: [],
  dice: ["sides", "count"],
  coinflip: [],
  rank: [],
  lastmatch: [],
  today: [],
  stats: [],
} as const satisfies { [C in CommandName]: readonly Exclude<keyof CommandArgs, "user">[] };

/** The arguments command C reads: a handler cannot read one its callers were not told to fill. */
export type ArgsOf<C extends CommandName> = Pick<CommandArgs, "user" | (typeof COMMAND_ARGS)[C][number]>;

/** One command call: its arguments and what the chat bot (or Twitch) said of the caller. */
export interface CommandInput<C extends CommandName = CommandName> {
  args: ArgsOf<C>;
  caller: ChatCaller;
}
