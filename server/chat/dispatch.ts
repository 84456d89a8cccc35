import type { Account } from "../../db/accounts.ts";
import { COMMAND_NAMES } from "../bot/catalog.ts";
import { executeCommand } from "../bot/commands.ts";
import { outcomeOf, RunNotAdmitted } from "../bot/runner.ts";
import { commandSettings } from "../bot/settings.ts";
import { changeLooks } from "../core/change-looks.ts";
import { ApiError } from "../core/errors.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";
import type { NotificationFrame } from "../live/feed.ts";
import {
  CHAT_STAGE_ORDER,
  type ChatAnswer,
  type ChatLine,
  type ChatLineStage,
  type ChatOutcome,
  NO_REPLY,
} from "../live/hooks.ts";
import { chatBudgetRefusal } from "./budgets.ts";
import type { Channel } from "./channels.ts";
import { commandInputFromChat, MODERATOR_BADGES } from "./chat-command-input.ts";
import type { ChatContext } from "./context.ts";
import { RefusalNotes } from "./refusal-notes.ts";
import { matchCommand, type TriggerTable, triggerTable, typedHere } from "./triggers.ts";

/** Badges that let cuebot's own account send at the privileged pace (lead moderators included). */
const PRIVILEGED_BADGES: readonly string[] = ["broadcaster", ...MODERATOR_BADGES, "vip"];

/** Errors that are not the chatter's business (refusals by limits): nothing is said in chat. */
const SILENT_CODES = new Set(["on_cooldown", "command_disabled", "rate_limited", "quota_exceeded"]);

/** A built-in's error as chat meets it: its cooldown, another limit (nothing said), or its sentence. */
function silentOrSaid(error: ApiError): ChatOutcome {
  if (error.code === "on_cooldown") return NO_REPLY.cooldown;
  const silent = SILENT_CODES.has(error.code) || error.status === 429;
  return { reply: silent ? null : error.message, outcome: error.code, refused: null };
}

/** Trigger tables kept at most (one per channel read); past it they are built afresh. */
const MAX_TRIGGER_TABLES = 20_000;

/** An account's trigger table, the settings generation it was built in, and its triggers' names. */
interface Triggers {
  generation: number;
  table: TriggerTable;
  names: ReadonlySet<string>;
}

/**
 * From a chat message to its reply: a `!command` addressed to cuebot runs through the same service
 * code as the bot endpoints (CONTRACT §6), within chat's own budgets, and its reply joins the
 * channel's send queue (chat/sending.ts). The built-ins are one stage of the line; features add
 * theirs (live/hooks.ts `ChatLineStages`: the channel's own commands after the built-ins,
 * custom/chat-stage.ts), answered under the same budgets and queue. Refusals
 * by limits say nothing in chat. cuebot's own lines are known by what the queue sent
 * (chat/own-lines.ts), so a streamer whose account speaks for cuebot is answered like anyone else.
 */
export class ChatDispatch {
  /** Several instances: true when this instance may answer the message (it claimed its id first). */
  private readonly claimMessage: ((messageId: string) => Promise<boolean>) | undefined;
  /** Writes by other processes drop the caches a line reads first (core/change-looks.ts). */
  readonly #lookForChanges: () => void;
  /** Each account's trigger table, with the settings cache's generation it was built in. */
  readonly #triggers = new Map<number, Triggers>();
  /** Which refusals are stored (at most one per chatter and reason per 30 s). */
  readonly #refusals = new RefusalNotes();

  constructor(
    private readonly ctx: ChatContext,
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

  /** A line typed in the channel: told to the hooks (timers count it) and answered, unless it is our own echo. */
  async #read(channel: Channel, event: ChatMessageEvent, fromSpeaker: boolean): Promise<void> {
    if (fromSpeaker && (await channel.ownLines.isOwn(event))) return;
    this.ctx.live.hooks.chatLine.emit(channel.accountId, event);
    await this.#answer(channel, event);
  }

  /** The first stage, in order, that takes the line answers it (live/hooks.ts `ChatLineStages`). */
  async #answer(channel: Channel, event: ChatMessageEvent): Promise<void> {
    const { ctx } = this;
    // Writes by other processes (an instance beside this one on the same SQLite file, the CLI) drop
    // the caches this line reads, as a request's first layer does (http/external-changes.ts).
    this.#lookForChanges();
    const account = await ctx.accounts.account(channel.accountId);
    if (!account) return;
    const { names } = await this.#triggerTable(account.id);
    const line: ChatLine = { account, event, builtIns: names, runBuiltIn: this.#runBuiltIn };
    const stages = ctx.live.chatStages.with(this.#builtInStage);
    let answer: ChatAnswer | null = null;
    for (let i = 0; i < stages.length && !answer; i++) {
      const taken = stages[i]?.take(line) ?? null;
      answer = taken instanceof Promise ? await taken : taken;
    }
    if (!answer) return;
    // Claimed by another instance: answered there, or the echo of a line an instance sent (its send
    // claimed it, chat/sending.ts: never answered, even by one whose own lines do not know it). A
    // claim that cannot be made (Redis away) is no answer either: the quota could not be checked, as
    // an HTTP request would be refused 503.
    if (this.claimMessage && !(await this.claimMessage(event.messageId).catch(() => false))) return;
    const { command } = answer;
    const at = ctx.clock.now();
    const t0 = performance.now();
    let outcome: ChatOutcome;
    try {
      outcome = await answer.run();
    } catch (error) {
      this.#record(account.id, command, event, at, t0, {
        reply: null,
        outcome: outcomeOf(error),
        refused: null,
      });
      throw error;
    }
    if (outcome === null) return;
    this.#record(account.id, command, event, at, t0, outcome);
    const reply = typeof outcome === "string" ? outcome : outcome.reply;
    if (!reply) return;
    channel.queue.push({ text: reply, replyTo: event.messageId, command, caller: event.chatterLogin });
    const answered = ctx.live.hooks.commandAnswered;
    if (answered.bound)
      answered.emit({ accountId: account.id, command, caller: event.chatterLogin, reply }, undefined);
  }

  /**
   * Every chat command a stage answered or a limit refused, once, by the chatter who typed it (the
   * Overview's counts and top callers, the activity feed); a refusal is stored at most once per
   * chatter and reason per 30 s (RefusalNotes) and told to the `commandRefused` hook every time.
   */
  #record(
    accountId: number,
    command: string,
    event: ChatMessageEvent,
    at: number,
    t0: number,
    outcome: Exclude<ChatOutcome, null>,
  ): void {
    const answered = typeof outcome === "string";
    const refused = answered ? null : outcome.refused;
    if (refused !== null) {
      const told = this.ctx.live.hooks.commandRefused;
      if (told.bound)
        told.emit(
          { accountId, messageId: event.messageId, command, caller: event.chatterLogin, refused },
          undefined,
        );
      if (!this.#refusals.due(accountId, event.chatterId, refused, at)) return;
    }
    this.ctx.events.record({
      accountId,
      at,
      command,
      caller: event.chatterLogin,
      outcome: answered ? "ok" : outcome.outcome,
      latencyMs: Math.round(performance.now() - t0),
      test: false,
      refused,
    });
  }

  /** cuebot's own commands, ahead of the channel's (custom/chat-stage.ts). */
  readonly #builtInStage: ChatLineStage = {
    name: "built-in commands",
    order: CHAT_STAGE_ORDER.builtIns,
    take: (line) => {
      const call = this.#call(line.account.id, line.event);
      if (!call) return null;
      return {
        command: call.command,
        run: () => this.#run(line.account, call.command, call.args, line.event),
      };
    },
  };

  /** A line (an alias's target) run as a built-in command: its outcome, or null when none takes it. */
  readonly #runBuiltIn = (account: Account, event: ChatMessageEvent): Promise<ChatOutcome> | null => {
    const call = this.#call(account.id, event);
    return call ? this.#run(account, call.command, call.args, event) : null;
  };

  /** The built-in the line calls, from the account's trigger table (read by `#answer` first). */
  #call(accountId: number, event: ChatMessageEvent) {
    const known = this.#triggers.get(accountId);
    return known ? matchCommand(event, known.table) : null;
  }

  /**
   * The account's triggers, built again only after the settings cache was cleared (every settings
   * write and every outside change clears it), so a line reads no settings to find its command.
   */
  async #triggerTable(accountId: number): Promise<Triggers> {
    const generation = this.ctx.settingsCache.generation;
    const known = this.#triggers.get(accountId);
    if (known?.generation === generation) return known;
    const table = triggerTable(
      await Promise.all(COMMAND_NAMES.map((command) => commandSettings(this.ctx, accountId, command))),
    );
    if (this.#triggers.size >= MAX_TRIGGER_TABLES) this.#triggers.clear();
    // Stamped with the generation read before: a clear meanwhile makes the next line build it again.
    const triggers = { generation, table, names: new Set(table.keys()) };
    this.#triggers.set(accountId, triggers);
    return triggers;
  }

  async #run(
    account: Account,
    command: (typeof COMMAND_NAMES)[number],
    args: string[],
    event: ChatMessageEvent,
  ): Promise<ChatOutcome> {
    // Chat's own budgets (per chatter, per channel), apart from the API key's quota, asked once the
    // command is enabled and its cooldown claimed: only a line that gets a reply is counted. The line
    // is recorded once, by #answer, not by the run.
    const gate = () => chatBudgetRefusal(this.ctx.limits, account, event);
    try {
      const input = commandInputFromChat(command, args, event);
      const result = await executeCommand(this.ctx, account, command, input, { gate, unrecorded: true });
      return result.data.text;
    } catch (error) {
      // Past a budget, nothing is sent.
      if (error instanceof RunNotAdmitted) return NO_REPLY[error.reason];
      if (error instanceof ApiError) return silentOrSaid(error);
      throw error;
    }
  }
}
