import type { Account } from "../../db/accounts.ts";
import { echoable } from "../core/chat-echo.ts";
import { chatName } from "../core/chat-text.ts";
import { integerParam } from "../core/params.ts";
import type { Context } from "../runtime.ts";
import type { CommandName } from "./catalog.ts";
import { coinflip, dice, magic8, pickChatter } from "./chance-commands.ts";
import { createClip } from "./clip.ts";
import type { CommandInput } from "./command-input.ts";
import { DEFAULT_PRECISION } from "./duration.ts";
import { followage } from "./followage.ts";
import { gameCommand } from "./game-commands.ts";
import { roulette } from "./roulette.ts";
import { type CommandCall, type CommandReply, runCommand } from "./runner.ts";
import type { CommandSettings } from "./settings.ts";
import { shoutout } from "./shoutout.ts";

/** A name a line will show as typed: only when login-shaped (else the caller's own name is used). */
const shownName = (typed: string | undefined) => echoable(chatName(typed)) ?? undefined;

function precisionOf(raw: string | undefined): number {
  return integerParam(raw, "precision", { min: 1, max: 7, fallback: DEFAULT_PRECISION });
}

type Handler<C extends CommandName> = (
  ctx: Context,
  account: Account,
  input: CommandInput<C>,
  settings: CommandSettings<C>,
) => Promise<CommandReply> | CommandReply;

const HANDLERS: { [C in CommandName]: Handler<C> } = {
  followage: (ctx, account, { args, caller }) =>
    followage(ctx, account, {
      channel: chatName(args.channel) ?? caller.channel,
      user: chatName(args.user) ?? caller.user,
      precision: precisionOf(args.precision),
    }),
  shoutout: (ctx, account, { args }, settings) =>
    shoutout(ctx, account, chatName(args.user), settings.options),
  magic8: (ctx, _account, { args }, settings) => magic8(ctx, chatName(args.question), settings.options),
  clip: (ctx, account) => createClip(ctx, account),
  roulette: (ctx, account, { args, caller }, settings) => {
    const named = chatName(args.user);
    return roulette(
      ctx,
      account,
      {
        user: named ?? caller.user,
        random: args.target?.toLowerCase() === "random",
        callerLevel: named === undefined ? caller.userLevel : undefined,
      },
      settings.options,
    );
  },
  pick: (ctx, account) => pickChatter(ctx, account),
  dice: (ctx, _account, { args, caller }) =>
    dice(ctx, {
      sides: args.sides,
      count: args.count,
      user: shownName(args.user) ?? caller.displayName ?? caller.user,
    }),
  coinflip: (ctx, _account, { args, caller }) =>
    coinflip(ctx, shownName(args.user) ?? caller.displayName ?? caller.user),
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
  input: CommandInput<C>,
  options: Pick<CommandCall<C>, "test" | "preview" | "admit"> = {},
) {
  const handler = HANDLERS[command] as Handler<C>;
  return runCommand(
    {
      ctx,
      account,
      command,
      caller: input.caller.user ?? chatName(input.args.user) ?? "",
      test: options.test,
      preview: options.preview,
      admit: options.admit,
    },
    (settings) => handler(ctx, account, input, settings),
  );
}
