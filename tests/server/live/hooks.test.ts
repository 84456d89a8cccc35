/**
 * Features meet on the live layer's hooks (server/live/hooks.ts): the hook itself, the chat-line
 * stages in their explicit order, and through the Twitch simulator what a stage bound ahead of the
 * commands (the next issue's moderation) and the domain events see.
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  CHAT_STAGE_ORDER,
  type ChatLineStage,
  ChatLineStages,
  type CommandAnswered,
  Hook,
} from "../../../server/live/hooks.ts";
import { type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";

const stage = (name: string, order: number): ChatLineStage => ({ name, order, take: () => null });

describe("hooks", () => {
  test("handlers run in the order bound; unbinding one leaves the others; collect gathers answers", () => {
    const hook = new Hook<number, string, string>();
    const seen: string[] = [];
    expect(hook.bound).toBe(false);
    const unbindA = hook.bind((n, s) => {
      seen.push(`a${n}${s}`);
      return "A";
    });
    hook.bind((n, s) => {
      seen.push(`b${n}${s}`);
      return "B";
    });
    hook.emit(1, "x");
    expect(hook.collect(2, "y")).toEqual(["A", "B"]);
    unbindA();
    hook.emit(3, "z");
    expect(seen).toEqual(["a1x", "b1x", "a2y", "b2y", "b3z"]);
  });

  test("stages run by their order, whatever order they were added in; chat's built-ins among them", () => {
    const stages = new ChatLineStages();
    const builtIns = stage("built-ins", CHAT_STAGE_ORDER.builtIns);
    stages.add(stage("custom", CHAT_STAGE_ORDER.custom));
    const removeModeration = stages.add(stage("moderation", CHAT_STAGE_ORDER.moderation));
    expect(stages.with(builtIns).map((s) => s.name)).toEqual(["moderation", "built-ins", "custom"]);
    // The same array until a stage changes (nothing is built per chat line).
    expect(stages.with(builtIns)).toBe(stages.with(builtIns));
    removeModeration();
    expect(stages.with(builtIns).map((s) => s.name)).toEqual(["built-ins", "custom"]);
  });
});

describe("hooks in native chat", () => {
  let h: ChatHarness;
  afterEach(async () => {
    await h.stop();
  });

  test("a stage bound ahead of the commands takes a line first; unbound, the command answers again", async () => {
    h = await startChatHarness();
    await h.startChat();
    expect(await waitFor(async () => (await h.ctx.chat.status(h.account.id)).state === "connected")).toBe(
      true,
    );
    const remove = h.ctx.live.chatStages.add({
      name: "test moderation",
      order: CHAT_STAGE_ORDER.moderation,
      take: (line) =>
        /spam/i.test(line.event.text)
          ? { command: "moderation", run: async () => `@${line.event.chatterLogin} no spam here` }
          : null,
    });
    const spam = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!magic8 SPAM spam" });
    expect((await h.replyTo(spam))?.text).toBe("@viewer_anna no spam here");
    remove();
    const asked = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!magic8 spam?" });
    expect((await h.replyTo(asked))?.text).not.toContain("no spam here");
  });

  test("every chatter's line and every command answered are told to the hooks", async () => {
    h = await startChatHarness();
    const lines: string[] = [];
    const answered: CommandAnswered[] = [];
    h.ctx.live.hooks.chatLine.bind((_accountId, event) => lines.push(event.text));
    h.ctx.live.hooks.commandAnswered.bind((event) => answered.push(event));
    await h.startChat();
    expect(await waitFor(async () => (await h.ctx.chat.status(h.account.id)).state === "connected")).toBe(
      true,
    );
    h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "hello there" });
    const id = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" });
    const reply = await h.replyTo(id);
    expect(await waitFor(() => answered.length === 1)).toBe(true);
    expect(lines).toEqual(["hello there", "!coinflip"]);
    expect(answered).toEqual([
      { accountId: h.account.id, command: "coinflip", caller: "viewer_anna", reply: reply!.text },
    ]);
  });
});
