import type { Account } from "../../db/accounts.ts";
import { integerParam } from "../core/params.ts";
import type { Context } from "../runtime.ts";
import type { CommandOptions } from "./catalog.ts";
import { DICE_LIMITS, flipCoin, pickOne, rollDice } from "./chance.ts";
import { chattersOf } from "./lookups.ts";
import type { CommandReply } from "./runner.ts";

export function magic8(
  ctx: Context,
  question: string | undefined,
  options: CommandOptions<"magic8">,
): CommandReply {
  const answer = pickOne(ctx.random, options.answers) ?? "Ask again later.";
  return { question: question ?? null, answer, text: `🎱 ${answer}` };
}

export function dice(ctx: Context, input: { sides?: string; count?: string; user?: string }): CommandReply {
  const sides = integerParam(input.sides, "sides", {
    min: DICE_LIMITS.minSides,
    max: DICE_LIMITS.maxSides,
    fallback: 6,
  });
  const count = integerParam(input.count, "count", { min: 1, max: DICE_LIMITS.maxCount, fallback: 1 });
  const rolls = rollDice(ctx.random, count, sides);
  const total = rolls.reduce((a, b) => a + b, 0);
  const who = input.user ? `${input.user} rolled` : "You rolled";
  const text =
    count === 1
      ? `🎲 ${who} ${total} (d${sides})`
      : `🎲 ${who} ${rolls.join(", ")} — total ${total} (${count}d${sides})`;
  return { sides, count, rolls, total, text };
}

export function coinflip(ctx: Context, user: string | undefined): CommandReply {
  const result = flipCoin(ctx.random);
  const word = result === "heads" ? "Heads" : "Tails";
  return { result, text: user ? `🪙 ${user} flipped ${word}!` : `🪙 ${word}!` };
}

/** A random viewer from chat (never the broadcaster). */
export async function pickChatter(ctx: Context, account: Account): Promise<CommandReply> {
  const chatters = (await chattersOf(ctx, account)).filter((c) => c.user_id !== account.twitchUserId);
  const chosen = pickOne(ctx.random, chatters);
  if (!chosen)
    return { user_id: null, user_login: null, user_name: null, text: "Nobody else is in chat right now." };
  return { ...chosen, text: `🎲 The chosen one is ${chosen.user_name}!` };
}
