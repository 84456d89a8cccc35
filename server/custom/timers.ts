import type { Account } from "../../db/accounts.ts";
import { listAccountsWithTimers, listTimers, markTimerPosted, type Timer } from "../../db/timers.ts";
import { calendarDuration, durationText } from "../bot/duration.ts";
import type { Clock } from "../core/clock.ts";
import type { SpokenChannel } from "../live/hooks.ts";
import type { CustomContext } from "./context.ts";
import { type LiveStatus, StreamWatch } from "./timer-live.ts";
import { type ScheduledTimer, timerToPost } from "./timer-schedule.ts";
import { expandResponse } from "./variables.ts";

/**
 * Timers in chat (issue 24): each held channel's timers post their message while the stream is live,
 * as timer-schedule.ts decides, through the channel's send queue (the same pacing as replies). It
 * starts beside native chat (custom/live-feature.ts, on chat's channels), so with Redis only on
 * the instance that holds the chat lease: a channel's timers post once cluster-wide. Last posts are stored (db/timers.ts), so an
 * instance that takes chat over goes on where the other stopped; the chat lines are counted in memory
 * and start again from zero there, which only delays a post.
 *
 * The lines are the context's count (`ctx.chatLines`, custom/chat-lines.ts), bumped on the live
 * layer's `chatLine` hook for every line read that is not cuebot's own; each timer notes
 * the count when it posts, and the difference is the lines since.
 */

/** How often each channel is looked at, in protocol seconds (tests shorten the second). */
export const TIMER_TICK_SECONDS = 10;
/**
 * The stored timers are read again at least this often: another process's edits arrive at once through
 * the change feed, the dashboard's in this process within the minute (an edit restarts the countdown
 * anyway, so the minute never shows).
 */
const TIMERS_CACHE_MS = 60_000;

export interface ChatTimersOptions {
  /** One protocol second in ms (chat/manager.ts's `secondMs`). */
  secondMs?: number;
  /** The clock timers go by; the context's unless a test moves its own. */
  clock?: Clock;
}

/** One channel's timers as this instance holds them. */
interface ChannelTimers {
  /** Per timer, the channel's line count when it last posted (a timer not in here counts from zero). */
  marks: Map<number, number>;
  /** Per timer, when this instance posted it: a post whose storing failed still counts. */
  posted: Map<number, number>;
  stored: { timers: Timer[]; readAt: number } | null;
}

/** What a channel's look needs of the channel native chat holds. */
type HeldChannel = SpokenChannel;

/** The timers of every channel the chat manager holds: one look per tick, at most one post per channel. */
export class ChatTimers {
  readonly #byAccount = new Map<number, ChannelTimers>();
  readonly #clock: Clock;
  readonly #live: StreamWatch;
  readonly #tickMs: number;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** The accounts with a timer switched on, as last read. */
  #withTimers: { ids: ReadonlySet<number>; readAt: number } | null = null;
  /** Edits seen so far (`forget` calls): a read that began before the last one is not kept. */
  #forgets = 0;
  #started = false;
  /** Once stopped, nothing more is posted, not even by a look under way. */
  #stopped = false;
  #unsubscribe: () => void = () => {};

  constructor(
    private readonly ctx: CustomContext,
    /** The channels the manager holds now (chat/channels.ts `byAccount`). */
    private readonly channels: ReadonlyMap<number, HeldChannel>,
    options: ChatTimersOptions = {},
  ) {
    this.#clock = options.clock ?? ctx.clock;
    this.#live = new StreamWatch(ctx, this.#clock);
    this.#tickMs = TIMER_TICK_SECONDS * (options.secondMs ?? 1000);
  }

  /** Looks at every channel every tick until `stop`; edits (this process's and others') are read at once. */
  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    const external = this.ctx.externalChanges.subscribe(() => this.forget());
    const own = this.ctx.chatBot.onTimersChanged((accountId) => this.forget(accountId));
    this.#unsubscribe = () => {
      external();
      own();
    };
    this.#schedule();
  }

  stop(): void {
    this.#stopped = true;
    this.#unsubscribe();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Reads the account's timers (every account's when none is named) again at the next look. */
  forget(accountId?: number): void {
    this.#withTimers = null;
    this.#forgets++;
    if (accountId === undefined) for (const state of this.#byAccount.values()) state.stored = null;
    else {
      const state = this.#byAccount.get(accountId);
      if (state) state.stored = null;
    }
  }

  /**
   * One look at every connected channel with a timer switched on: at most one timer post each. Never
   * rejects. Which channels have timers is one query a minute (or after an edit), so a thousand
   * channels without timers cost nothing per tick (issue 26).
   */
  async tick(): Promise<void> {
    const held = this.channels;
    for (const id of this.#byAccount.keys())
      if (!held.has(id)) {
        // Its marks and its count go together: a channel held again counts from zero.
        this.#byAccount.delete(id);
        this.ctx.chatLines.forget(id);
      }
    this.#live.keepOnly(held);
    let withTimers: ReadonlySet<number>;
    try {
      withTimers = await this.#accountsWithTimers();
    } catch (error) {
      this.ctx.log.warn("could not read which channels have chat timers", { error });
      return;
    }
    const looks: Promise<void>[] = [];
    for (const accountId of withTimers) {
      const channel = held.get(accountId);
      if (channel?.state !== "connected") continue;
      looks.push(
        this.#look(channel).catch((error: unknown) =>
          this.ctx.log.warn("a chat timer could not run", { accountId: channel.accountId, error }),
        ),
      );
    }
    await Promise.all(looks);
  }

  async #accountsWithTimers(): Promise<ReadonlySet<number>> {
    const now = this.#clock.now();
    const known = this.#withTimers;
    if (known && now - known.readAt < TIMERS_CACHE_MS && now >= known.readAt) return known.ids;
    const asked = this.#forgets;
    const ids = await listAccountsWithTimers(this.ctx.db);
    // An edit while the query ran may not be in its answer: kept only when none came meanwhile.
    if (asked === this.#forgets) this.#withTimers = { ids, readAt: now };
    return ids;
  }

  /** The channel is no longer held: its marks and its line count go together. */
  drop(accountId: number): void {
    this.#byAccount.delete(accountId);
    this.ctx.chatLines.forget(accountId);
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(async () => {
      await this.tick();
      this.#schedule();
    }, this.#tickMs);
  }

  #channel(accountId: number): ChannelTimers {
    let state = this.#byAccount.get(accountId);
    if (!state) {
      state = { marks: new Map(), posted: new Map(), stored: null };
      this.#byAccount.set(accountId, state);
    }
    return state;
  }

  async #look(channel: HeldChannel): Promise<void> {
    const state = this.#channel(channel.accountId);
    const timers = await this.#timers(channel.accountId, state);
    // Twitch is asked whether the channel is live only for channels with a timer to post.
    if (!timers.some((t) => t.enabled)) return;
    const account = await this.ctx.accounts.account(channel.accountId);
    if (!account) return;
    const live = await this.#live.status(account);
    const now = this.#clock.now();
    const lines = this.ctx.chatLines.linesSeen(channel.accountId);
    const id = timerToPost({
      now,
      liveSince: live.startedAt,
      timers: timers.map((t) => this.#scheduled(t, state, lines)),
    });
    const timer = timers.find((t) => t.id === id);
    if (!timer || this.#stopped || channel.state !== "connected") return;
    // Counted as posted before the text is built: a slow resolver never lets it post twice.
    state.posted.set(timer.id, now);
    state.marks.set(timer.id, this.ctx.chatLines.linesSeen(channel.accountId));
    const text = await this.#text(timer, account, live, now);
    if (text.trim() !== "" && !this.#stopped)
      channel.queue.push({ text, replyTo: "", command: "timer", caller: timer.name });
    await markTimerPosted(this.ctx.db, channel.accountId, timer.id, now).catch((error: unknown) =>
      this.ctx.log.warn("could not store a timer's last post", { accountId: channel.accountId, error }),
    );
  }

  /** The account's stored timers, read again after a minute or a change. */
  async #timers(accountId: number, state: ChannelTimers): Promise<Timer[]> {
    const now = this.#clock.now();
    if (state.stored && now - state.stored.readAt < TIMERS_CACHE_MS && now >= state.stored.readAt)
      return state.stored.timers;
    const timers = await listTimers(this.ctx.db, accountId);
    state.stored = { timers, readAt: now };
    const ids = new Set(timers.map((t) => t.id));
    for (const id of state.marks.keys()) if (!ids.has(id)) state.marks.delete(id);
    for (const id of state.posted.keys()) if (!ids.has(id)) state.posted.delete(id);
    return timers;
  }

  #scheduled(timer: Timer, state: ChannelTimers, lines: number): ScheduledTimer {
    const postedHere = state.posted.get(timer.id);
    const lastPostedAt =
      postedHere === undefined ? timer.lastPostedAt : Math.max(postedHere, timer.lastPostedAt ?? postedHere);
    return {
      id: timer.id,
      intervalMinutes: timer.intervalMinutes,
      minChatLines: timer.minChatLines,
      enabled: timer.enabled,
      lastPostedAt,
      updatedAt: timer.updatedAt,
      linesSince: lines - (state.marks.get(timer.id) ?? 0),
    };
  }

  /**
   * The message with its variables filled in. Nobody called a timer: `$(user)` is the channel, there
   * are no arguments and no use count; `$(uptime)` and `$(game)` come from the look that found the
   * stream live; `$(followage)` and the game commands have no chatter or player here and show their
   * placeholder.
   */
  #text(timer: Timer, account: Account, live: LiveStatus, now: number): Promise<string> {
    const startedAt = live.startedAt;
    return expandResponse(timer.message, {
      caller: { login: account.login, displayName: account.displayName },
      channel: account.displayName,
      args: [],
      count: 0,
      random: this.ctx.random,
      clock: this.#clock,
      resolvers: {
        uptime: async () =>
          startedAt === null
            ? "offline"
            : durationText(calendarDuration(new Date(startedAt), new Date(Math.max(now, startedAt)))),
        game: async () => live.game,
      },
    });
  }
}
