import type { Static } from "@sinclair/typebox";
import { COMMAND_NAMES, type CommandName } from "../vocabulary.ts";
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

/**
 * The registry holds exactly the vocabulary's command names (server/vocabulary.ts, which the dashboard
 * reads too): a definition missing from the list, or a name the vocabulary lacks, does not compile.
 */
type Missing = Exclude<CommandName, Definition["name"]>;
type Unknown = Exclude<Definition["name"], CommandName>;
const registryMatchesVocabulary: [Missing, Unknown] extends [never, never] ? true : [Missing, Unknown] = true;
void registryMatchesVocabulary;

// The names themselves are cuebot's vocabulary, in the order the panel lists them.
export { COMMAND_NAMES, type CommandName };

/** Each command's definition by name. */
export const COMMANDS = Object.fromEntries(COMMAND_DEFINITIONS.map((d) => [d.name, d])) as {
  readonly [D in Definition as D["name"]]: D;
};

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
