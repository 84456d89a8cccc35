import { chatBudgetRefusal } from "../chat/budgets.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";
import {
  CHAT_STAGE_ORDER,
  type ChatLine,
  type ChatLineStage,
  type ChatOutcome,
  NO_REPLY,
} from "../live/hooks.ts";
import type { CustomOutcome } from "./answers.ts";
import type { CustomContext } from "./context.ts";
import { type CustomLine, readCustomLine, runCustomLine } from "./service.ts";

/**
 * The channel's own commands as a stage of every chat line (live/hooks.ts), after the built-ins: a
 * line no enabled built-in takes is the chat bot's (custom/service.ts: custom commands, counters,
 * quotes), answered under chat's budgets (chat/budgets.ts) and through its queue, and recorded by
 * native chat under the word typed after `!` (the command's name, `quote`, `commands`, …).
 */
export function customChatStage(ctx: CustomContext): ChatLineStage {
  return {
    name: "custom commands",
    order: CHAT_STAGE_ORDER.custom,
    async take(line) {
      const custom = await readCustomLine(ctx, line.account, line.event, line.builtIns);
      return custom && { command: custom.name, run: () => runCustom(ctx, line, custom) };
    },
  };
}

/** A custom line's outcome as chat records it: the reply, why a limit refused it, or nothing. */
function chatOutcome(outcome: Exclude<CustomOutcome, { kind: "alias" }>): ChatOutcome {
  if (outcome === null) return null;
  return outcome.kind === "reply" ? outcome.text : NO_REPLY[outcome.reason];
}

/**
 * A chat-bot line; an alias (`-a=!other`) runs its line once more, as the same chatter (so it never
 * lifts their level), and an alias reached through an alias answers nothing. The alias's line is
 * recorded under the alias, with its target's outcome.
 */
async function runCustom(ctx: CustomContext, line: ChatLine, custom: CustomLine): Promise<ChatOutcome> {
  const { account, builtIns } = line;
  const run = (l: CustomLine, e: ChatMessageEvent) => {
    const gate = () => chatBudgetRefusal(ctx.limits, account, e);
    return runCustomLine({ ctx, account, event: e, level: l.level, gate, builtIns }, l);
  };
  const outcome = await run(custom, line.event);
  if (outcome?.kind !== "alias") return chatOutcome(outcome);
  const aliased: ChatMessageEvent = { ...line.event, text: outcome.line, replyParentLogin: null };
  let result: ChatOutcome = null;
  try {
    const builtIn = line.runBuiltIn(account, aliased);
    if (builtIn) result = await builtIn;
    else {
      const next = await readCustomLine(ctx, account, aliased, builtIns);
      const target = next && (await run(next, aliased));
      if (target?.kind === "alias") await target.giveBack();
      result = target?.kind === "alias" ? null : chatOutcome(target);
    }
  } finally {
    // A line that answered nothing (or failed) keeps no alias cooling down.
    if (!(typeof result === "string" ? result : result?.reply)) await outcome.giveBack();
  }
  return result;
}
