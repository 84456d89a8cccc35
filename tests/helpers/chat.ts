import type { Account } from "../../db/accounts.ts";
import { writeChatEnabled } from "../../db/chat.ts";
import type { ChatRuntime } from "../../server/chat/status.ts";
import { systemClock } from "../../server/core/clock.ts";
import type { Config } from "../../server/core/config.ts";
import { createLogger } from "../../server/core/log.ts";
import { saveProviderTokens } from "../../server/identity/provider-tokens.ts";
import { startLive } from "../../server/live-runtime.ts";
import { type Context, openContext } from "../../server/runtime.ts";
import type { SimSendAttempt } from "../../server/sim/twitch/chat/state.ts";
import { startTwitchSimulator, type TwitchSimulator } from "../../server/sim/twitch/server.ts";
import { SIM_IDS, seedWorld } from "../../server/sim/twitch/world.ts";
import { BASE_SCOPES, READ_CHAT_SCOPE } from "../../server/twitch/scopes.ts";
import { createTestAccount, createTestContext, type TestContext } from "./context.ts";

/** One protocol second in chat tests: a 10 s keepalive lasts 200 ms. */
export const CHAT_SECOND_MS = 20;

export interface ChatHarness extends TestContext {
  sim: TwitchSimulator;
  account: Account;
  apiKey: string;
  /**
   * Starts the live runtime (as `serve` does) with native chat on for cuebotdemo, its token granted
   * `scopes` and expiring in `expiresIn` seconds (4 h unless given; 0: already due for a refresh).
   */
  startChat(options?: { scopes?: string[]; expiresIn?: number }): Promise<ChatRuntime>;
  /** The reply cuebot sent to a chat message, once it arrives (or null after `ms`). */
  replyTo(messageId: string, ms?: number): Promise<SimSendAttempt | null>;
  stop(): Promise<void>;
}

/** Polls `check` until it returns something truthy, or gives up after `ms`. */
export async function waitFor<T>(
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  ms = 5000,
): Promise<T | null> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) return null;
    await Bun.sleep(5);
  }
}

/**
 * How many chat lines of the harness's channel the live layer has read since now (its chatLine hook):
 * a flood's lines all read, before what comes after it is timed.
 */
export function countChatLines(h: ChatHarness): () => number {
  let heard = 0;
  h.ctx.live.hooks.chatLine.bind((accountId) => {
    if (accountId === h.account.id) heard++;
  });
  return () => heard;
}

/** cuebotdemo's account wired to a Twitch simulator (Helix, IdP and EventSub) on loopback, real clock. */
export async function startChatHarness(
  options: { configure?: (config: Config) => void } = {},
): Promise<ChatHarness> {
  const sim = startTwitchSimulator({ world: seedWorld(Date.now()), eventsubSecondMs: CHAT_SECOND_MS });
  const t = await createTestContext({
    clock: systemClock,
    configure: (config) => {
      options.configure?.(config);
      config.twitch.authUrl = sim.authUrl;
      config.twitch.apiUrl = sim.helixUrl;
      config.twitch.eventsubUrl = sim.eventsubUrl;
      config.twitch.clientId = sim.client.id;
      config.twitch.clientSecret = sim.client.secret;
    },
  });
  const { account, apiKey } = await createTestAccount(t.ctx, {
    twitchUserId: SIM_IDS.demo,
    login: "cuebotdemo",
    displayName: "CuebotDemo",
  });
  let runtime: ChatRuntime | null = null;
  return {
    ...t,
    sim,
    account,
    apiKey,
    async startChat(options = {}) {
      const scopes = options.scopes ?? [...BASE_SCOPES, READ_CHAT_SCOPE];
      const issued = sim.issueUserToken("cuebotdemo", scopes);
      const expiresIn = options.expiresIn ?? 14_400;
      await saveProviderTokens(t.ctx, account.id, { ...issued, scopes, expiresIn });
      await writeChatEnabled(t.ctx.db, account.id, true, Date.now());
      runtime = startLive(t.ctx, { secondMs: CHAT_SECOND_MS });
      return runtime;
    },
    replyTo: (messageId, ms = 5000) => waitFor(() => answerTo(sim.chat.sent(), messageId), ms),
    async stop() {
      await runtime?.close();
      await t.cleanup();
      await sim.stop();
    },
  };
}

/**
 * cuebot's answer to a message: its reply, or, when Twitch refused the reply because the message was
 * removed meanwhile (the command timed its chatter out, as a roulette loser is), the line sent in its
 * place right after.
 */
function answerTo(sent: SimSendAttempt[], messageId: string): SimSendAttempt | undefined {
  const reply = sent.find((s) => s.replyParentMessageId === messageId && s.isSent);
  if (reply) return reply;
  const refused = sent.findIndex((s) => s.replyParentMessageId === messageId && s.status === 400);
  const instead = refused >= 0 ? sent[refused + 1] : undefined;
  return instead?.replyParentMessageId === null && instead.isSent ? instead : undefined;
}

/**
 * Another server on the harness's data (its data folder, or its PostgreSQL database) with native chat
 * started as `serve` starts it: a restart, once the harness's own context is closed. Closing it is
 * the caller's (`ctx.close()`), before `stop()`.
 */
export async function startServerOnSameData(h: ChatHarness): Promise<Context> {
  const log = createLogger({ level: "error", format: "json", write: () => {} });
  const ctx = await openContext(h.ctx.config, { log });
  startLive(ctx, { secondMs: CHAT_SECOND_MS });
  return ctx;
}
