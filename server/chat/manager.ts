import type { Account } from "../../db/accounts.ts";
import {
  listChatEnabledAccounts,
  loadChatBot,
  markChatBotNeedsReauth,
  readChatSettings,
  storeChatBot,
  writeChatState,
} from "../../db/chat.ts";
import { REPLY_DROPPED } from "../../db/events.ts";
import { loadProviderTokens } from "../../db/oauth-tokens.ts";
import { COMMAND_NAMES } from "../bot/catalog.ts";
import { executeCommand } from "../bot/commands.ts";
import { RunNotAdmitted } from "../bot/runner.ts";
import { commandSettings } from "../bot/settings.ts";
import { ApiError } from "../core/errors.ts";
import { IdentityProviderError } from "../identity/idp-client.ts";
import { ReauthRequiredError, refreshUserToken } from "../identity/provider-tokens.ts";
import type { Context } from "../runtime.ts";
import { HelixError } from "../twitch/helix-client.ts";
import { chatBudgetsAdmit } from "./budgets.ts";
import { commandInputFromChat, MODERATOR_BADGES } from "./chat-command-input.ts";
import { SeenMessages } from "./dedupe.ts";
import { EventSubConnection, StopConnection } from "./eventsub-connection.ts";
import type { ChatMessageEvent, EventSubFrame } from "./eventsub-message.ts";
import {
  type ChatRuntime,
  type ChatState,
  type ChatStatus,
  consentProblem,
  storedChatStatus,
} from "./runtime.ts";
import { ChannelSendQueue, type QueuedReply } from "./send-queue.ts";
import { isForUs, matchCommand, triggerTable } from "./triggers.ts";

/**
 * Native chat under `serve`: for every account that turned it on, read its channel's chat over
 * EventSub and answer `!commands` with the same service code as the bot endpoints (CONTRACT §6).
 * One WebSocket per reading Twitch user (a bot account shared by several channels reads them all on
 * one socket, up to Twitch's 300 subscriptions per socket). Tokens are refreshed before they expire;
 * a grant that is gone shows as `needs_consent` and nothing retries until the streamer acts.
 */

/** Refresh a token this long before it expires, so the subscribe window is never spent on it. */
const REFRESH_AHEAD_MS = 5 * 60_000;
/** Badges that let cuebot's own account send at the privileged pace (lead moderators included). */
const PRIVILEGED_BADGES: readonly string[] = ["broadcaster", ...MODERATOR_BADGES, "vip"];

/** Errors that are not the chatter's business (refusals by limits): nothing is said in chat. */
const SILENT_CODES = new Set(["on_cooldown", "command_disabled", "rate_limited", "quota_exceeded"]);

export interface ChatManagerOptions {
  /** One protocol "second" in ms (tests shorten it along with the simulator's). */
  secondMs?: number;
  /** Several instances: true when this instance may answer the message (it claimed its id first). */
  claimMessage?: (messageId: string) => Promise<boolean>;
}

/** Who reads and speaks for a channel: the streamer, or the linked bot account. */
interface Speaker {
  kind: "streamer" | "bot";
  userId: string;
}

interface Channel {
  accountId: number;
  broadcasterId: string;
  speaker: Speaker;
  state: ChatState;
  since: number;
  reason: string | null;
  queue: ChannelSendQueue;
  connection: Reader | null;
}

interface Reader {
  userId: string;
  connection: EventSubConnection;
  channels: Set<number>;
  seen: SeenMessages;
}

class AuthGone extends Error {}

export function startChatManager(ctx: Context, options: ChatManagerOptions = {}): ChatRuntime {
  const now = () => ctx.clock.now();
  const channels = new Map<number, Channel>();
  const readers = new Map<string, Reader>();
  const helix = ctx.helixApi;
  let closed = false;
  /** Stored states are written in the order they happened, one after another. */
  let stateWrites: Promise<void> = Promise.resolve();
  /** Syncs run one at a time, so two for one account never make two channels. */
  let syncs: Promise<void> = Promise.resolve();

  function storeState(accountId: number, state: ChatState, reason: string | null, at: number): void {
    stateWrites = stateWrites
      .then(() => writeChatState(ctx.db, accountId, state, reason, at))
      .catch((error: unknown) => ctx.log.warn("could not store the chat state", { error }));
  }

  function setState(channel: Channel, state: ChatState, reason: string | null = null): void {
    // A closed runtime reports nothing more: another instance may hold chat now and write its own.
    if (closed) return;
    if (channel.state === state && channel.reason === reason) return;
    channel.state = state;
    channel.reason = reason;
    channel.since = now();
    storeState(channel.accountId, state, reason, channel.since);
    ctx.log.info("chat state changed", {
      accountId: channel.accountId,
      state,
      ...(reason ? { reason } : {}),
    });
  }

  // ------------------------------------------------------------------------------------ tokens

  /** The speaker's access token, refreshed first when it expires soon (or when `force`). */
  async function tokenFor(channel: Channel, force = false): Promise<string> {
    const account = await ctx.accounts.account(channel.accountId);
    if (!account || account.needsReauth)
      throw new AuthGone("Twitch ended cuebot's access to your account: log in again.");
    if (channel.speaker.kind === "streamer") {
      const stored = await loadProviderTokens(ctx.db, ctx.secrets, account.id);
      if (!stored) throw new AuthGone("No Twitch token is stored for this account: log in again.");
      if (!force && stored.expiresAt - now() > REFRESH_AHEAD_MS) return stored.accessToken;
      try {
        return await refreshUserToken(ctx, account);
      } catch (error) {
        if (error instanceof ReauthRequiredError)
          throw new AuthGone("Twitch ended cuebot's access to your account: log in again.");
        throw error;
      }
    }
    const bot = await loadChatBot(ctx.db, ctx.secrets, account.id);
    if (!bot || bot.needsReauth) throw new AuthGone("The bot account must be linked again.");
    if (!force && bot.expiresAt - now() > REFRESH_AHEAD_MS) return bot.accessToken;
    const idp = ctx.identityProvider;
    if (!idp) throw new AuthGone("Twitch login is not configured on this server.");
    try {
      const fresh = await idp.refresh(bot.refreshToken);
      await storeChatBot(
        ctx.db,
        ctx.secrets,
        account.id,
        {
          ...bot,
          accessToken: fresh.accessToken,
          refreshToken: fresh.refreshToken,
          scopes: fresh.scopes,
          expiresAt: now() + fresh.expiresIn * 1000,
        },
        now(),
      );
      return fresh.accessToken;
    } catch (error) {
      if (error instanceof IdentityProviderError && error.kind === "rejected") {
        await markChatBotNeedsReauth(ctx.db, account.id, now());
        throw new AuthGone(`Twitch ended cuebot's access to the bot account ${bot.login}: link it again.`);
      }
      throw error;
    }
  }

  /** A Helix call with the speaker's token; a 401 refreshes once and retries. */
  async function withToken<T>(channel: Channel, call: (token: string) => Promise<T>): Promise<T> {
    try {
      return await call(await tokenFor(channel));
    } catch (error) {
      if (!(error instanceof HelixError) || error.status !== 401) throw error;
      return call(await tokenFor(channel, true));
    }
  }

  // ------------------------------------------------------------------------------ subscribing

  async function subscribe(channel: Channel, sessionId: string): Promise<void> {
    if (!helix) throw new AuthGone("Twitch is not configured on this server.");
    try {
      await withToken(channel, (token) =>
        helix.subscribeChat(token, sessionId, {
          broadcasterId: channel.broadcasterId,
          userId: channel.speaker.userId,
        }),
      );
      setState(channel, "connected");
    } catch (error) {
      if (error instanceof HelixError && error.status === 409) {
        setState(channel, "connected");
        return;
      }
      if (error instanceof AuthGone) {
        setState(channel, "needs_consent", error.message);
        detach(channel);
        return;
      }
      if (error instanceof HelixError && (error.status === 401 || error.status === 403)) {
        setState(
          channel,
          "needs_consent",
          "Twitch refused reading this chat: allow cuebot to read chat again (or the reading account is banned there).",
        );
        detach(channel);
        return;
      }
      throw error;
    }
  }

  function readerFor(userId: string): Reader {
    const existing = readers.get(userId);
    if (existing) return existing;
    const reader: Reader = {
      userId,
      channels: new Set(),
      seen: new SeenMessages(now),
      connection: new EventSubConnection({
        url: ctx.config.twitch.eventsubUrl,
        secondMs: options.secondMs,
        log: ctx.log,
        handlers: {
          async onWelcome(sessionId) {
            const list = [...reader.channels]
              .map((id) => channels.get(id))
              .filter((c): c is Channel => c !== undefined);
            const results = await Promise.allSettled(list.map((c) => subscribe(c, sessionId)));
            const failed = results.find((r) => r.status === "rejected");
            if (reader.channels.size === 0)
              throw new StopConnection("no channel left to read on this connection");
            if (failed) throw (failed as PromiseRejectedResult).reason;
          },
          onFrame: (frame) => onFrame(reader, frame),
          onDown(reason, willRetry) {
            for (const id of reader.channels) {
              const channel = channels.get(id);
              if (channel && channel.state !== "needs_consent")
                setState(channel, willRetry ? "connecting" : "error", willRetry ? null : reason);
            }
            if (!willRetry) readers.delete(userId);
          },
        },
      }),
    };
    readers.set(userId, reader);
    return reader;
  }

  function attach(channel: Channel): void {
    const reader = readerFor(channel.speaker.userId);
    reader.channels.add(channel.accountId);
    channel.connection = reader;
    setState(channel, "connecting");
    const sessionId = reader.connection.sessionId;
    if (sessionId) {
      subscribe(channel, sessionId).catch((error: unknown) => {
        setState(channel, "error", `Subscribing to chat failed: ${(error as Error).message}`);
      });
    } else reader.connection.start();
  }

  function detach(channel: Channel): void {
    const reader = channel.connection;
    channel.connection = null;
    if (!reader) return;
    reader.channels.delete(channel.accountId);
    if (reader.channels.size === 0) {
      reader.connection.stop();
      readers.delete(reader.userId);
    }
  }

  function remove(accountId: number): void {
    const channel = channels.get(accountId);
    if (!channel) return;
    detach(channel);
    channel.queue.close();
    channels.delete(accountId);
  }

  // -------------------------------------------------------------------------------- dispatch

  function onFrame(
    reader: Reader,
    frame: Extract<EventSubFrame, { type: "notification" | "revocation" }>,
  ): void {
    if (frame.type === "revocation") {
      for (const id of reader.channels) {
        const channel = channels.get(id);
        if (channel && (frame.broadcasterId === "" || frame.broadcasterId === channel.broadcasterId)) {
          setState(
            channel,
            "needs_consent",
            `Twitch revoked cuebot's chat subscription (${frame.status}): allow it again.`,
          );
          detach(channel);
        }
      }
      return;
    }
    const event = frame.event;
    if (!event || !reader.seen.admit(frame.id, frame.at)) return;
    const channel = [...reader.channels]
      .map((id) => channels.get(id))
      .find((c) => c?.broadcasterId === event.broadcasterId);
    if (!channel) return;
    if (event.chatterId === channel.speaker.userId) {
      // Our own line, echoed: its badges tell whether we may send at the privileged pace.
      channel.queue.privileged = PRIVILEGED_BADGES.some((b) => event.badges.includes(b));
      return;
    }
    if (!isForUs(event, channel.speaker.userId)) return;
    void answer(channel, event).catch((error: unknown) => ctx.log.warn("a chat command failed", { error }));
  }

  async function answer(channel: Channel, event: ChatMessageEvent): Promise<void> {
    const account = await ctx.accounts.account(channel.accountId);
    if (!account) return;
    const triggers = triggerTable(
      await Promise.all(COMMAND_NAMES.map((command) => commandSettings(ctx, account.id, command))),
    );
    const call = matchCommand(event, triggers);
    if (!call) return;
    // Claimed by another instance: answered there. A claim that cannot be made (Redis away) is no
    // answer either: the quota could not be checked, as an HTTP request would be refused 503.
    if (options.claimMessage && !(await options.claimMessage(event.messageId).catch(() => false))) return;
    const reply = await run(account, call.command, call.args, event);
    if (reply)
      channel.queue.push({
        text: reply,
        replyTo: event.messageId,
        command: call.command,
        caller: event.chatterLogin,
      });
  }

  async function run(
    account: Account,
    command: (typeof COMMAND_NAMES)[number],
    args: string[],
    event: ChatMessageEvent,
  ): Promise<string | null> {
    // Chat's own budgets (per chatter, per channel), apart from the API key's quota, asked once the
    // command is enabled and its cooldown claimed: only a line that gets a reply is counted.
    const admit = () => chatBudgetsAdmit(ctx.limits, account, event);
    try {
      const input = commandInputFromChat(command, args, event);
      const result = await executeCommand(ctx, account, command, input, { admit });
      return result.data.text;
    } catch (error) {
      // Past a budget, nothing is sent.
      if (error instanceof RunNotAdmitted) return null;
      if (error instanceof ApiError)
        return SILENT_CODES.has(error.code) || error.status === 429 ? null : error.message;
      throw error;
    }
  }

  function newChannel(account: Account, speaker: Speaker): Channel {
    const channel: Channel = {
      accountId: account.id,
      broadcasterId: account.twitchUserId,
      speaker,
      state: "off",
      since: now(),
      reason: null,
      connection: null,
      queue: new ChannelSendQueue({
        now,
        async send(text, replyTo) {
          if (!helix) throw new HelixError(null, "Twitch is not configured on this server.");
          const result = await withToken(channel, (token) =>
            helix.sendChatMessage(token, {
              broadcasterId: channel.broadcasterId,
              senderId: channel.speaker.userId,
              text,
              replyParentMessageId: replyTo,
            }),
          );
          return { isSent: result.is_sent, dropReason: result.drop_reason };
        },
        onDropped(reply: QueuedReply, code: string, message: string) {
          ctx.log.info("a chat reply was not delivered", { accountId: account.id, code, message });
          ctx.events.record({
            accountId: account.id,
            at: now(),
            command: reply.command,
            caller: reply.caller.slice(0, 50),
            outcome: `${REPLY_DROPPED}:${code}`,
            latencyMs: 0,
          });
        },
      }),
    };
    // The streamer speaks in their own channel: always privileged.
    channel.queue.privileged = speaker.kind === "streamer";
    return channel;
  }

  // ------------------------------------------------------------------------------- runtime

  function sync(accountId: number): Promise<void> {
    syncs = syncs
      .then(() => syncNow(accountId))
      .catch((error: unknown) =>
        ctx.log.warn("could not bring chat in line with its settings", { accountId, error }),
      );
    return syncs;
  }

  async function syncNow(accountId: number): Promise<void> {
    if (closed) return;
    const account = await ctx.accounts.account(accountId);
    const stored = account ? await readChatSettings(ctx.db, accountId) : null;
    const existing = channels.get(accountId);
    if (!account || !stored?.enabled) {
      if (existing) {
        setState(existing, "off");
        remove(accountId);
      } else if (account && stored && stored.state !== "off") storeState(accountId, "off", null, now());
      return;
    }
    const problem = await consentProblem(ctx, accountId);
    if (closed) return;
    if (problem) {
      if (existing) remove(accountId);
      storeState(accountId, "needs_consent", problem, now());
      return;
    }
    const bot = await loadChatBot(ctx.db, ctx.secrets, accountId);
    if (closed) return;
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
    if (existing) remove(accountId);
    const channel = newChannel(account, speaker);
    channels.set(accountId, channel);
    attach(channel);
  }

  // Every account again: one pass at a time, and one more if asked meanwhile (changes come in bursts,
  // and while the database is away every pass fails: one warning a minute says so).
  let passing = false;
  let passAgain = false;
  let lastPassWarning = Number.NEGATIVE_INFINITY;
  const syncAll = async (): Promise<void> => {
    if (passing) {
      passAgain = true;
      return;
    }
    passing = true;
    try {
      do {
        passAgain = false;
        const ids = new Set([...channels.keys(), ...(await listChatEnabledAccounts(ctx.db))]);
        for (const accountId of ids) void sync(accountId);
      } while (passAgain && !closed);
    } catch (error) {
      if (performance.now() - lastPassWarning >= 60_000) {
        lastPassWarning = performance.now();
        ctx.log.warn("could not read which channels use chat", { error });
      }
    } finally {
      passing = false;
    }
  };
  void syncAll();
  // The CLI (or another process) may have deleted an account, rotated tokens or switched chat: re-check.
  const unsubscribe = ctx.externalChanges.subscribe(() => void syncAll());

  return {
    async status(accountId): Promise<ChatStatus> {
      const channel = channels.get(accountId);
      if (!channel) return storedChatStatus(ctx, accountId);
      return { enabled: true, state: channel.state, since: channel.since, reason: channel.reason };
    },
    sync,
    connected() {
      return [...channels.values()]
        .filter((c) => c.state === "connected")
        .map((c) => ({ accountId: c.accountId, since: c.since }));
    },
    async close(options = {}) {
      if (closed) return;
      closed = true;
      unsubscribe();
      // What is under way finishes first, within the same few seconds.
      await settledWithin(CLOSE_WAIT_MS, Promise.all([syncs, stateWrites]));
      const end = options.end ?? { state: "off", reason: "cuebot is not running" };
      const finalStates: Promise<unknown>[] = [];
      for (const channel of [...channels.values()]) {
        remove(channel.accountId);
        if (!options.handOver)
          finalStates.push(writeChatState(ctx.db, channel.accountId, end.state, end.reason, now()));
      }
      // All at once, and not for longer than a few seconds: a database that does not answer must not
      // hold the shutdown (the states then say what they said; the next start writes them again).
      await settledWithin(CLOSE_WAIT_MS, Promise.allSettled(finalStates));
    },
  };
}

/** Longest wait at shutdown for chat's last writes. */
const CLOSE_WAIT_MS = 5_000;

/** Waits for `work` to settle, or `ms`, whichever comes first; never rejects. */
async function settledWithin(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

/** Under `serve`, one instance alone: the context's chat answers live, and stops with the context. */
export function startNativeChat(ctx: Context, options: ChatManagerOptions = {}): ChatRuntime {
  const runtime = startChatManager(ctx, options);
  ctx.chat.useLive(runtime);
  ctx.onClose(() => runtime.close());
  return runtime;
}
