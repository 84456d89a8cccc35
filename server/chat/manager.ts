import { listChatEnabledAccounts, loadChatBot, readChatSettings, writeChatState } from "../../db/chat.ts";
import { settledWithin } from "../core/settled-within.ts";
import type { LiveFeature, LiveService } from "../live/features.ts";
import { LiveSessions } from "../live/sessions.ts";
import type { SpeakerTokens } from "../live/speaker-tokens.ts";
import { ChatChannels, type Speaker } from "./channels.ts";
import type { ChatContext } from "./context.ts";
import { ChatDispatch } from "./dispatch.ts";
import { OwnLines } from "./own-lines.ts";
import { ChatReaders } from "./readers.ts";
import { openChannel } from "./sending.ts";
import {
  type ChatRuntime,
  type ChatState,
  type ChatStatus,
  consentProblem,
  storedChatStatus,
} from "./status.ts";

/**
 * Native chat under `serve`: for every account that turned it on, read its channel's chat over
 * EventSub (chat/readers.ts), answer `!commands` (chat/dispatch.ts) and send the replies at Twitch's
 * pace (chat/sending.ts). Tokens are refreshed before they expire (live/speaker-tokens.ts); a grant
 * that is gone shows as `needs_consent` and nothing retries until the streamer acts. This file keeps
 * the channels in line with what is stored.
 */

export interface ChatManagerOptions {
  /** One protocol "second" in ms (tests shorten it along with the simulator's). */
  secondMs?: number;
  /** Several instances: true when this instance may answer the message (it claimed its id first). */
  claimMessage?: (messageId: string) => Promise<boolean>;
  /** Admin commands announce their changes to this server (core/change-looks.ts): chat looks less often. */
  changesAnnounced?: boolean;
  /** What runs beside chat on its live layer (server/live-runtime.ts `liveFeatures`: alerts, timers…). */
  features?: readonly LiveFeature[];
}

/** An alert's thanks line is skipped while more lines than this wait in the channel's send queue. */
const SAY_MAX_WAITING = 2;

/** Longest wait at shutdown for chat's last writes. */
const CLOSE_WAIT_MS = 5_000;

class ChatManager implements ChatRuntime {
  readonly #channels: ChatChannels;
  /** The live sessions chat and alerts read on: one per reading Twitch user (live/sessions.ts). */
  readonly #live: LiveSessions;
  readonly #tokens: SpeakerTokens;
  readonly #readers: ChatReaders;
  readonly #secondMs: number | undefined;
  readonly #features: readonly LiveFeature[];
  readonly #claimMessage: ChatManagerOptions["claimMessage"];
  /**
   * Each account's lines lately sent, with the speaker they were sent as: kept across reopens (a
   * send in flight on the old channel still records its line), dropped when chat is off for good.
   */
  readonly #ownLines = new Map<number, { speakerId: string; lines: OwnLines }>();
  /** Syncs run one at a time, so two for one account never make two channels. */
  #syncs: Promise<void> = Promise.resolve();
  #passing = false;
  #passAgain = false;
  #lastPassWarning = Number.NEGATIVE_INFINITY;
  #unsubscribe: () => void = () => {};
  /**
   * What features started beside chat on the live layer (live/features.ts: alerts, timers),
   * on the same instance, closed with it.
   */
  #services: LiveService[] = [];
  #unbindThanks: () => void = () => {};

  constructor(
    private readonly ctx: ChatContext,
    options: ChatManagerOptions,
  ) {
    this.#channels = new ChatChannels(ctx);
    this.#live = new LiveSessions(ctx, { secondMs: options.secondMs });
    this.#tokens = this.#live.tokens;
    this.#claimMessage = options.claimMessage;
    this.#secondMs = options.secondMs;
    this.#features = options.features ?? [];
    const dispatch = new ChatDispatch(ctx, {
      claimMessage: options.claimMessage,
      changesAnnounced: options.changesAnnounced === true,
    });
    this.#readers = new ChatReaders(this.#channels, this.#live, (channel, frame) =>
      dispatch.onNotification(channel, frame),
    );
  }

  /** Connects every account that has chat on, and again whenever another process changed the data. */
  start(): void {
    void this.#syncAll();
    const { hooks } = this.ctx.live;
    this.ctx.live.useLive(this.#live.streams);
    // An alert's thanks line goes through the channel's send queue (alerts/deliver.ts emits it).
    this.#unbindThanks = hooks.alertDelivered.bind(
      ({ accountId, chatLine }) => chatLine !== null && this.#say(accountId, chatLine),
    );
    const start = { sessions: this.#live, channels: this.#channels.byAccount, secondMs: this.#secondMs };
    this.#services = this.#features.map((feature) => feature(start));
    // The CLI (or another process) may have deleted an account, rotated tokens or switched chat: re-check.
    this.#unsubscribe = this.ctx.externalChanges.subscribe(() => void this.#syncAll());
  }

  async status(accountId: number): Promise<ChatStatus> {
    const channel = this.#channels.byAccount.get(accountId);
    if (!channel) return storedChatStatus(this.ctx, accountId);
    return { enabled: true, state: channel.state, since: channel.since, reason: channel.reason };
  }

  sync(accountId: number): Promise<void> {
    this.#syncs = this.#syncs
      .then(() => this.#syncNow(accountId))
      .catch((error: unknown) =>
        this.ctx.log.warn("could not bring chat in line with its settings", { accountId, error }),
      );
    return this.#syncs;
  }

  connected(): { accountId: number; since: number }[] {
    return [...this.#channels.byAccount.values()]
      .filter((c) => c.state === "connected")
      .map((c) => ({ accountId: c.accountId, since: c.since }));
  }

  /**
   * Queues a line (an alert's thanks) on the channel's send queue, under chat's pacing and limits;
   * false when the account's chat is not connected here, or more than two lines wait already.
   */
  #say(accountId: number, text: string): boolean {
    const channel = this.#channels.byAccount.get(accountId);
    // A thanks line waits for a quiet moment: it never crowds command replies out of the queue.
    if (channel?.state !== "connected" || channel.queue.size > SAY_MAX_WAITING) return false;
    channel.queue.push({ text, replyTo: "", command: "alert", caller: "alerts" });
    return true;
  }

  async close(
    options: { handOver?: boolean; end?: { state: ChatState; reason: string } } = {},
  ): Promise<void> {
    const channels = this.#channels;
    if (channels.closed) return;
    channels.close();
    this.#unsubscribe();
    this.#unbindThanks();
    const stop = { handOver: options.handOver, end: options.end };
    const servicesClosed = this.#services.map((service) => service.close(stop));
    this.ctx.live.release(this.#live.streams);
    // Every session closes at once (Twitch disables their subscriptions): nothing is deleted one by one.
    this.#live.close();
    // What is under way finishes first, within the same few seconds.
    await settledWithin(CLOSE_WAIT_MS, Promise.all([this.#syncs, channels.writes]));
    const end = options.end ?? { state: "off", reason: "cuebot is not running" };
    const finalStates: Promise<unknown>[] = [];
    for (const channel of [...channels.byAccount.values()]) {
      this.#remove(channel.accountId);
      if (!options.handOver)
        finalStates.push(
          writeChatState(this.ctx.db, channel.accountId, end.state, end.reason, this.ctx.clock.now()),
        );
    }
    // All at once, and not for longer than a few seconds: a database that does not answer must not
    // hold the shutdown (the states then say what they said; the next start writes them again).
    await settledWithin(CLOSE_WAIT_MS, Promise.allSettled([...finalStates, ...servicesClosed]));
  }

  async #syncNow(accountId: number): Promise<void> {
    const { ctx } = this;
    const channels = this.#channels;
    if (channels.closed) return;
    const account = await ctx.accounts.account(accountId);
    const stored = account ? await readChatSettings(ctx.db, accountId) : null;
    const existing = channels.byAccount.get(accountId);
    if (!account || !stored?.enabled) {
      this.#ownLines.delete(accountId);
      if (existing) {
        channels.setState(existing, "off");
        this.#remove(accountId);
      } else if (account && stored && stored.state !== "off")
        channels.store(accountId, "off", null, ctx.clock.now());
      return;
    }
    const problem = await consentProblem(ctx, accountId);
    if (channels.closed) return;
    if (problem) {
      if (existing) this.#remove(accountId);
      channels.store(accountId, "needs_consent", problem, ctx.clock.now());
      return;
    }
    const bot = await loadChatBot(ctx.db, ctx.secrets, accountId);
    if (channels.closed) return;
    const speaker: Speaker = bot
      ? { kind: "bot", userId: bot.twitchUserId }
      : { kind: "streamer", userId: account.twitchUserId };
    if (
      existing &&
      existing.speaker.userId === speaker.userId &&
      existing.connection &&
      existing.state !== "error"
    )
      return;
    if (existing) this.#remove(accountId);
    const sent = { ownLines: this.#ownLinesOf(accountId, speaker), claimMessage: this.#claimMessage };
    const channel = openChannel(ctx, this.#tokens, account, speaker, sent);
    channels.byAccount.set(accountId, channel);
    this.#readers.attach(channel);
  }

  /**
   * Every account again: one pass at a time, and one more if asked meanwhile (changes come in bursts,
   * and while the database is away every pass fails: one warning a minute says so).
   */
  async #syncAll(): Promise<void> {
    if (this.#passing) {
      this.#passAgain = true;
      return;
    }
    this.#passing = true;
    try {
      do {
        this.#passAgain = false;
        const ids = new Set([
          ...this.#channels.byAccount.keys(),
          ...(await listChatEnabledAccounts(this.ctx.db)),
        ]);
        for (const accountId of ids) void this.sync(accountId);
      } while (this.#passAgain && !this.#channels.closed);
    } catch (error) {
      if (performance.now() - this.#lastPassWarning >= 60_000) {
        this.#lastPassWarning = performance.now();
        this.ctx.log.warn("could not read which channels use chat", { error });
      }
    } finally {
      this.#passing = false;
    }
  }

  /** The account's lines sent as `speaker`: the same across reopens, new when the speaker changed. */
  #ownLinesOf(accountId: number, speaker: Speaker): OwnLines {
    const kept = this.#ownLines.get(accountId);
    if (kept?.speakerId === speaker.userId) return kept.lines;
    const lines = new OwnLines(() => this.ctx.clock.now());
    this.#ownLines.set(accountId, { speakerId: speaker.userId, lines });
    return lines;
  }

  #remove(accountId: number): void {
    const channel = this.#channels.byAccount.get(accountId);
    if (!channel) return;
    this.#readers.detach(channel);
    channel.queue.close();
    this.#tokens.forget(accountId);
    for (const service of this.#services) service.forget?.(accountId);
    this.#channels.byAccount.delete(accountId);
  }
}

/** A live chat runtime, connecting now; the caller closes it (startNativeChat, chat/leader.ts). */
export function startChatManager(ctx: ChatContext, options: ChatManagerOptions = {}): ChatRuntime {
  const manager = new ChatManager(ctx, options);
  manager.start();
  return manager;
}

/** Under `serve`, one instance alone: the context's chat answers live, and stops with the context. */
export function startNativeChat(ctx: ChatContext, options: ChatManagerOptions = {}): ChatRuntime {
  const runtime = startChatManager(ctx, options);
  ctx.chat.useLive(runtime);
  ctx.onClose(() => {
    ctx.chat.release(runtime);
    return runtime.close();
  });
  return runtime;
}
