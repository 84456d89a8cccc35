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

/** A harness whose native chat is on and connected. */
export async function startConnectedChat(): Promise<ChatHarness> {
  const h = await startChatHarness();
  await h.startChat();
  await waitFor(async () => (await h.ctx.chat.status(h.account.id)).state === "connected");
  return h;
}

export interface ChatLines {
  /** Says a line in cuebotdemo's chat; the id of the message. */
  say(text: string, user?: string, badges?: SimBadge[]): string;
  /** The reply to a line, or null when none came within 3 s. */
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
    (await current().replyTo(say(text, user, badges), 3000))?.text ?? null;
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
