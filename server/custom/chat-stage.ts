import { chatBudgetsAdmit } from "../chat/budgets.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";
import { CHAT_STAGE_ORDER, type ChatLine, type ChatLineStage } from "../live/hooks.ts";
import type { CustomContext } from "./context.ts";
import { type CustomLine, readCustomLine, runCustomLine } from "./service.ts";

/** What a custom command's reply is recorded under when it cannot be delivered (chat/sending.ts). */
const CUSTOM_COMMAND = "custom";

/**
 * The channel's own commands as a stage of every chat line (live/hooks.ts), after the built-ins: a
 * line no enabled built-in takes is the chat bot's (custom/service.ts: custom commands, counters,
 * quotes), answered under chat's budgets (chat/budgets.ts) and through its queue.
 */
export function customChatStage(ctx: CustomContext): ChatLineStage {
  return {
    name: "custom commands",
    order: CHAT_STAGE_ORDER.custom,
    async take(line) {
      const custom = await readCustomLine(ctx, line.account, line.event, line.builtIns);
      return custom && { command: CUSTOM_COMMAND, run: () => runCustom(ctx, line, custom) };
    },
  };
}

/**
 * A chat-bot line; an alias (`-a=!other`) runs its line once more, as the same chatter (so it never
 * lifts their level), and an alias reached through an alias answers nothing.
 */
async function runCustom(ctx: CustomContext, line: ChatLine, custom: CustomLine): Promise<string | null> {
  const { account, builtIns } = line;
  const run = (l: CustomLine, e: ChatMessageEvent) => {
    const admit = () => chatBudgetsAdmit(ctx.limits, account, e);
    return runCustomLine({ ctx, account, event: e, level: l.level, admit, builtIns }, l);
  };
  const outcome = await run(custom, line.event);
  if (outcome?.kind !== "alias") return outcome?.text ?? null;
  const aliased: ChatMessageEvent = { ...line.event, text: outcome.line, replyParentLogin: null };
  let reply: string | null = null;
  try {
    const builtIn = line.runBuiltIn(account, aliased);
    if (builtIn) reply = await builtIn;
    else {
      const next = await readCustomLine(ctx, account, aliased, builtIns);
      const target = next && (await run(next, aliased));
      if (target?.kind === "alias") await target.giveBack();
      reply = target?.kind === "reply" ? target.text : null;
    }
  } finally {
    // A line that answered nothing (or failed) keeps no alias cooling down.
    if (!reply) await outcome.giveBack();
  }
  return reply;
}
