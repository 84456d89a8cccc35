/**
 * Lines said in the simulated chat of cuebotdemo and the replies they get, for the chat-bot tests
 * (tests/server/custom/): a viewer's, a moderator's, and lines that must get none.
 */
import { expect } from "bun:test";
import { REPLIES } from "../../server/custom/changes.ts";
import type { SimBadge } from "../../server/sim/twitch/chat/chatters.ts";
import { type ChatHarness, startChatHarness, waitFor } from "./chat.ts";

export const badge = (set_id: string): SimBadge[] => [{ set_id, id: "1", info: "" }];
export const MODERATOR = badge("moderator");

/** A harness whose native chat is on and connected (a line said before that would not be delivered). */
export async function startConnectedChat(): Promise<ChatHarness> {
  const h = await startChatHarness();
  await h.startChat();
  await waitUntilReading(h);
  return h;
}

/** Waits until native chat is connected (12 s at most: a loaded CI's PostgreSQL pass is slow), else throws. */
export async function waitUntilReading(h: ChatHarness): Promise<void> {
  const status = () => h.ctx.chat.status(h.account.id);
  if (await waitFor(async () => (await status()).state === "connected", 12_000)) return;
  throw new Error(`native chat did not connect: ${JSON.stringify(await status())}`);
}

/** How long a line that must be answered may take (it returns at once when it is). */
export const REPLY_WAIT_MS = 10_000;

export interface ChatLines {
  /** Says a line in cuebotdemo's chat; the id of the message. */
  say(text: string, user?: string, badges?: SimBadge[]): string;
  /** The reply to a line, or null when none came within REPLY_WAIT_MS. */
  ask(text: string, user?: string, badges?: SimBadge[]): Promise<string | null>;
  /** A moderator's line (mod_mia) and its reply. */
  mod(text: string): Promise<string | null>;
  /**
   * Lines that must get no reply: a moderator's line said after them is answered first in order (one
   * queue, one dispatch per message), then none of them has a reply.
   */
  expectSilent(...ids: string[]): Promise<void>;
}

/** The lines of the harness `current()` returns (tests start a new one per test). */
export function chatLines(current: () => ChatHarness): ChatLines {
  const say = (text: string, user = "viewer_anna", badges: SimBadge[] = []) =>
    current().sim.chat.say({ channel: "cuebotdemo", user, text, badges });
  const ask = async (text: string, user = "viewer_anna", badges: SimBadge[] = []) =>
    (await current().replyTo(say(text, user, badges), REPLY_WAIT_MS))?.text ?? null;
  const mod = (text: string) => ask(text, "mod_mia", MODERATOR);
  return {
    say,
    ask,
    mod,
    async expectSilent(...ids) {
      expect(await mod("!commands")).toBe(REPLIES.list());
      await Bun.sleep(50);
      for (const id of ids) expect(await current().replyTo(id, 10)).toBeNull();
    },
  };
}
