/**
 * A viewer's `!name`: a custom command answered within its cooldowns (per command for the whole
 * channel, and per chatter where the streamer set one; in `ctx.cooldowns` so they hold across
 * instances; moderators and the broadcaster are not held to them, as in Nightbot), native chat's budgets (`admit`), with `$(count)` counted in the store
 * only when the response shows it, and its variables filled in (variables.ts) from the resolvers
 * (resolvers.ts). An alias (`-a=!other`) answers with the line to run instead.
 */
import type { Account } from "../../db/accounts.ts";
import { ChatBotDataError } from "../../db/chat-bot-rules.ts";
import { type CustomCommand, getCustomCommand, incrementCommandCount } from "../../db/custom-commands.ts";
import type { ChatBudgetRefusal } from "../chat/budgets.ts";
import type { MaybePromise } from "../core/maybe-promise.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";
import { COMMAND_REFUSALS, type CommandRefusal } from "../vocabulary.ts";
import type { CustomContext } from "./context.ts";
import { admits, type UserLevel } from "./levels.ts";
import { variableResolvers } from "./resolvers.ts";
import { expandResponse, usesCount } from "./variables.ts";

/**
 * What a custom line comes to: a reply to send, a line an alias runs instead, a refusal by a limit
 * (a cooldown, chat's budgets: nothing is said, the activity feed says why), or nothing. An alias
 * holds its own cooldown claim; `giveBack` returns it when its line answers nothing (the target on
 * cooldown, refused by the budgets, gone, or itself an alias), so a line that said nothing never
 * keeps the alias cooling down for the whole channel.
 */
export type CustomOutcome =
  | { kind: "reply"; text: string }
  | { kind: "alias"; line: string; giveBack: () => Promise<void> }
  | CustomRefusal
  | null;

/** A custom line a limit kept from a reply. */
export interface CustomRefusal {
  kind: "refused";
  reason: CommandRefusal;
}

/** The refusal of each reason, made once. */
export const REFUSED: Readonly<Record<CommandRefusal, CustomRefusal>> = Object.fromEntries(
  COMMAND_REFUSALS.map((reason) => [reason, Object.freeze({ kind: "refused", reason })]),
) as Record<CommandRefusal, CustomRefusal>;

/** A response filled in: the reply, or the line an alias runs; null when the command is gone. */
type Expanded = { kind: "reply"; text: string } | { kind: "alias"; line: string } | null;

/**
 * The cooldown's key in `ctx.cooldowns`: built-in commands use their bare names, which never hold a
 * colon, so a custom `!dice` (possible while the built-in is off) keeps a cooldown of its own.
 */
export const cooldownKey = (name: string) => `custom:${name}`;

/** The per-user cooldown's key: the chatter's Twitch user id, so a rename does not reset it. */
export const userCooldownKey = (name: string, twitchUserId: string) => `custom:${name}:user:${twitchUserId}`;

/** One cooldown a run holds while it answers. */
interface Claim {
  key: string;
  seconds: number;
}

export interface CustomRun {
  ctx: CustomContext;
  account: Account;
  event: ChatMessageEvent;
  level: UserLevel;
  /**
   * Native chat's budgets (chat/budgets.ts): a refusal (which budget is spent) drops the reply, and
   * the cooldown claim is given back.
   */
  gate: () => MaybePromise<ChatBudgetRefusal | null>;
}

export async function answerCustomCommand(
  run: CustomRun,
  command: CustomCommand,
  args: readonly string[],
): Promise<CustomOutcome> {
  const { ctx, account } = run;
  const now = ctx.clock.now();
  const claims = claimsOf(run, command);
  if (!(await claimAll(ctx, account.id, claims, now))) return REFUSED.cooldown;
  const giveBack = () => releaseAll(ctx, account.id, claims, now);
  try {
    // An alias's budget is asked by the line it runs; anything else asks before it counts.
    const spent = command.aliasTarget === null ? await run.gate() : null;
    if (spent !== null) {
      await giveBack();
      return REFUSED[spent];
    }
    const outcome = await expanded(run, command, args);
    if (outcome === null) await giveBack();
    return outcome?.kind === "alias" ? { ...outcome, giveBack } : outcome;
  } catch (error) {
    await giveBack().catch(() => undefined);
    throw error;
  }
}

/**
 * The cooldowns this run must claim: the chatter's own first, so a chatter still resting never
 * touches (nor briefly holds) the channel's; none for moderators and the broadcaster.
 */
function claimsOf(run: CustomRun, command: CustomCommand): Claim[] {
  if (admits("moderator", run.level)) return [];
  const claims = [
    { key: userCooldownKey(command.name, run.event.chatterId), seconds: command.userCooldownSeconds },
    { key: cooldownKey(command.name), seconds: command.cooldownSeconds },
  ];
  return claims.filter((claim) => claim.seconds > 0);
}

/** Claims each in turn; when one is still resting (or the store fails), the ones taken go back. */
async function claimAll(ctx: CustomContext, accountId: number, claims: readonly Claim[], now: number) {
  const taken: Claim[] = [];
  try {
    for (const claim of claims) {
      if ((await ctx.cooldowns.claim(accountId, claim.key, claim.seconds, now)) > 0) {
        await releaseAll(ctx, accountId, taken, now);
        return false;
      }
      taken.push(claim);
    }
    return true;
  } catch (error) {
    await releaseAll(ctx, accountId, taken, now).catch(() => undefined);
    throw error;
  }
}

/**
 * Gives every claim back, each on its own: one the store fails to release never keeps another held
 * (the channel's cooldown must not outlive a failed give-back of the chatter's). Failures are logged.
 */
async function releaseAll(ctx: CustomContext, accountId: number, claims: readonly Claim[], now: number) {
  const results = await Promise.allSettled(
    claims.map(async (claim) => await ctx.cooldowns.release(accountId, claim.key, claim.seconds, now)),
  );
  results.forEach((result, i) => {
    if (result.status === "rejected")
      ctx.log.warn("a custom command's cooldown could not be given back", {
        accountId,
        cooldown: claims[i]?.key,
        error: result.reason,
      });
  });
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
async function countedUse(ctx: CustomContext, accountId: number, name: string): Promise<number | undefined> {
  try {
    return await incrementCommandCount(ctx.db, accountId, name);
  } catch (error) {
    if (!(error instanceof ChatBotDataError)) throw error;
    return (await getCustomCommand(ctx.db, accountId, name))?.count;
  }
}
