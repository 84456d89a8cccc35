/**
 * A channel's sends and what they leave behind (chat/sending.ts): a line Twitch certainly refused is
 * not remembered as ours (the streamer's same line afterwards is answered), one that may have posted
 * is remembered once however often it is retried, and a line sent is claimed, so no other instance
 * answers its echo.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { Account } from "../../../db/accounts.ts";
import type { Channel } from "../../../server/chat/channels.ts";
import { OwnLines } from "../../../server/chat/own-lines.ts";
import { openChannel, type SentLines } from "../../../server/chat/sending.ts";
import type { SpeakerTokens } from "../../../server/live/speaker-tokens.ts";
import type { Context } from "../../../server/runtime.ts";
import type { ChatSendResult, HelixApi } from "../../../server/twitch/helix-api.ts";
import { HelixError } from "../../../server/twitch/helix-client.ts";
import { waitFor } from "../../helpers/chat.ts";
import { createTestAccount, createTestContext, type TestContext } from "../../helpers/context.ts";
import { INVISIBLE_LEADS } from "../../helpers/troll-texts.ts";

let t: TestContext | undefined;
let channel: Channel | undefined;
afterEach(async () => {
  channel?.queue.close();
  await t?.cleanup();
  t = channel = undefined;
});

/** Every token is good: the test is about what Helix answers. */
const tokens = { withToken: (_channel: Channel, call: (token: string) => unknown) => call("token") };

type Answer = () => Promise<ChatSendResult>;

/** A channel whose Send Chat Message answers with `answers` in turn (the last one repeated). */
async function channelAnswering(answers: Answer[], sent: Partial<SentLines> = {}) {
  t = await createTestContext();
  const account: Account = (await createTestAccount(t.ctx)).account;
  let calls = 0;
  const texts: string[] = [];
  const helixApi = {
    sendChatMessage: (_token: string, message: { text: string }) => {
      texts.push(message.text);
      return (answers[Math.min(calls++, answers.length - 1)] as Answer)();
    },
  } as unknown as HelixApi;
  const outcomes: string[] = [];
  const events = { record: (event: { outcome: string }) => outcomes.push(event.outcome) };
  const ctx = Object.create(t.ctx, { helixApi: { value: helixApi }, events: { value: events } }) as Context;
  const ownLines = sent.ownLines ?? new OwnLines(() => Date.now());
  const speaker = { kind: "streamer" as const, userId: account.twitchUserId };
  channel = openChannel(ctx, tokens as unknown as SpeakerTokens, account, speaker, { ...sent, ownLines });
  channel.queue.privileged = true;
  return { channel, ownLines: channel.ownLines, calls: () => calls, texts, outcomes };
}

const reply = (text: string) => ({ text, replyTo: "m0", command: "custom", caller: "viewer_anna" });
const echo = (messageId: string, text: string) => ({ messageId, text, replyParentLogin: null });
const refuse = (status: number) => async (): Promise<ChatSendResult> => {
  throw new HelixError(status, `Helix answered ${status}`, status === 429 ? Date.now() : null);
};
const posted = (id: string) => async () => ({ message_id: id, is_sent: true, drop_reason: null });

describe("what a failed send leaves remembered", () => {
  for (const status of [400, 403, 429]) {
    test(`a send refused ${status} is not ours: the streamer's same line afterwards is theirs`, async () => {
      const { channel, ownLines, calls } = await channelAnswering([refuse(status)]);
      channel.queue.push(reply("lurk mode on"));
      // A 429 is retried once; the others fail at once.
      expect(await waitFor(() => calls() === (status === 429 ? 2 : 1) && channel.queue.size === 0)).toBe(
        true,
      );
      await Bun.sleep(20);
      expect(await ownLines.isOwn(echo("s1", "lurk mode on"))).toBe(false);
    });
  }

  test("a send that failed 503 and then posted on its retry is one line, known by its id", async () => {
    const { channel, ownLines, calls } = await channelAnswering([refuse(503), posted("c1")]);
    channel.queue.push(reply("lurk mode on"));
    expect(await waitFor(() => calls() === 2)).toBe(true);
    await Bun.sleep(20);
    // Not a second, text-only entry left by the first attempt: the streamer's !lurk is theirs.
    expect(await ownLines.isOwn(echo("s1", "lurk mode on"))).toBe(false);
    expect(await ownLines.isOwn(echo("c1", "lurk mode on"))).toBe(true);
  });

  test("a send that timed out, twice, may have posted: its text stays ours, once", async () => {
    const timeout = async (): Promise<ChatSendResult> => {
      throw new HelixError(null, "Helix did not answer in time");
    };
    const { channel, ownLines, calls } = await channelAnswering([timeout]);
    channel.queue.push(reply("lurk mode on"));
    // Retried once, as a 5xx is: two attempts that may both have posted, one line remembered.
    expect(await waitFor(() => calls() === 2)).toBe(true);
    await Bun.sleep(20);
    expect(await ownLines.isOwn(echo("c1", "lurk mode on"))).toBe(true);
    expect(await ownLines.isOwn(echo("s1", "lurk mode on"))).toBe(false);
  });
});

describe("the echo of a line sent is claimed for this instance", () => {
  test("a posted line's message id is claimed; a dropped one's is not", async () => {
    const claimed: string[] = [];
    const claimMessage = async (id: string) => {
      claimed.push(id);
      return true;
    };
    const dropped = async () => ({
      message_id: "",
      is_sent: false,
      drop_reason: { code: "msg_duplicate", message: "duplicate" },
    });
    const { channel, calls } = await channelAnswering([posted("c1"), dropped], { claimMessage });
    channel.queue.push(reply("first"));
    expect(await waitFor(() => claimed.length === 1)).toBe(true);
    channel.queue.push(reply("second"));
    expect(await waitFor(() => calls() === 2)).toBe(true);
    await Bun.sleep(20);
    expect(claimed).toEqual(["c1"]);
  });
});

describe("every line's opening (CONTRACT §6), whoever wrote it", () => {
  test("a line pushed with a command character, invisible characters before it or not, is sent without them", async () => {
    const { channel, texts, calls } = await channelAnswering([posted("c1")]);
    const pushed = [
      ["!bot part", "bot part"],
      ["/ban viewer_bob", "ban viewer_bob"],
      [".timeout viewer_bob", "timeout viewer_bob"],
      ["\\part", "part"],
      ...INVISIBLE_LEADS.map((invisible, i) => [`${invisible}!addcom !x${i} hi`, `addcom !x${i} hi`]),
    ];
    // One at a time: the queue holds 10.
    for (const [i, [text]] of pushed.entries()) {
      channel.queue.push(reply(text ?? ""));
      expect(await waitFor(() => calls() === i + 1)).toBe(true);
    }
    expect(texts).toEqual(pushed.map(([, sent]) => sent ?? ""));
  });

  test("a line that is nothing but command characters and invisibles is not sent, and says why", async () => {
    const { channel, texts, outcomes } = await channelAnswering([posted("c1")]);
    channel.queue.push(reply("\u2800!\u200b/ ..."));
    channel.queue.push(reply("said"));
    expect(await waitFor(() => texts.length === 1)).toBe(true);
    expect(texts).toEqual(["said"]);
    expect(outcomes).toEqual(["reply_dropped:nothing_to_say"]);
  });
});
