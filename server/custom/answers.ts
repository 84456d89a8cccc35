/**
 * A viewer's `!name`: a custom command answered within its cooldown (per command, for the whole
 * channel, in `ctx.cooldowns` so it holds across instances; moderators and the broadcaster are not
 * held to it, as in Nightbot), native chat's budgets (`admit`), with `$(count)` counted in the store
 * only when the response shows it, and its variables filled in (variables.ts) from the resolvers
 * (resolvers.ts). An alias (`-a=!other`) answers with the line to run instead.
 */
import type { Account } from "../../db/accounts.ts";
import { ChatBotDataError } from "../../db/chat-bot-rules.ts";
import { type CustomCommand, getCustomCommand, incrementCommandCount } from "../../db/custom-commands.ts";
import type { ChatMessageEvent } from "../chat/eventsub-message.ts";
import type { MaybePromise } from "../core/maybe-promise.ts";
import type { Context } from "../runtime.ts";
import { admits, type UserLevel } from "./levels.ts";
import { variableResolvers } from "./resolvers.ts";
import { expandResponse, usesCount } from "./variables.ts";

/**
 * What a custom line comes to: a reply to send, a line an alias runs instead, or nothing. An alias
 * holds its own cooldown claim; `giveBack` returns it when its line answers nothing (the target on
 * cooldown, refused by the budgets, gone, or itself an alias), so a line that said nothing never
 * keeps the alias cooling down for the whole channel.
 */
export type CustomOutcome =
  | { kind: "reply"; text: string }
  | { kind: "alias"; line: string; giveBack: () => Promise<void> }
  | null;

/** A response filled in: the reply, or the line an alias runs; null when the command is gone. */
type Expanded = { kind: "reply"; text: string } | { kind: "alias"; line: string } | null;

/**
 * The cooldown's key in `ctx.cooldowns`: built-in commands use their bare names, which never hold a
 * colon, so a custom `!dice` (possible while the built-in is off) keeps a cooldown of its own.
 */
export const cooldownKey = (name: string) => `custom:${name}`;

export interface CustomRun {
  ctx: Context;
  account: Account;
  event: ChatMessageEvent;
  level: UserLevel;
  /** Native chat's budgets (chat/budgets.ts): false drops the reply, and the cooldown claim is given back. */
  admit: () => MaybePromise<boolean>;
}

export async function answerCustomCommand(
  run: CustomRun,
  command: CustomCommand,
  args: readonly string[],
): Promise<CustomOutcome> {
  const { ctx, account, level } = run;
  const now = ctx.clock.now();
  const seconds = admits("moderator", level) ? 0 : command.cooldownSeconds;
  const key = cooldownKey(command.name);
  if ((await ctx.cooldowns.claim(account.id, key, seconds, now)) > 0) return null;
  try {
    // An alias's budget is asked by the line it runs; anything else asks before it counts.
    if (command.aliasTarget === null && !(await run.admit())) {
      await ctx.cooldowns.release(account.id, key, seconds, now);
      return null;
    }
    const outcome = await expanded(run, command, args);
    const giveBack = async () => {
      await ctx.cooldowns.release(account.id, key, seconds, now);
    };
    if (outcome === null) await giveBack();
    return outcome?.kind === "alias" ? { ...outcome, giveBack } : outcome;
  } catch (error) {
    await Promise.resolve(ctx.cooldowns.release(account.id, key, seconds, now)).catch(() => undefined);
    throw error;
  }
}

/** The response filled in, `$(count)` counted first when it shows; null when the command is gone. */
async function expanded(run: CustomRun, command: CustomCommand, args: readonly string[]): Promise<Expanded> {
  const { ctx, account, event } = run;
  const count = usesCount(command.response) ? await countedUse(ctx, account.id, command.name) : command.count;
  if (count === undefined) return null;
  const caller = { login: event.chatterLogin, displayName: event.chatterName };
  const text = await expandResponse(command.response, {
    caller,
    channel: account.displayName,
    args,
    count,
    random: ctx.random,
    clock: ctx.clock,
    resolvers: variableResolvers(ctx, account, caller),
  });
  if (command.aliasTarget !== null) return { kind: "alias", line: `!${command.aliasTarget} ${text}`.trim() };
  return text === "" ? null : { kind: "reply", text };
}

/**
 * The count after this use; undefined when the command is gone. A count at the column's maximum stays
 * there (the store refuses to pass it): the command still answers, showing the stored count.
 */
async function countedUse(ctx: Context, accountId: number, name: string): Promise<number | undefined> {
  try {
    return await incrementCommandCount(ctx.db, accountId, name);
  } catch (error) {
    if (!(error instanceof ChatBotDataError)) throw error;
    return (await getCustomCommand(ctx.db, accountId, name))?.count;
  }
}
