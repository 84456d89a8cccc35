import { type Static, Type as T, type TSchema } from "@sinclair/typebox";
import type { Account } from "../../db/accounts.ts";
import type { MaybePromise } from "../core/maybe-promise.ts";
import type { CommandInput } from "./command-input.ts";
import type { CommandContext } from "./context.ts";

/**
 * One built-in chat command, described once (Firebot's `registerSystemCommand`): its name, aliases
 * and options for the panel, what it reads, how a chat line's words fill that, its bot endpoint and
 * what it does. The registry (`bot/catalog.ts`) lists every definition; the bot routes, their `/docs`
 * entries, the panel's command list, native chat's triggers and argument reading and the settings'
 * defaults are all derived from it.
 */

/** A command's answer: its record, always with the chat line in `text`. */
export type CommandReply = { text: string } & Record<string, unknown>;

/**
 * Which argument a chat line's word fills, in order (`!dice 20 2` → sides, count): a name takes the
 * word as typed, `rest` the remaining words joined by spaces, `keyword` the word only when it is that
 * keyword (any case), stored in lower case.
 */
export type ChatWord<A extends string> =
  | A
  | { readonly rest: A }
  | { readonly arg: A; readonly keyword: string };

/** The bot endpoint (API key, text mode): its path and its `/docs` summary. */
export interface BotRoute {
  /** Under `/api/bot/`, which has the text mode and takes the API key (followage's `/api/followage` is older). */
  readonly path: string;
  readonly summary: string;
}

export interface CommandDefinition<
  N extends string = string,
  O extends TSchema = TSchema,
  A extends string = string,
> {
  /** The command's name: its settings key, its chat trigger and the panel's name for it. */
  readonly name: N;
  /** What it does, as the panel's command list says. */
  readonly description: string;
  /** The per-channel options the panel edits (validated with this schema) and their defaults. */
  readonly options: O;
  readonly defaults: Static<O>;
  /** The chat triggers besides its name a channel starts with. */
  readonly aliases: readonly string[];
  /**
   * The query parameters it reads, each with its `/docs` description, in the order `/docs` lists them.
   * `user` is read by every command (it names the caller in the activity feed when the bot does not):
   * listed here only when `/docs` should show it.
   */
  readonly inputs: { readonly [K in A]: string };
  /** How native chat fills those arguments from the words after the trigger; none when absent. */
  readonly chat?: readonly ChatWord<NoInfer<A> | "user">[];
  /** Its bot endpoint; a command without one answers in chat and the panel's test only. */
  readonly route?: BotRoute;
  /** Runs it, once it is enabled, its cooldown claimed and the caller admitted (`bot/runner.ts`). */
  run(
    ctx: CommandContext,
    account: Account,
    input: CommandInput<A>,
    options: Static<O>,
  ): MaybePromise<CommandReply>;
}

/** A registered definition: with the query parameters it reads, `user` first, worked out once. */
export type DefinedCommand<
  N extends string = string,
  O extends TSchema = TSchema,
  A extends string = string,
> = CommandDefinition<N, O, A> & { readonly reads: readonly string[] };

/** A command's definition, its types (name, options, arguments) kept for the registry to derive from. */
export function defineCommand<const N extends string, O extends TSchema, const A extends string = never>(
  definition: CommandDefinition<N, O, A>,
): DefinedCommand<N, O, A> {
  const reads = ["user", ...Object.keys(definition.inputs).filter((name) => name !== "user")];
  return Object.freeze({ ...definition, reads });
}

/** The options of a command that has none. */
export const NO_OPTIONS = T.Object({}, { additionalProperties: false });
