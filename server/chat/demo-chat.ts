import type { CommandRefusal } from "../vocabulary.ts";

/**
 * The simulated chat of `serve --demo`, as the dashboard's demo chat panel uses it: the visitor types
 * as a viewer of the demo channel and sees cuebot's reply arrive (server/demo.ts adapts the simulator).
 */
export interface DemoChatLine {
  id: string;
  /** ISO-8601. */
  at: string;
  user: string;
  text: string;
  /** The line was sent by cuebot (through Send Chat Message). */
  fromCuebot: boolean;
  /** The message this one replies to, if any. */
  replyTo: string | null;
  /** A moderator removed it (deleted, or its chatter timed out or banned); still listed. */
  deleted: boolean;
  /** The command this line typed got no reply: why (a limit refused it); null otherwise. */
  noReply: CommandRefusal | null;
}

/** What typing a line gave: its id, or Twitch's sentence for why the room refused it. */
export type DemoSaid = { id: string; refused: null } | { id: null; refused: string };

export interface DemoChat {
  /** Viewers the visitor may speak as. */
  viewers: readonly string[];
  say(channel: string, user: string, text: string): DemoSaid;
  lines(channel: string): DemoChatLine[];
  /** Notes why a line's command got no reply (native chat's `commandRefused` hook). */
  refused(messageId: string, reason: CommandRefusal): void;
}
