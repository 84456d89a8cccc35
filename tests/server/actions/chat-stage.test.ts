import { describe, expect, test } from "bun:test";
import type { Account } from "../../../db/accounts.ts";
import type { AccountActions } from "../../../server/actions/book.ts";
import { actionsChatStage } from "../../../server/actions/chat-stage.ts";
import type { Action, RunCause } from "../../../server/actions/model.ts";
import type { ChatMessageEvent } from "../../../server/live/eventsub-message.ts";
import { type ChatAnswer, NO_REPLY } from "../../../server/live/hooks.ts";
import type { UserLevel } from "../../../server/vocabulary.ts";

const action = (command: string, level: UserLevel): Action => ({
  id: 1,
  name: command,
  enabled: true,
  cooldownSeconds: 0,
  trigger: { type: "command", command, level },
  steps: [],
  lastRun: null,
});

function stage(actions: Action[], options: { regulars?: string[]; busy?: boolean } = {}) {
  const started: RunCause[] = [];
  const commands = new Map(actions.map((a) => [(a.trigger as { command: string }).command, a]));
  const book: AccountActions = { commands, alerts: [], streams: [] };
  const s = actionsChatStage({
    book: { actions: async () => book },
    regulars: () => new Set(options.regulars ?? []),
    start: (_accountId, _action, cause) => {
      if (options.busy) return false;
      started.push(cause);
      return true;
    },
  });
  const line = async (text: string, chatter: Partial<ChatMessageEvent> = {}) => {
    const event: ChatMessageEvent = {
      broadcasterId: "100",
      broadcasterLogin: "streamer",
      chatterId: "200",
      chatterLogin: "viewer",
      chatterName: "Viewer",
      messageId: crypto.randomUUID(),
      text,
      badges: [],
      replyParentLogin: null,
      sourceBroadcasterId: null,
      emotes: [],
      ...chatter,
    };
    const account = { id: 1 } as Account;
    return (await s.take({
      account,
      event,
      builtIns: new Set(),
      runBuiltIn: () => null,
    })) as ChatAnswer | null;
  };
  return { line, started };
}

describe("actions' command stage", () => {
  test("!name from a moderator starts the run with the command's words as {message}", async () => {
    const { line, started } = stage([action("brb", "moderator")]);
    const answer = await line("!BRB  back in 5 ", { badges: ["moderator"], chatterName: "Mod_Mia" });
    expect(answer?.command).toBe("brb");
    expect(await answer?.run()).toEqual({ reply: null, outcome: "ok", refused: null });
    expect(started).toEqual([
      { trigger: "command", user: "Mod_Mia", amount: null, reward: null, message: "back in 5" },
    ]);
  });

  test("below the level: nothing runs and nothing is said (a refusal by user level)", async () => {
    const { line, started } = stage([action("brb", "moderator")]);
    for (const badges of [[], ["vip"], ["subscriber"]]) {
      const answer = await line("!brb", { badges });
      expect(await answer?.run()).toBe(NO_REPLY.user_level);
    }
    expect(started).toEqual([]);
  });

  test("a regular reaches a subscriber's or regular's command; the broadcaster everything", async () => {
    const { line, started } = stage([action("hype", "subscriber"), action("reg", "regular")], {
      regulars: ["200"],
    });
    expect(await (await line("!hype"))?.run()).toMatchObject({ outcome: "ok" });
    expect(await (await line("!reg"))?.run()).toMatchObject({ outcome: "ok" });
    const owner = await line("!reg", { chatterId: "100", badges: ["broadcaster"] });
    expect(await owner?.run()).toMatchObject({ outcome: "ok" });
    expect(started).toHaveLength(3);
  });

  test("during a run or its cooldown: nothing is said (a refusal by cooldown)", async () => {
    const { line } = stage([action("brb", "everyone")], { busy: true });
    expect(await (await line("!brb"))?.run()).toBe(NO_REPLY.cooldown);
  });

  test("a reply's @parent is skipped; other lines and look-alike names are not taken", async () => {
    const { line } = stage([action("kick", "everyone")]);
    expect((await line("@bob !kick", { replyParentLogin: "bob" }))?.command).toBe("kick");
    for (const text of ["kick", "hello !kick", "!kicks", "!\u212Aick", "!", "! kick", "!kick\u200b"])
      expect(await line(text)).toBeNull();
  });
});
