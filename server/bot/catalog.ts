import { type Static, Type as T, type TSchema } from "@sinclair/typebox";
import { REGIONS } from "../game/client.ts";
import { type CommandName, MAX_TIMEOUT_SECONDS } from "../vocabulary.ts";
import { DEFAULT_MAGIC8_ANSWERS } from "./chance.ts";

/**
 * Every chat command, its defaults and the shape of its per-channel options. The panel edits these
 * (`PUT /api/dashboard/commands/:command`); the TypeBox schemas validate what it sends.
 */

export { MAX_COOLDOWN_SECONDS, MAX_TIMEOUT_SECONDS } from "../vocabulary.ts";

const ShoutoutOptions = T.Object(
  {
    /** Chat line; {name}, {game}, {title} and {link} are replaced. */
    message: T.String({ minLength: 1, maxLength: 300 }),
    /** Also send the platform's own shoutout when `moderator:manage:shoutouts` was granted. */
    platformShoutout: T.Boolean(),
  },
  { additionalProperties: false },
);

const Magic8Options = T.Object(
  { answers: T.Array(T.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);

const RouletteOptions = T.Object(
  {
    timeoutSeconds: T.Integer({ minimum: 1, maximum: MAX_TIMEOUT_SECONDS }),
    /** One chamber in this many is loaded. */
    chambers: T.Integer({ minimum: 2, maximum: 12 }),
    /** Subscribers are immune too. */
    protectSubscribers: T.Boolean(),
  },
  { additionalProperties: false },
);

const NoOptions = T.Object({}, { additionalProperties: false });

/** The player a game command reports on, set once by the streamer; an empty name means "not set yet". */
const playerFields = {
  region: T.Union(
    REGIONS.map((r) => T.Literal(r)),
    { description: REGIONS.join(", ") },
  ),
  name: T.String({ maxLength: 16 }),
  tag: T.String({ maxLength: 5 }),
};
const PlayerOptions = T.Object(playerFields, { additionalProperties: false });
/** With the record's detail level: 1, 2 or 3 as the game API's `type`. */
const TypedPlayerOptions = T.Object(
  { ...playerFields, type: T.Integer({ minimum: 1, maximum: 3 }) },
  { additionalProperties: false },
);
const NO_PLAYER = { region: "na", name: "", tag: "" } as const;

export const COMMANDS = {
  followage: {
    description: "How long a viewer has followed the channel",
    options: NoOptions,
    defaults: {},
    aliases: [],
  },
  shoutout: {
    description: "Points chat to another channel (and sends the platform shoutout when allowed)",
    options: ShoutoutOptions,
    defaults: {
      message: "Go check out {name}! They were last playing {game}: {link}",
      platformShoutout: true,
    },
    aliases: ["so"],
  },
  magic8: {
    description: "Answers a yes/no question",
    options: Magic8Options,
    defaults: { answers: [...DEFAULT_MAGIC8_ANSWERS] },
    aliases: ["8ball"],
  },
  clip: {
    description: "Clips the last seconds of the live stream",
    options: NoOptions,
    defaults: {},
    aliases: [],
  },
  roulette: {
    description: "One chamber in six is loaded: the loser is timed out",
    options: RouletteOptions,
    defaults: { timeoutSeconds: 60, chambers: 6, protectSubscribers: false },
    aliases: [],
  },
  pick: { description: "Picks a random viewer from chat", options: NoOptions, defaults: {}, aliases: [] },
  dice: { description: "Rolls dice", options: NoOptions, defaults: {}, aliases: ["roll"] },
  coinflip: { description: "Flips a coin", options: NoOptions, defaults: {}, aliases: ["flip"] },
  rank: {
    description: "The streamer's game rank (set the player once here)",
    options: TypedPlayerOptions,
    defaults: { ...NO_PLAYER, type: 2 },
    aliases: [],
  },
  lastmatch: {
    description: "The streamer's last competitive match",
    options: PlayerOptions,
    defaults: { ...NO_PLAYER },
    aliases: ["lastgame"],
  },
  today: {
    description: "The streamer's competitive session over the last 24 hours",
    options: TypedPlayerOptions,
    defaults: { ...NO_PLAYER, type: 2 },
    aliases: [],
  },
  stats: {
    description: "The streamer's statistics over the last 10 competitive matches",
    options: TypedPlayerOptions,
    defaults: { ...NO_PLAYER, type: 3 },
    aliases: [],
  },
} as const satisfies Record<
  CommandName,
  { description: string; options: TSchema; defaults: object; aliases: readonly string[] }
>;

/** Chat triggers other than the command's own name: lower-case letters, digits and `_`, as typed after "!". */
export const ALIAS_PATTERN = /^[a-z0-9_]{1,25}$/;
export const MAX_ALIASES = 10;

// The names themselves are cuebot's vocabulary, which the dashboard reads too.
export { COMMAND_NAMES, type CommandName, GAME_COMMANDS, type GameCommandName } from "../vocabulary.ts";
export type CommandOptions<C extends CommandName> = Static<(typeof COMMANDS)[C]["options"]>;

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}
