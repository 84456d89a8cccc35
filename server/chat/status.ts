import { loadChatBot, readChatSettings } from "../../db/chat.ts";
import { grantedScopes } from "../../db/oauth-tokens.ts";
import type { ChatState } from "../../db/schema-enums.ts";
import type { CoreContext } from "../core/context.ts";
import { CHAT_BOT_SCOPES, READ_CHAT_SCOPE, WRITE_CHAT_SCOPE } from "../twitch/scopes.ts";

export type { ChatState };

/** What the dashboard shows of native chat (CONTRACT §6, `GET /api/dashboard/chat`). */
export interface ChatStatus {
  enabled: boolean;
  state: ChatState;
  /** When the state began (Unix ms), or null when unknown. */
  since: number | null;
  /** Why the state is `error` or `needs_consent`, in words for the streamer; null otherwise. */
  reason: string | null;
}

/**
 * The running server's chat connections. The panel and the login flows call `sync` after changing
 * what is stored (switch, tokens, bot account); one account's trouble never throws: it shows in the
 * state. Outside `serve` (the CLI) the runtime only reads what is stored.
 */
export interface ChatRuntime {
  /** The account's state: live when this server holds its connection, else derived from the store. */
  status(accountId: number): Promise<ChatStatus>;
  /**
   * Connects, reconnects or disconnects the account to match what is stored now; settles once it has
   * (it never rejects: trouble shows in the state and the log).
   */
  sync(accountId: number): Promise<void>;
  /** Accounts whose chat is connected on this server, with since when. */
  connected(): { accountId: number; since: number }[];
  /**
   * Ends every connection. The stored state becomes `end` ("off, cuebot is not running" unless given)
   * — or stays as it is when another instance takes chat over (`handOver`) and writes its own.
   */
  close(options?: { handOver?: boolean; end?: { state: ChatState; reason: string } }): Promise<void>;
}

type StoreContext = Pick<CoreContext, "db" | "secrets" | "accounts">;

/**
 * Whether the stored grants allow chat at all; a reason for the streamer when they do not. Reading
 * needs `user:read:chat` from whoever reads (the bot account when one is linked, else the streamer).
 */
export async function consentProblem(ctx: StoreContext, accountId: number): Promise<string | null> {
  const account = await ctx.accounts.account(accountId);
  if (!account) return "The account no longer exists.";
  if (account.needsReauth) return "Twitch ended cuebot's access to your account: log in again.";
  const bot = await loadChatBot(ctx.db, ctx.secrets, accountId);
  if (bot) {
    if (bot.needsReauth)
      return `Twitch ended cuebot's access to the bot account ${bot.login}: link it again.`;
    if (!CHAT_BOT_SCOPES.every((s) => bot.scopes.includes(s))) {
      return `The bot account ${bot.login} did not allow reading and sending chat: link it again.`;
    }
    return null;
  }
  const scopes = await grantedScopes(ctx.db, accountId);
  if (!scopes.includes(READ_CHAT_SCOPE)) return "cuebot needs your permission to read chat (user:read:chat).";
  if (!scopes.includes(WRITE_CHAT_SCOPE))
    return "cuebot needs your permission to send chat (user:write:chat).";
  return null;
}

/** The state as stored: what the CLI and a server without the connection report. */
export async function storedChatStatus(ctx: StoreContext, accountId: number): Promise<ChatStatus> {
  const stored = await readChatSettings(ctx.db, accountId);
  if (!stored?.enabled)
    return { enabled: false, state: "off", since: stored?.stateSince ?? null, reason: null };
  const problem = await consentProblem(ctx, accountId);
  if (problem) return { enabled: true, state: "needs_consent", since: stored.stateSince, reason: problem };
  return { enabled: true, state: stored.state, since: stored.stateSince, reason: stored.reason };
}

/**
 * The context's chat, made with the context and never replaced: it answers from the live runtime
 * this instance runs (chat/manager.ts under `serve`, handed over by chat/leader.ts while this
 * instance holds the chat lease), else from the store, connecting nothing (the CLI, a standby). It
 * cannot close chat: whoever started the live runtime closes it, then lets go of it here.
 */
export class ChatHandle implements Omit<ChatRuntime, "close"> {
  #live: ChatRuntime | null = null;

  constructor(private readonly store: StoreContext) {}

  /** From now on `live` answers (chat/manager.ts started it). */
  useLive(live: ChatRuntime): void {
    this.#live = live;
  }

  /**
   * The stored state answers again (`live` stopped or was handed over); a runtime started since by
   * another owner keeps answering.
   */
  release(live: ChatRuntime): void {
    if (this.#live === live) this.#live = null;
  }

  status(accountId: number): Promise<ChatStatus> {
    return this.#live ? this.#live.status(accountId) : storedChatStatus(this.store, accountId);
  }

  sync(accountId: number): Promise<void> {
    return this.#live ? this.#live.sync(accountId) : Promise.resolve();
  }

  connected(): { accountId: number; since: number }[] {
    return this.#live?.connected() ?? [];
  }
}
