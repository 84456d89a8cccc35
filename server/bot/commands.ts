import type { Account } from "../../db/accounts.ts";
import { echoable } from "../core/chat-echo.ts";
import { integerParam } from "../http/params.ts";
import type { QueryReader } from "../http/query-params.ts";
import { chatName } from "../http/text-mode.ts";
import type { Context } from "../runtime.ts";
import type { CommandName } from "./catalog.ts";
import { coinflip, dice, magic8, pickChatter } from "./chance-commands.ts";
import type { ChatCaller } from "./chat-input.ts";
import { createClip } from "./clip.ts";
import { DEFAULT_PRECISION } from "./duration.ts";
import { followage } from "./followage.ts";
import { gameCommand } from "./game-commands.ts";
import { roulette } from "./roulette.ts";
import { type CommandCall, type CommandReply, runCommand } from "./runner.ts";
import type { CommandSettings } from "./settings.ts";
import { shoutout } from "./shoutout.ts";

/** What a command call carries: its parameters (query string) and what the chat bot said of the caller. */
export interface CommandInput {
  params: QueryReader;
  caller: ChatCaller;
}

const param = (input: CommandInput, name: string) => chatName(input.params.get(name));
/** A name a line will show as typed: only when login-shaped (else the caller's own name is used). */
const shownName = (input: CommandInput, name: string) => echoable(param(input, name)) ?? undefined;

function precisionOf(input: CommandInput): number {
  return integerParam(input.params.get("precision") ?? undefined, "precision", {
    min: 1,
    max: 7,
    fallback: DEFAULT_PRECISION,
  });
}

type Handler<C extends CommandName> = (
  ctx: Context,
  account: Account,
  input: CommandInput,
  settings: CommandSettings<C>,
) => Promise<CommandReply> | CommandReply;

const HANDLERS: { [C in CommandName]: Handler<C> } = {
  followage: (ctx, account, input) =>
    followage(ctx, account, {
      channel: param(input, "channel") ?? input.caller.channel,
      user: param(input, "user") ?? input.caller.user,
      precision: precisionOf(input),
    }),
  shoutout: (ctx, account, input, settings) => shoutout(ctx, account, param(input, "user"), settings.options),
  magic8: (ctx, _account, input, settings) => magic8(ctx, param(input, "question"), settings.options),
  clip: (ctx, account) => createClip(ctx, account),
  roulette: (ctx, account, input, settings) =>
    roulette(
      ctx,
      account,
      {
        user: param(input, "user") ?? input.caller.user,
        random: input.params.get("target")?.toLowerCase() === "random",
        callerLevel: param(input, "user") === undefined ? input.caller.userLevel : undefined,
      },
      settings.options,
    ),
  pick: (ctx, account) => pickChatter(ctx, account),
  dice: (ctx, _account, input) =>
    dice(ctx, {
      sides: input.params.get("sides") ?? undefined,
      count: input.params.get("count") ?? undefined,
      user: shownName(input, "user") ?? input.caller.displayName ?? input.caller.user,
    }),
  coinflip: (ctx, _account, input) =>
    coinflip(ctx, shownName(input, "user") ?? input.caller.displayName ?? input.caller.user),
  rank: (ctx, account, _input, settings) => gameCommand(ctx, account, "rank", settings.options),
  lastmatch: (ctx, account, _input, settings) => gameCommand(ctx, account, "lastmatch", settings.options),
  today: (ctx, account, _input, settings) => gameCommand(ctx, account, "today", settings.options),
  stats: (ctx, account, _input, settings) => gameCommand(ctx, account, "stats", settings.options),
};

/** Runs one chat command for the key owner's channel, through the shared steps (enabled, cooldown, events). */
export function executeCommand<C extends CommandName>(
  ctx: Context,
  account: Account,
  command: C,
  input: CommandInput,
  options: Pick<CommandCall<C>, "test" | "preview" | "admit"> = {},
) {
  const handler = HANDLERS[command] as Handler<C>;
  return runCommand(
    {
      ctx,
      account,
      command,
      caller: input.caller.user ?? param(input, "user") ?? "",
      test: options.test,
      preview: options.preview,
      admit: options.admit,
    },
    (settings) => handler(ctx, account, input, settings),
  );
}
