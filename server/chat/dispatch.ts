import type { Account } from "../../db/accounts.ts";
import { COMMAND_NAMES } from "../bot/catalog.ts";
import { executeCommand } from "../bot/commands.ts";
import { RunNotAdmitted } from "../bot/runner.ts";
import { commandSettings } from "../bot/settings.ts";
import { changeLooks } from "../core/change-looks.ts";
import { ApiError } from "../core/errors.ts";
import { type CustomLine, readCustomLine, runCustomLine } from "../custom/service.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";
import type { NotificationFrame } from "../live/feed.ts";
import type { Context } from "../runtime.ts";
import { chatBudgetsAdmit } from "./budgets.ts";
import type { Channel } from "./channels.ts";
import { commandInputFromChat, MODERATOR_BADGES } from "./chat-command-input.ts";
import { matchCommand, type TriggerTable, triggerTable, typedHere } from "./triggers.ts";

/** Badges that let cuebot's own account send at the privileged pace (lead moderators included). */
const PRIVILEGED_BADGES: readonly string[] = ["broadcaster", ...MODERATOR_BADGES, "vip"];

/** Errors that are not the chatter's business (refusals by limits): nothing is said in chat. */
const SILENT_CODES = new Set(["on_cooldown", "command_disabled", "rate_limited", "quota_exceeded"]);

/** Trigger tables kept at most (one per channel read); past it they are built afresh. */
const MAX_TRIGGER_TABLES = 20_000;

/** What a custom command's reply is recorded under when it cannot be delivered (chat/sending.ts). */
const CUSTOM_COMMAND = "custom";

/**
 * From a chat message to its reply: a `!command` addressed to cuebot runs through the same service
 * code as the bot endpoints (CONTRACT §6), within chat's own budgets, and its reply joins the
 * channel's send queue (chat/sending.ts). A line no enabled built-in takes is the chat bot's
 * (custom/service.ts: custom commands, counters, quotes), under the same budgets and queue. Refusals
 * by limits say nothing in chat. cuebot's own lines are known by what the queue sent
 * (chat/own-lines.ts), so a streamer whose account speaks for cuebot is answered like anyone else.
 */
export class ChatDispatch {
  /** Several instances: true when this instance may answer the message (it claimed its id first). */
  private readonly claimMessage: ((messageId: string) => Promise<boolean>) | undefined;
  /** Writes by other processes drop the caches a line reads first (core/change-looks.ts). */
  readonly #lookForChanges: () => void;
  /** Each account's trigger table, with the settings cache's generation it was built in. */
  readonly #triggers = new Map<number, { generation: number; table: TriggerTable }>();

  constructor(
    private readonly ctx: Context,
    options: { claimMessage?: (messageId: string) => Promise<boolean>; changesAnnounced?: boolean } = {},
  ) {
    this.claimMessage = options.claimMessage;
    this.#lookForChanges = changeLooks(ctx.externalChanges, options.changesAnnounced === true);
  }

  /** A chat message of the channel, read once on its speaker's live session (chat/readers.ts). */
  onNotification(channel: Channel, frame: NotificationFrame): void {
    const event = frame.event;
    if (!event) return;
    const fromSpeaker = event.chatterId === channel.speaker.userId;
    // The speaker's line: its badges tell whether we may send at the privileged pace.
    if (fromSpeaker) channel.queue.privileged = PRIVILEGED_BADGES.some((b) => event.badges.includes(b));
    // A bot account only ever says cuebot's lines; the streamer also types their own.
    if ((fromSpeaker && channel.speaker.kind === "bot") || !typedHere(event)) return;
    void this.#read(channel, event, fromSpeaker).catch((error: unknown) =>
      this.ctx.log.warn("a chat command failed", { error }),
    );
  }

  /** A line typed in the channel: counted for timers and answered, unless it is our own echo (no loops). */
  async #read(channel: Channel, event: ChatMessageEvent, fromSpeaker: boolean): Promise<void> {
    if (fromSpeaker && (await channel.ownLines.isOwn(event))) return;
    this.ctx.chatLines.noteChatLine(channel.accountId);
    await this.#answer(channel, event);
  }

  async #answer(channel: Channel, event: ChatMessageEvent): Promise<void> {
    const { ctx } = this;
    // Writes by other processes (an instance beside this one on the same SQLite file, the CLI) drop
    // the caches this line reads, as a request's first layer does (http/external-changes.ts).
    this.#lookForChanges();
    const account = await ctx.accounts.account(channel.accountId);
    if (!account) return;
    const triggers = await this.#triggerTable(account.id);
    const call = matchCommand(event, triggers);
    // Built-ins first: the chat bot only sees a line no enabled built-in (or alias) takes.
    const custom = call ? null : await readCustomLine(ctx, account, event, new Set(triggers.keys()));
    if (!call && !custom) return;
    // Claimed by another instance: answered there, or the echo of a line an instance sent (its send
    // claimed it, chat/sending.ts: never answered, even by one whose own lines do not know it). A
    // claim that cannot be made (Redis away) is no answer either: the quota could not be checked, as
    // an HTTP request would be refused 503.
    if (this.claimMessage && !(await this.claimMessage(event.messageId).catch(() => false))) return;
    const reply = custom
      ? await this.#runCustom(account, triggers, custom, event)
      : call && (await this.#run(account, call.command, call.args, event));
    if (reply)
      channel.queue.push({
        text: reply,
        replyTo: event.messageId,
        command: call?.command ?? CUSTOM_COMMAND,
        caller: event.chatterLogin,
      });
  }

  /**
   * The account's triggers, built again only after the settings cache was cleared (every settings
   * write and every outside change clears it), so a line reads no settings to find its command.
   */
  async #triggerTable(accountId: number): Promise<TriggerTable> {
    const generation = this.ctx.settingsCache.generation;
    const known = this.#triggers.get(accountId);
    if (known?.generation === generation) return known.table;
    const table = triggerTable(
      await Promise.all(COMMAND_NAMES.map((command) => commandSettings(this.ctx, accountId, command))),
    );
    if (this.#triggers.size >= MAX_TRIGGER_TABLES) this.#triggers.clear();
    // Stamped with the generation read before: a clear meanwhile makes the next line build it again.
    this.#triggers.set(accountId, { generation, table });
    return table;
  }

  /**
   * A chat-bot line; an alias (`-a=!other`) runs its line once more, as the same chatter (so it
   * never lifts their level), and an alias reached through an alias answers nothing.
   */
  async #runCustom(
    account: Account,
    triggers: TriggerTable,
    line: CustomLine,
    event: ChatMessageEvent,
  ): Promise<string | null> {
    const builtIns = new Set(triggers.keys());
    const run = (l: CustomLine, e: ChatMessageEvent) => {
      const admit = () => chatBudgetsAdmit(this.ctx.limits, account, e);
      return runCustomLine({ ctx: this.ctx, account, event: e, level: l.level, admit, builtIns }, l);
    };
    const outcome = await run(line, event);
    if (outcome?.kind !== "alias") return outcome?.text ?? null;
    const aliased: ChatMessageEvent = { ...event, text: outcome.line, replyParentLogin: null };
    let reply: string | null = null;
    try {
      const call = matchCommand(aliased, triggers);
      if (call) reply = await this.#run(account, call.command, call.args, aliased);
      else {
        const next = await readCustomLine(this.ctx, account, aliased, builtIns);
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

  async #run(
    account: Account,
    command: (typeof COMMAND_NAMES)[number],
    args: string[],
    event: ChatMessageEvent,
  ): Promise<string | null> {
    // Chat's own budgets (per chatter, per channel), apart from the API key's quota, asked once the
    // command is enabled and its cooldown claimed: only a line that gets a reply is counted.
    const admit = () => chatBudgetsAdmit(this.ctx.limits, account, event);
    try {
      const input = commandInputFromChat(command, args, event);
      const result = await executeCommand(this.ctx, account, command, input, { admit });
      return result.data.text;
    } catch (error) {
      // Past a budget, nothing is sent.
      if (error instanceof RunNotAdmitted) return null;
      if (error instanceof ApiError)
        return SILENT_CODES.has(error.code) || error.status === 429 ? null : error.message;
      throw error;
    }
  }
}
