/**
 * Native chat's side of the chat bot (issue 24, CONTRACT §6 "Custom commands and quotes"): what a
 * chat line that is not a built-in command asks of a channel's custom commands, counters and quotes,
 * read first (`readCustomLine`: cheap, from the cache, deciding whether there is anything to answer
 * before an instance claims the message) and then run (`runCustomLine`). Management lines
 * (management.ts, changes.ts), counter forms (count-lines.ts), `!regulars` (regular-lines.ts) and
 * quote changes are the broadcaster's and moderators'; anyone else's change nothing and get no reply.
 * Built-in commands keep priority:
 * chat/dispatch.ts asks here only for a line no enabled built-in takes, and an add refuses their
 * names and aliases. Every reply is one line and passes native chat's budgets (`admit`).
 */
import type { Account } from "../../db/accounts.ts";
import { listActionCommandNames } from "../../db/actions.ts";
import { ChatBotDataError, foldedWord } from "../../db/chat-bot-rules.ts";
import {
  addCustomCommand,
  type CustomCommand,
  countCustomCommands,
  deleteCustomCommand,
  editCustomCommand,
  getCustomCommand,
  incrementCommandCount,
  setCommandCount,
} from "../../db/custom-commands.ts";
import { chatLine } from "../chat/send-limits.ts";
import { commandText } from "../live/command-text.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";
import { answerCustomCommand, type CustomOutcome, type CustomRun, REFUSED } from "./answers.ts";
import { type Change, planChange, REPLIES } from "./changes.ts";
import type { CustomContext } from "./context.ts";
import { COUNT_REPLIES, COUNT_USAGE, type CountChange, parseCountLine } from "./count-lines.ts";
import { admits, callerLevel, mayManage, type UserLevel } from "./levels.ts";
import { type ManagementParse, parseManagementLine } from "./management.ts";
import { answerQuoteLine } from "./quote-answers.ts";
import { changesQuotes, parseQuoteLine, type QuoteRequest } from "./quote-lines.ts";
import { parseRegularLine, type RegularRequest } from "./regular-lines.ts";
import { changeRegulars } from "./regulars-chat.ts";
import { usesCount } from "./variables.ts";

/** Read here by the custom commands; features beside them (actions) read chat lines the same way. */
export { commandText } from "../live/command-text.ts";
export type { CustomOutcome } from "./answers.ts";

/**
 * A chat line this module answers (or refuses: a line above the chatter's level), as read before the
 * message is claimed; `name` is what it is recorded under, the word typed after `!`.
 */
export type CustomLine = { name: string; level: UserLevel } & (
  | { kind: "manage"; parse: ManagementParse }
  | { kind: "quote"; request: QuoteRequest }
  | { kind: "regulars"; request: RegularRequest }
  | { kind: "count"; change: CountChange }
  | { kind: "answer"; command: CustomCommand; args: string[] }
  | { kind: "below level" }
);

/** Words read after a custom command's name: the rest of a line Twitch already holds to 500 characters. */
const MAX_LINE_READ = 2000;

/**
 * What a line asks of the chat bot, or null when there is nothing to answer: not a `!` line, an
 * unknown name. A management or quote change by someone who may not make it, and a command above
 * the caller's level, are refused (`below level`: nothing is said, the activity feed says why).
 * `builtIns` are the triggers of the enabled built-in commands (dispatch's table): they are not
 * custom commands' to take.
 */
export async function readCustomLine(
  ctx: CustomContext,
  account: Account,
  event: ChatMessageEvent,
  builtIns: ReadonlySet<string>,
): Promise<CustomLine | null> {
  const text = commandText(event);
  if (text === null) return null;
  const words = text.slice(0, MAX_LINE_READ).split(/\s+/u);
  // Checked before it is folded: "!\u212Aick" (the Kelvin sign) is no "!kick".
  const trigger = foldedWord((words[0] ?? "").slice(1));
  const level = callerLevel(event, await ctx.chatBot.regulars(account.id));
  const manages = mayManage(level);
  const parse = parseManagementLine(text);
  if (parse) {
    const name = trigger ?? "commands";
    return manages ? { kind: "manage", parse, name, level } : belowLevel(name, level);
  }
  if (trigger === null || builtIns.has(trigger)) return null;
  const rest = text.slice(1 + trigger.length).trim();
  const request = parseQuoteLine(trigger, rest);
  if (request)
    return changesQuotes(request) && !manages
      ? belowLevel(trigger, level)
      : { kind: "quote", request, name: trigger, level };
  // `!regulars` is the broadcaster's and moderators'; anyone else's line may be a custom command's.
  const regulars = manages ? parseRegularLine(trigger, rest) : null;
  if (regulars) return { kind: "regulars", request: regulars, name: trigger, level };
  const command = (await ctx.chatBot.commands(account.id)).get(trigger);
  if (!command) return null;
  const args = words.slice(1).filter((word) => word !== "");
  // Only a counter's count is a moderator's to adjust: elsewhere `+`, `-` and `= n` are just words.
  const counter = command.aliasTarget === null && usesCount(command.response);
  const change = manages && counter ? parseCountLine(args) : null;
  if (change) return { kind: "count", name: command.name, change, level };
  return admits(command.userLevel, level)
    ? { kind: "answer", command, args, name: command.name, level }
    : belowLevel(command.name, level);
}

/** A line the chatter's level may not run: refused, nothing said. */
const belowLevel = (name: string, level: UserLevel): CustomLine => ({ kind: "below level", name, level });

/**
 * Runs a line read by `readCustomLine`, once this instance claimed the message: its reply, the line an
 * alias runs instead, or null (a cooldown, a closed budget, a command gone meanwhile).
 */
export async function runCustomLine(
  run: CustomRun & { builtIns: ReadonlySet<string> },
  line: CustomLine,
): Promise<CustomOutcome> {
  if (line.kind === "below level") return REFUSED.user_level;
  if (line.kind === "answer") return await answerCustomCommand(run, line.command, line.args);
  if (line.kind === "quote" && !changesQuotes(line.request))
    return await readQuote(run, line.request, line.level);
  // Changes and quotes: a line past the chat budgets is not answered and changes nothing.
  const spent = await run.gate();
  if (spent !== null) return REFUSED[spent];
  const text = await changeOrQuote(run, line);
  return text === "" ? null : { kind: "reply", text: chatLine(text) };
}

/**
 * `!quote`'s cooldown: one claim for the whole channel (in `ctx.cooldowns`, so it holds across
 * instances) that viewers are held to, moderators and the broadcaster not, so a flood of `!quote`
 * cannot fill chat with quotes. Its key is apart from the built-ins' bare names and never a custom
 * command's (`!quote` is read as a quote line before any custom command).
 */
export const QUOTE_COOLDOWN = { key: "custom:quote", seconds: 5 } as const;

/** A viewer's `!quote`, `!quote n` or `!quote words`, within the quote cooldown and chat's budgets. */
async function readQuote(run: CustomRun, request: QuoteRequest, level: UserLevel): Promise<CustomOutcome> {
  const { ctx, account } = run;
  const now = ctx.clock.now();
  const seconds = admits("moderator", level) ? 0 : QUOTE_COOLDOWN.seconds;
  const giveBack = async () => {
    await ctx.cooldowns.release(account.id, QUOTE_COOLDOWN.key, seconds, now);
  };
  if ((await ctx.cooldowns.claim(account.id, QUOTE_COOLDOWN.key, seconds, now)) > 0) return REFUSED.cooldown;
  try {
    const spent = await run.gate();
    if (spent !== null) {
      await giveBack();
      return REFUSED[spent];
    }
    return { kind: "reply", text: chatLine(await answerQuoteLine(ctx, account, request)) };
  } catch (error) {
    await giveBack().catch(() => undefined);
    throw error;
  }
}

async function changeOrQuote(
  run: CustomRun & { builtIns: ReadonlySet<string> },
  line: Exclude<CustomLine, { kind: "answer" | "below level" }>,
): Promise<string> {
  const { ctx, account } = run;
  switch (line.kind) {
    case "manage":
      return await manage(ctx, account, line.parse, run.builtIns);
    case "quote":
      return await answerQuoteLine(ctx, account, line.request);
    case "count":
      return await adjustCount(ctx, account, line.name, line.change);
    case "regulars":
      return await changeRegulars(ctx, account, line.request);
  }
}

/** A moderator's `!commands …` line: the change made (or why not), in one line. */
async function manage(
  ctx: CustomContext,
  account: Account,
  parse: ManagementParse,
  builtIns: ReadonlySet<string>,
): Promise<string> {
  if (!parse.ok) return parse.error;
  const operation = parse.operation;
  if (operation.kind === "list") return REPLIES.list();
  // Read from the store, not the cache: the plan must see the latest adds of other instances.
  const [existing, total, actionCommands] = await Promise.all([
    getCustomCommand(ctx.db, account.id, operation.name),
    countCustomCommands(ctx.db, account.id),
    listActionCommandNames(ctx.db, account.id),
  ]);
  const builtInsOn = new Set(builtIns);
  const change = planChange(operation, { exists: existing !== undefined, total, builtInsOn, actionCommands });
  try {
    return await applyChange(ctx, account, change);
  } catch (error) {
    if (!(error instanceof ChatBotDataError)) throw error;
    const name = operation.name;
    if (error.code === "duplicate") return REPLIES.exists(name);
    if (error.code === "limit_reached") return REPLIES.full();
    return error.message;
  } finally {
    ctx.chatBot.clear();
  }
}

async function applyChange(ctx: CustomContext, account: Account, change: Change): Promise<string> {
  const now = ctx.clock.now();
  switch (change.kind) {
    case "refuse":
      return change.reply;
    case "add":
      await addCustomCommand(ctx.db, account.id, change.command, now);
      return change.reply;
    case "edit":
      return (await editCustomCommand(ctx.db, account.id, change.name, change.changes, now))
        ? change.reply
        : REPLIES.notFound(change.name);
    case "delete":
      return (await deleteCustomCommand(ctx.db, account.id, change.name))
        ? change.reply
        : REPLIES.notFound(change.name);
  }
}

/** A moderator's `!deaths +`, `-` or `= 12`: the count after the change, in one line. */
async function adjustCount(
  ctx: CustomContext,
  account: Account,
  name: string,
  change: CountChange,
): Promise<string> {
  if (change.kind === "usage") return COUNT_USAGE(name);
  try {
    const count =
      change.kind === "add"
        ? await incrementCommandCount(ctx.db, account.id, name, change.by)
        : await setCommandCount(ctx.db, account.id, name, change.value);
    return count === undefined ? REPLIES.notFound(name) : COUNT_REPLIES.now(name, count);
  } catch (error) {
    if (error instanceof ChatBotDataError) return error.message;
    throw error;
  }
}
