/**
 * What a management operation (management.ts) asks of a channel's commands, decided before anything
 * is written, so a refused line changes nothing; and the one-line reply for each outcome, in
 * Nightbot's wording where it is known (reference/chat-bot-commands.md §1.6). The store
 * (db/custom-commands.ts) checks the values again and settles races: an add that finds the name taken
 * after all answers `REPLIES.exists`, an edit or delete that finds it gone `REPLIES.notFound`.
 */
import { CHAT_BOT_LIMITS } from "../../db/chat-bot-rules.ts";
import type { CustomCommandChanges, NewCustomCommand } from "../../db/custom-commands.ts";
import { DEFAULT_LEVEL, type UserLevel } from "./levels.ts";
import type { CommandOptions, ManagementOperation } from "./management.ts";
import { shownName } from "./names.ts";
import { CHAT_BOT_TRIGGERS } from "./reserved-names.ts";

/** Most custom commands a channel keeps (issue 24). */
export const MAX_COMMANDS = CHAT_BOT_LIMITS.customCommandsPerAccount;
/** Nightbot's cooldown for a command added from chat when `-cd` is not given (reference §1.5). */
export const DEFAULT_COOLDOWN_SECONDS = 30;

/** A command added from chat: every column given, Nightbot's defaults where the line named none. */
export interface NewCommand extends NewCustomCommand {
  userLevel: UserLevel;
  cooldownSeconds: number;
  aliasTarget: string | null;
  count: number;
}

/**
 * A command as import.ts plans it, in the names it was written with before the store named its
 * columns (`level` is the store's `userLevel`, `aliasOf` its `aliasTarget`).
 */
export interface CustomCommand {
  name: string;
  response: string;
  level: UserLevel;
  cooldownSeconds: number;
  /** Per chatter, 0 for none: StreamElements has one, Nightbot and chat's syntax do not. */
  userCooldownSeconds: number;
  aliasOf: string | null;
  count: number;
}

/** What the store knows when the line arrives. */
export interface ChannelCommands {
  /** Whether a custom command has the name the line names. */
  exists: boolean;
  /** How many custom commands the channel has. */
  total: number;
  /** The triggers of the built-in commands that are on (`triggerTable`'s keys: names and aliases). */
  builtInsOn: ReadonlySet<string>;
  /** The commands the channel's actions answer (their command triggers', on or off). */
  actionCommands: ReadonlySet<string>;
}

export type Change =
  | { kind: "add"; command: NewCommand; reply: string }
  /** Only what the line names; the store keeps the rest. */
  | { kind: "edit"; name: string; changes: CustomCommandChanges; reply: string }
  | { kind: "delete"; name: string; reply: string }
  | { kind: "refuse"; reply: string };

export const REPLIES = {
  added: (name: string) => `The command "${shownName(name)}" has been added successfully.`,
  edited: (name: string) => `The command "${shownName(name)}" has been edited successfully.`,
  deleted: (name: string) => `The command "${shownName(name)}" has been deleted successfully.`,
  notFound: (name: string) => `The command "${shownName(name)}" does not exist.`,
  exists: (name: string) => `The command "${shownName(name)}" already exists; change it with !commands edit.`,
  builtIn: (name: string) =>
    `The command "${shownName(name)}" is one of cuebot's own; turn it off in the dashboard to use the name.`,
  action: (name: string) =>
    `The command "${shownName(name)}" starts one of this channel's actions; change that action's trigger in the dashboard to use the name.`,
  reserved: (name: string) =>
    `The command "${shownName(name)}" is the chat bot's own (commands, quotes, regulars) and cannot be a custom command.`,
  selfAlias: (name: string) => `The command "${shownName(name)}" cannot run itself (-a=).`,
  full: () => `This channel has ${MAX_COMMANDS} custom commands, the most it can keep; delete one first.`,
  list: () =>
    "Custom commands are listed in the dashboard; moderators manage them with !commands add|edit|delete.",
} as const;

/**
 * The change an add, edit or delete makes, or why it is refused. `list` is not a change: the caller
 * answers it with `REPLIES.list()`.
 */
export function planChange(
  operation: Exclude<ManagementOperation, { kind: "list" }>,
  channel: ChannelCommands,
): Change {
  const { name } = operation;
  if (operation.kind === "delete") {
    return channel.exists
      ? { kind: "delete", name, reply: REPLIES.deleted(name) }
      : { kind: "refuse", reply: REPLIES.notFound(name) };
  }
  if (operation.options.aliasTarget === name) return { kind: "refuse", reply: REPLIES.selfAlias(name) };
  if (operation.kind === "edit") {
    if (!channel.exists) return { kind: "refuse", reply: REPLIES.notFound(name) };
    const changes = editChanges(operation.options, operation.response);
    return { kind: "edit", name, changes, reply: REPLIES.edited(name) };
  }
  if (CHAT_BOT_TRIGGERS.includes(name)) return { kind: "refuse", reply: REPLIES.reserved(name) };
  if (channel.exists) return { kind: "refuse", reply: REPLIES.exists(name) };
  if (channel.builtInsOn.has(name)) return { kind: "refuse", reply: REPLIES.builtIn(name) };
  if (channel.actionCommands.has(name)) return { kind: "refuse", reply: REPLIES.action(name) };
  if (channel.total >= MAX_COMMANDS) return { kind: "refuse", reply: REPLIES.full() };
  const command = newCommand(name, operation.options, operation.response);
  return { kind: "add", command, reply: REPLIES.added(name) };
}

/** A new command: what the line names, Nightbot's defaults for the rest. */
export function newCommand(name: string, options: CommandOptions, response: string): NewCommand {
  return {
    name,
    response,
    userLevel: options.userLevel ?? DEFAULT_LEVEL,
    cooldownSeconds: options.cooldownSeconds ?? DEFAULT_COOLDOWN_SECONDS,
    aliasTarget: options.aliasTarget ?? null,
    count: options.count ?? 0,
  };
}

/** An edit sets what it names and nothing else; a response given replaces the old one. */
export function editChanges(options: CommandOptions, response: string | null): CustomCommandChanges {
  return { ...options, ...(response !== null ? { response } : {}) };
}
