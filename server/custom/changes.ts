/**
 * What a management operation (management.ts) does to a channel's commands, decided before anything
 * is written, so a refused line changes nothing; and the one-line reply for each outcome, in
 * Nightbot's wording where it is known (reference/chat-bot-commands.md §1.6).
 */
import { type CustomLevel, DEFAULT_LEVEL } from "./levels.ts";
import type { CommandOptions, ManagementOperation } from "./management.ts";
import { MANAGEMENT_TRIGGERS } from "./management.ts";
import { shownName } from "./names.ts";

/** Most custom commands a channel keeps (issue 24). */
export const MAX_COMMANDS = 500;
/** Nightbot's default cooldown for a command added from chat (reference §1.5). */
export const DEFAULT_COOLDOWN_SECONDS = 30;

/** A custom command's settings as stored (the name in lower case, without `!`). */
export interface CustomCommand {
  name: string;
  response: string;
  level: CustomLevel;
  cooldownSeconds: number;
  aliasOf: string | null;
  count: number;
}

/** What the store knows when the line arrives. */
export interface ChannelCommands {
  /** The command the line names, if it exists. */
  existing: CustomCommand | null;
  /** How many custom commands the channel has. */
  total: number;
  /** The triggers (names and aliases, lower case) of the built-in commands that are on. */
  builtInsOn: ReadonlySet<string>;
}

export type Change =
  | { kind: "save"; command: CustomCommand; reply: string }
  | { kind: "delete"; name: string; reply: string }
  | { kind: "refuse"; reply: string };

export const REPLIES = {
  added: (name: string) => `The command "${shownName(name)}" has been added successfully.`,
  edited: (name: string) => `The command "${shownName(name)}" has been edited successfully.`,
  deleted: (name: string) => `The command "${shownName(name)}" has been deleted successfully.`,
  notFound: (name: string) => `The command "${shownName(name)}" does not exist.`,
  exists: (name: string) => `The command "${shownName(name)}" already exists; change it with !commands edit.`,
  builtIn: (name: string) =>
    `${shownName(name)} is one of cuebot's own commands; turn it off in the dashboard to use the name.`,
  reserved: (name: string) => `${shownName(name)} manages commands and cannot be a custom command.`,
  selfAlias: (name: string) => `${shownName(name)} cannot run itself (-a=).`,
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
    return channel.existing
      ? { kind: "delete", name, reply: REPLIES.deleted(name) }
      : { kind: "refuse", reply: REPLIES.notFound(name) };
  }
  if (operation.options.aliasOf === name) return { kind: "refuse", reply: REPLIES.selfAlias(name) };
  if (operation.kind === "edit") {
    if (!channel.existing) return { kind: "refuse", reply: REPLIES.notFound(name) };
    return { kind: "save", command: editedCommand(channel.existing, operation), reply: REPLIES.edited(name) };
  }
  if (MANAGEMENT_TRIGGERS.includes(name)) return { kind: "refuse", reply: REPLIES.reserved(name) };
  if (channel.existing) return { kind: "refuse", reply: REPLIES.exists(name) };
  if (channel.builtInsOn.has(name)) return { kind: "refuse", reply: REPLIES.builtIn(name) };
  if (channel.total >= MAX_COMMANDS) return { kind: "refuse", reply: REPLIES.full() };
  return {
    kind: "save",
    command: newCommand(name, operation.options, operation.response),
    reply: REPLIES.added(name),
  };
}

/** A new command: what the line names, Nightbot's defaults for the rest. */
export function newCommand(name: string, options: CommandOptions, response: string): CustomCommand {
  return {
    name,
    response,
    level: options.level ?? DEFAULT_LEVEL,
    cooldownSeconds: options.cooldownSeconds ?? DEFAULT_COOLDOWN_SECONDS,
    aliasOf: options.aliasOf ?? null,
    count: options.count ?? 0,
  };
}

/** An edit keeps every option it does not name; a response given replaces the old one. */
export function editedCommand(
  existing: CustomCommand,
  edit: { options: CommandOptions; response: string | null },
): CustomCommand {
  const { options } = edit;
  return {
    name: existing.name,
    response: edit.response ?? existing.response,
    level: options.level ?? existing.level,
    cooldownSeconds: options.cooldownSeconds ?? existing.cooldownSeconds,
    aliasOf: options.aliasOf ?? existing.aliasOf,
    count: options.count ?? existing.count,
  };
}
