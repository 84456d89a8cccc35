import type { Static } from "@sinclair/typebox";
import { coinflipCommand, diceCommand, magic8Command, pickCommand } from "./chance-commands.ts";
import { clipCommand } from "./clip.ts";
import type { CommandInput } from "./command-input.ts";
import { followageCommand } from "./followage.ts";
import { lastmatchCommand, rankCommand, statsCommand, todayCommand } from "./game-commands.ts";
import { rouletteCommand } from "./roulette.ts";
import { shoutoutCommand } from "./shoutout.ts";

/**
 * The registry of built-in chat commands: each one's definition (bot/definition.ts), in the order the
 * panel lists them and `/docs` shows their routes. Adding a command is its file and its line here
 * (ARCHITECTURE.md, "Adding something"); the names, the bot routes, the settings' defaults and
 * native chat's triggers and arguments all come from this list.
 */
export const COMMAND_DEFINITIONS = [
  followageCommand,
  shoutoutCommand,
  magic8Command,
  clipCommand,
  rouletteCommand,
  pickCommand,
  diceCommand,
  coinflipCommand,
  rankCommand,
  lastmatchCommand,
  todayCommand,
  statsCommand,
] as const;

type Definition = (typeof COMMAND_DEFINITIONS)[number];
export type CommandName = Definition["name"];

/** Each command's definition by name. */
export const COMMANDS = Object.fromEntries(COMMAND_DEFINITIONS.map((d) => [d.name, d])) as {
  readonly [D in Definition as D["name"]]: D;
};

/** The built-in commands' names: the one list of them (the panel, chat and the browser's copy follow it). */
export const COMMAND_NAMES: readonly CommandName[] = COMMAND_DEFINITIONS.map((d) => d.name);

export type CommandOptions<C extends CommandName> = Static<(typeof COMMANDS)[C]["options"]>;

/** The arguments command C reads besides `user`: a handler cannot read one its callers were not told to fill. */
type ArgNameOf<C extends CommandName> = C extends CommandName
  ? Extract<keyof (typeof COMMANDS)[C]["inputs"], string>
  : never;

/** One call of command C: the arguments it reads and what the chat bot (or Twitch) said of the caller. */
export type CommandInputOf<C extends CommandName> = CommandInput<ArgNameOf<C>>;

/** Chat triggers other than the command's own name: lower-case letters, digits and `_`, as typed after "!". */
export const ALIAS_PATTERN = /^[a-z0-9_]{1,25}$/;
export const MAX_ALIASES = 10;

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}
