import { type Static, Type as T } from "@sinclair/typebox";
import type { Account } from "../../db/accounts.ts";
import { echoable } from "../core/chat-echo.ts";
import { chatName } from "../core/chat-text.ts";
import { integerParam } from "../core/params.ts";
import { DEFAULT_MAGIC8_ANSWERS, DICE_LIMITS, flipCoin, pickOne, rollDice } from "./chance.ts";
import type { CommandContext, TwitchLookupContext } from "./context.ts";
import { type CommandReply, defineCommand, NO_OPTIONS } from "./definition.ts";
import { chattersOf } from "./lookups.ts";

/** The chance commands: the magic 8-ball, dice, a coin and a random viewer. */

const Magic8Options = T.Object(
  { answers: T.Array(T.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);

/** A name a line will show as typed: only when login-shaped (else the caller's own name is used). */
const shownName = (typed: string | undefined) => echoable(chatName(typed)) ?? undefined;

export function magic8(
  ctx: Pick<CommandContext, "random">,
  question: string | undefined,
  options: Static<typeof Magic8Options>,
): CommandReply {
  const answer = pickOne(ctx.random, options.answers) ?? "Ask again later.";
  return { question: question ?? null, answer, text: `🎱 ${answer}` };
}

export function dice(
  ctx: Pick<CommandContext, "random">,
  input: { sides?: string; count?: string; user?: string },
): CommandReply {
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

export function coinflip(ctx: Pick<CommandContext, "random">, user: string | undefined): CommandReply {
  const result = flipCoin(ctx.random);
  const word = result === "heads" ? "Heads" : "Tails";
  return { result, text: user ? `🪙 ${user} flipped ${word}!` : `🪙 ${word}!` };
}

/** A random viewer from chat (never the broadcaster). */
export async function pickChatter(
  ctx: TwitchLookupContext & Pick<CommandContext, "random">,
  account: Account,
): Promise<CommandReply> {
  const chatters = (await chattersOf(ctx, account)).filter((c) => c.user_id !== account.twitchUserId);
  const chosen = pickOne(ctx.random, chatters);
  if (!chosen)
    return { user_id: null, user_login: null, user_name: null, text: "Nobody else is in chat right now." };
  return { ...chosen, text: `🎲 The chosen one is ${chosen.user_name}!` };
}

export const magic8Command = defineCommand({
  name: "magic8",
  description: "Answers a yes/no question",
  options: Magic8Options,
  defaults: { answers: [...DEFAULT_MAGIC8_ANSWERS] },
  aliases: ["8ball"],
  inputs: { question: "optional" },
  chat: [{ rest: "question" }],
  route: { path: "/api/bot/magic8", summary: "Magic 8-ball answer (answers configurable per channel)" },
  run: (ctx, _account, { args }, options) => magic8(ctx, chatName(args.question), options),
});

export const pickCommand = defineCommand({
  name: "pick",
  description: "Picks a random viewer from chat",
  options: NO_OPTIONS,
  defaults: {},
  aliases: [],
  inputs: {},
  route: { path: "/api/bot/pick", summary: "Pick a random viewer from chat" },
  run: (ctx, account) => pickChatter(ctx, account),
});

export const diceCommand = defineCommand({
  name: "dice",
  description: "Rolls dice",
  options: NO_OPTIONS,
  defaults: {},
  aliases: ["roll"],
  inputs: { sides: "2–1000 (default 6)", count: "1–10 (default 1)" },
  chat: ["sides", "count"],
  route: { path: "/api/bot/dice", summary: "Roll dice" },
  run: (ctx, _account, { args, caller }) =>
    dice(ctx, {
      sides: args.sides,
      count: args.count,
      user: shownName(args.user) ?? caller.displayName ?? caller.user,
    }),
});

export const coinflipCommand = defineCommand({
  name: "coinflip",
  description: "Flips a coin",
  options: NO_OPTIONS,
  defaults: {},
  aliases: ["flip"],
  inputs: {},
  route: { path: "/api/bot/coinflip", summary: "Flip a coin" },
  run: (ctx, _account, { args, caller }) =>
    coinflip(ctx, shownName(args.user) ?? caller.displayName ?? caller.user),
});
