import type { Account } from "../../db/accounts.ts";
import { writeModerationState } from "../../db/moderation.ts";
import { andThen } from "../core/maybe-promise.ts";
import { callerLevel } from "../live/chat-levels.ts";
import type { ChatMessageEvent } from "../live/eventsub-message.ts";
import type { LiveStart } from "../live/features.ts";
import {
  CHAT_STAGE_ORDER,
  type ChatAnswer,
  type ChatLine,
  type ChatLineStage,
  type ModerationAction,
  type SpokenChannel,
} from "../live/hooks.ts";
import type { HelixError } from "../twitch/helix-client.ts";
import { MODERATION_LIMITS, type ModerationFilter } from "../vocabulary.ts";
import type { ModerationContext, ModerationRuntime } from "./context.ts";
import { Enforcer } from "./enforcer.ts";
import { judgeLine } from "./judge.ts";
import { ModerationLogWriter } from "./log-writer.ts";
import { permitLine, readPermitLine } from "./permit.ts";
import { loggedAction, punishmentOf, punishmentReason, warningLine } from "./punishment.ts";
import { type AccountRules, RulesCache } from "./rules.ts";
import { ShieldControl } from "./shield.ts";

/** A warning waits for a quiet moment: past this many lines waiting in the channel's queue it is dropped. */
const WARN_MAX_WAITING = 2;

/**
 * Chat moderation on the instance that reads Twitch (CONTRACT §6 "Chat moderation"): a chat-line
 * stage ahead of the commands (`CHAT_STAGE_ORDER.moderation`) that judges each line with the
 * account's filters (moderation/judge.ts), takes a caught line so no command answers it, and, once
 * this instance claimed it, deletes, times out or bans through Helix (moderation/enforcer.ts, never
 * behind chat's replies), warns within chat's budget, and tells the raid shield. What it did goes out
 * on the `moderationAction` hook; the log is one handler of it.
 */
export class ModerationLive implements ModerationRuntime {
  readonly #rules: RulesCache;
  readonly #enforcer: Enforcer;
  readonly #shield: ShieldControl;
  readonly #logWriter: ModerationLogWriter;
  readonly #unbind: (() => void)[] = [];
  #lastPassWarning = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: ModerationContext,
    private readonly begun: LiveStart,
  ) {
    this.#rules = new RulesCache(ctx);
    this.#logWriter = new ModerationLogWriter(ctx);
    this.#enforcer = new Enforcer(
      (holder, call) => begun.sessions.tokens.withToken(holder, call, { held: true }),
      () => ctx.clock.now(),
    );
    this.#shield = new ShieldControl(ctx, {
      rules: this.#rules,
      withToken: (holder, call) => begun.sessions.tokens.withToken(holder, call, { held: true }),
      failed: (accountId, error) => this.#failed(accountId, error),
    });
  }

  start(): void {
    const { live } = this.ctx;
    this.#unbind.push(
      live.chatStages.add(this.#stage),
      live.hooks.moderationAction.bind((action) => this.#log(action)),
      this.ctx.externalChanges.subscribe(() => {
        this.#rules.clear();
        this.#shield.recheck();
      }),
    );
    this.#shield.resume();
  }

  changed(accountId: number): void {
    this.#rules.forget(accountId);
    this.#shield.recheck(accountId);
  }

  /** Stops judging at once; settles once the log's last entries are written. */
  close(): Promise<void> {
    for (const unbind of this.#unbind.splice(0)) unbind();
    this.#shield.close();
    this.#enforcer.close();
    return this.#logWriter.close();
  }

  readonly #stage: ChatLineStage = {
    name: "moderation",
    order: CHAT_STAGE_ORDER.moderation,
    take: (line) => {
      try {
        const rules = this.#rules.get(line.account.id);
        if (!(rules instanceof Promise)) return this.#take(line, rules);
        return rules.then(
          (read) => this.#take(line, read),
          (error: unknown) => this.#passed(line, error),
        );
      } catch (error) {
        return this.#passed(line, error);
      }
    },
  };

  /**
   * Moderation could not judge the line (the store away, a filter failing): the line goes on to the
   * commands, unjudged, rather than stalling the channel; a warning at most once a minute says so.
   */
  #passed(line: ChatLine, error: unknown): null {
    const now = performance.now();
    if (now - this.#lastPassWarning >= 60_000) {
      this.#lastPassWarning = now;
      this.ctx.log.warn("a chat line passed unjudged by moderation", { accountId: line.account.id, error });
    }
    return null;
  }

  /** Whether moderation takes the line: a caught one, or a moderator's `!permit`. */
  #take(line: ChatLine, rules: AccountRules) {
    const { event, account } = line;
    if (!rules.enabled) return null;
    // Shared Chat brings lines typed in other channels: not ours to judge (nor to delete).
    if (event.sourceBroadcasterId !== null && event.sourceBroadcasterId !== event.broadcasterId) return null;
    const channel = this.begun.channels.get(account.id);
    if (!channel) return null;
    const level = callerLevel(event, rules.regulars);
    if (level === "owner" || level === "moderator") return this.#permit(line);
    const now = this.ctx.clock.now();
    this.#shield.said(channel, account, rules, event, now);
    const caught = judgeLine(rules.compiled, event, level, { linksPermitted: false });
    if (caught === null) return null;
    if (caught !== "links") return this.#caught(channel, account, rules, event, caught);
    const asked = this.ctx.moderationBook.permitted(account.id, event.chatterLogin, now);
    // The book away (Redis): no permit is known, so the link is judged as any other.
    const known = asked instanceof Promise ? asked.catch(() => false) : asked;
    return andThen(known, (permitted) => {
      const filter = permitted ? judgeLine(rules.compiled, event, level, { linksPermitted: true }) : caught;
      return filter === null ? null : this.#caught(channel, account, rules, event, filter);
    });
  }

  #caught(
    channel: SpokenChannel,
    account: Account,
    rules: AccountRules,
    event: ChatMessageEvent,
    filter: ModerationFilter,
  ): ChatAnswer {
    return {
      command: "moderation",
      run: async () => {
        await this.#punish(channel, account, rules, event, filter);
        return null;
      },
    };
  }

  async #punish(
    channel: SpokenChannel,
    account: Account,
    rules: AccountRules,
    event: ChatMessageEvent,
    filter: ModerationFilter,
  ): Promise<void> {
    const now = this.ctx.clock.now();
    const bans = filter === "terms" && rules.filters.terms.action === "ban";
    const repeat = bans ? false : await this.#repeatOffence(account.id, event.chatterId, now);
    const punishment = punishmentOf(filter, rules.filters, repeat);
    const helix = this.ctx.helixApi;
    const holder = { accountId: account.id, speaker: channel.speaker };
    const ids = { broadcasterId: channel.broadcasterId, moderatorId: channel.speaker.userId };
    const failed = (error: HelixError) => this.#failed(account.id, error);
    const target = { ...ids, userId: event.chatterId, reason: punishmentReason(filter, punishment) };
    if (helix && punishment.kind === "delete")
      this.#enforcer.enqueue({
        urgent: false,
        holder,
        run: (token) => helix.deleteChatMessage(token, { ...ids, messageId: event.messageId }),
        failed,
      });
    else if (helix && punishment.kind === "timeout")
      this.#enforcer.enqueue({
        urgent: true,
        holder,
        run: async (token) => void (await helix.timeout(token, { ...target, seconds: punishment.seconds })),
        failed,
      });
    else if (helix && punishment.kind === "ban")
      this.#enforcer.enqueue({
        urgent: true,
        holder,
        run: async (token) => void (await helix.ban(token, target)),
        failed,
      });
    const warned =
      punishment.kind === "delete" &&
      punishment.warn &&
      (await this.#warn(channel, account, event, rules.filters[filter].message, now));
    this.ctx.live.hooks.moderationAction.emit(
      {
        accountId: account.id,
        action: loggedAction(punishment, warned),
        filter,
        user: { id: event.chatterId, login: event.chatterLogin, name: event.chatterName },
        seconds: punishment.kind === "timeout" ? punishment.seconds : null,
        text: event.text,
      },
      undefined,
    );
    this.#shield.caught(channel, account, rules, event.chatterId, now);
  }

  /**
   * The warning line: at most one per chatter per 30 s, from the channel's chat budget, and only
   * while few lines wait (under a flood, warnings are what is dropped first).
   */
  async #warn(
    channel: SpokenChannel,
    account: Account,
    event: ChatMessageEvent,
    message: string,
    now: number,
  ): Promise<boolean> {
    if (channel.queue.size > WARN_MAX_WAITING) return false;
    const book = this.ctx.moderationBook;
    if (!(await Promise.resolve(book.mayWarn(account.id, event.chatterId, now)).catch(() => false)))
      return false;
    const spent = await Promise.resolve(this.ctx.limits.chatters.check(account, null)).catch(() => "error");
    if (spent !== null) return false;
    // Lines may have joined the queue while the book and the budget answered.
    if (channel.queue.size > WARN_MAX_WAITING) return false;
    channel.queue.push({
      text: warningLine(event.chatterLogin, message),
      replyTo: "",
      command: "moderation",
      caller: event.chatterLogin,
    });
    return true;
  }

  /** Whether the chatter offended within the hour; when the book cannot answer (Redis away), a first offence. */
  async #repeatOffence(accountId: number, chatterId: string, now: number): Promise<boolean> {
    try {
      return await this.ctx.moderationBook.offend(accountId, chatterId, now);
    } catch (error) {
      this.ctx.log.warn("moderation's book did not answer: the line counts as a first offence", { error });
      return false;
    }
  }

  /** `!permit <user>` from the broadcaster or a moderator: links allowed for 60 s, one line saying so. */
  #permit(line: ChatLine): ChatAnswer | null {
    const permit = readPermitLine(line.event.text);
    if (permit === null) return null;
    return {
      command: "permit",
      run: async () => {
        if ("refusal" in permit) return permit.refusal;
        const now = this.ctx.clock.now();
        const seconds = MODERATION_LIMITS.permitSeconds;
        await this.ctx.moderationBook.permit(line.account.id, permit.login, now + seconds * 1000, now);
        this.ctx.live.hooks.moderationAction.emit(
          {
            accountId: line.account.id,
            action: "permit",
            filter: "links",
            user: { id: "", login: permit.login, name: permit.login },
            seconds,
            text: null,
          },
          undefined,
        );
        return permitLine(permit.login);
      },
    };
  }

  /** The moderation log keeps what was done (the caught text is cleared after 7 days). */
  #log(action: ModerationAction): void {
    const { accountId, user, ...rest } = action;
    const entry = {
      at: this.ctx.clock.now(),
      userId: user.id,
      userLogin: user.login,
      userName: user.name,
      filter: rest.filter,
      action: rest.action,
      seconds: rest.seconds,
      // PostgreSQL's text holds no NUL: a troll's line keeps its place with a stand-in.
      text: rest.text?.replaceAll("\u0000", "\uFFFD") ?? null,
    };
    this.#logWriter.add({ accountId, ...entry });
  }

  /**
   * Twitch refused an action: a 403 means the account cuebot speaks as is not a moderator, a 401
   * that a scope is missing; both show as `error` with what to do. Other refusals (a moderator's
   * message, a line already gone) are the chat's ordinary business.
   */
  #failed(accountId: number, error: HelixError): void {
    const reason =
      error.status === 403
        ? "Twitch refused a moderation action: the account cuebot speaks as is not a moderator of your channel. Make it one with /mod, then turn moderation off and on again."
        : error.status === 401
          ? "Twitch refused a moderation action: cuebot lacks a permission it needs. Allow it again (or link the bot account again), then turn moderation off and on again."
          : null;
    if (reason === null) {
      this.ctx.log.debug("a moderation action was refused", {
        accountId,
        status: error.status,
        error: error.message,
      });
      return;
    }
    this.ctx.log.warn("moderation cannot act", { accountId, status: error.status });
    void writeModerationState(this.ctx.db, accountId, "error", reason, this.ctx.clock.now()).catch(() => {});
  }
}

/** Moderation beside native chat (live/features.ts), started and closed with it. */
export function startModeration(ctx: ModerationContext, start: LiveStart): ModerationLive {
  const live = new ModerationLive(ctx, start);
  live.start();
  ctx.moderation.useLive(live);
  return live;
}
