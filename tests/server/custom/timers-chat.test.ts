import { afterEach, describe, expect, test } from "bun:test";
import { addTimer, editTimer, getTimer } from "../../../db/timers.ts";
import type { Channel } from "../../../server/chat/channels.ts";
import { openChannel } from "../../../server/chat/sending.ts";
import { ManualClock } from "../../../server/core/clock.ts";
import { ChatTimers } from "../../../server/custom/timers.ts";
import { saveProviderTokens } from "../../../server/identity/provider-tokens.ts";
import { SpeakerTokens } from "../../../server/live/speaker-tokens.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import { BASE_SCOPES, READ_CHAT_SCOPE } from "../../../server/twitch/scopes.ts";
import { type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";

/**
 * Timers against the Twitch simulator: live status from Helix Get Streams, posts through the channel's
 * real send queue to Send Chat Message. The channel is the one the chat manager would hold; the chat
 * lines are counted where chat/dispatch.ts counts them (`ctx.chatLines.noteChatLine`), and a manual
 * clock stands for the minutes.
 */

const MIN = 60_000;
let h: ChatHarness;
let timers: ChatTimers;
let clock: ManualClock;
let channel: Channel;

afterEach(async () => {
  timers.stop();
  channel.queue.close();
  await h.stop();
});

async function setUp(): Promise<void> {
  h = await startChatHarness();
  clock = new ManualClock(Date.now());
  const scopes = [...BASE_SCOPES, READ_CHAT_SCOPE];
  const issued = h.sim.issueUserToken("cuebotdemo", scopes);
  await saveProviderTokens(h.ctx, h.account.id, { ...issued, scopes, expiresIn: 14_400 });
  channel = openChannel(h.ctx, new SpeakerTokens(h.ctx), h.account, {
    kind: "streamer",
    userId: h.account.twitchUserId,
  });
  channel.state = "connected";
  // The seeded world has cuebotdemo live: each test starts the stream itself.
  h.sim.setLive(SIM_IDS.demo, false);
  timers = new ChatTimers(h.ctx, new Map([[h.account.id, channel]]), { clock, secondMs: 2 });
}

const posted = () => h.sim.chat.sent().filter((s) => s.isSent);
const goLive = (startedAt: number) =>
  h.sim.setLive(SIM_IDS.demo, true, { started_at: new Date(startedAt).toISOString(), game_name: "Chess" });
const lines = (n: number, accountId = h.account.id) => {
  for (let i = 0; i < n; i++) h.ctx.chatLines.noteChatLine(accountId);
};

/** Moves the clock and looks once; then waits a moment for a send that would follow. */
async function lookAfter(ms: number): Promise<void> {
  clock.advance(ms);
  await timers.tick();
  await Bun.sleep(30);
}

describe("timers in chat, through the simulator", () => {
  test("a timer posts only while the channel is live and after M chat lines, every interval", async () => {
    await setUp();
    const t0 = clock.now();
    const timer = await addTimer(
      h.ctx.db,
      h.account.id,
      {
        name: "socials",
        message: "Follow $(channel)! Live for $(uptime), playing $(game).",
        intervalMinutes: 5,
      },
      t0,
    );
    // Offline: nothing, whatever chat says.
    lines(5);
    await lookAfter(6 * MIN);
    expect(posted()).toEqual([]);

    // Live from t0+6: the first interval of the stream passes first.
    goLive(t0 + 6 * MIN);
    await lookAfter(1 * MIN);
    expect(posted()).toEqual([]);
    await lookAfter(4 * MIN);
    const first = await waitFor(() => posted()[0]);
    expect(first).toMatchObject({
      broadcasterId: SIM_IDS.demo,
      senderId: SIM_IDS.demo,
      text: "Follow CuebotDemo! Live for 5 minutes, playing Chess.",
      replyParentMessageId: null,
    });
    expect((await getTimer(h.ctx.db, h.account.id, timer.id))?.lastPostedAt).toBe(t0 + 11 * MIN);

    // Five minutes on, but one line since: held until the second comes.
    lines(1);
    await lookAfter(5 * MIN);
    expect(posted()).toHaveLength(1);
    lines(1);
    await lookAfter(10_000);
    expect(await waitFor(() => posted()[1]?.text)).toBe(
      "Follow CuebotDemo! Live for 10 minutes, 10 seconds, playing Chess.",
    );

    // Offline again: the next look at Twitch sees it, and nothing more is posted.
    h.sim.setLive(SIM_IDS.demo, false);
    lines(10);
    await lookAfter(6 * MIN);
    await lookAfter(6 * MIN);
    expect(posted()).toHaveLength(2);
  });

  test("two timers due together post one at a time, a minute apart; a disabled one never", async () => {
    await setUp();
    const t0 = clock.now();
    goLive(t0);
    for (const [name, enabled] of [
      ["first", true],
      ["second", true],
      ["off", false],
    ] as const)
      await addTimer(
        h.ctx.db,
        h.account.id,
        { name, message: `${name} timer`, intervalMinutes: 5, enabled },
        t0,
      );
    lines(10);
    await lookAfter(5 * MIN);
    await lookAfter(10_000);
    await lookAfter(10_000);
    await waitFor(() => posted()[0]);
    expect(posted().map((s) => s.text)).toEqual(["first timer"]);
    await lookAfter(MIN);
    expect(await waitFor(() => posted()[1]?.text)).toBe("second timer");
    await lookAfter(MIN);
    await lookAfter(MIN);
    expect(posted().map((s) => s.text)).toEqual(["first timer", "second timer"]);
  });

  test("an edit in the middle of a stream: the new text, and a countdown from the edit", async () => {
    await setUp();
    const t0 = clock.now();
    goLive(t0);
    const timer = await addTimer(
      h.ctx.db,
      h.account.id,
      { name: "t", message: "old text", intervalMinutes: 5, minChatLines: 0 },
      t0,
    );
    await lookAfter(5 * MIN);
    expect(await waitFor(() => posted()[0]?.text)).toBe("old text");
    await lookAfter(2 * MIN);
    await editTimer(
      h.ctx.db,
      h.account.id,
      timer.id,
      { message: "new text", intervalMinutes: 10 },
      clock.now(),
    );
    timers.forget(h.account.id);
    await lookAfter(9 * MIN);
    expect(posted()).toHaveLength(1);
    await lookAfter(1 * MIN);
    expect(await waitFor(() => posted()[1]?.text)).toBe("new text");
  });

  test("started, it looks by itself every tick; stopped, it posts nothing more", async () => {
    await setUp();
    const t0 = clock.now();
    goLive(t0);
    await addTimer(
      h.ctx.db,
      h.account.id,
      { name: "t", message: "hello chat", intervalMinutes: 5, minChatLines: 0 },
      t0,
    );
    timers.start();
    clock.advance(5 * MIN);
    expect(await waitFor(() => posted()[0]?.text)).toBe("hello chat");
    timers.stop();
    clock.advance(30 * MIN);
    await Bun.sleep(100);
    expect(posted()).toHaveLength(1);
  });

  test("a timer disabled in this process just before it is due never posts from the cache", async () => {
    await setUp();
    const t0 = clock.now();
    goLive(t0);
    const disabled = await addTimer(
      h.ctx.db,
      h.account.id,
      { name: "a", message: "disabled text", intervalMinutes: 5, minChatLines: 0 },
      t0,
    );
    timers.start();
    // A look half a minute before it is due reads the timers into the cache.
    await lookAfter(4.5 * MIN);
    await editTimer(h.ctx.db, h.account.id, disabled.id, { enabled: false }, clock.now());
    h.ctx.chatBot.timersChanged(h.account.id);
    await lookAfter(0.5 * MIN);
    await lookAfter(0);
    expect(posted()).toEqual([]);
    // After stop, this process's changes reach the stopped runtime no more (nothing left subscribed).
    timers.stop();
    h.ctx.chatBot.timersChanged(h.account.id);
  });

  test("a flood of chat lines, for this channel and for channels not held, posts one timer once", async () => {
    await setUp();
    const t0 = clock.now();
    goLive(t0);
    await addTimer(h.ctx.db, h.account.id, { name: "t", message: "once", intervalMinutes: 5 }, t0);
    lines(100_000);
    for (const other of [0, -1, 999_999, Number.MAX_SAFE_INTEGER]) lines(100, other);
    await lookAfter(5 * MIN);
    await lookAfter(0);
    await lookAfter(0);
    await waitFor(() => posted()[0]);
    expect(posted().map((s) => s.text)).toEqual(["once"]);
  });

  test("a channel that is not connected, or has no enabled timer, asks Twitch nothing and posts nothing", async () => {
    await setUp();
    const t0 = clock.now();
    goLive(t0);
    await addTimer(
      h.ctx.db,
      h.account.id,
      { name: "t", message: "x", intervalMinutes: 5, enabled: false },
      t0,
    );
    lines(10);
    const streamsCalls = () => h.sim.calls.get("GET /helix/streams") ?? 0;
    await lookAfter(10 * MIN);
    expect(streamsCalls()).toBe(0);
    await editTimer(h.ctx.db, h.account.id, 1, { enabled: true }, t0);
    channel.state = "connecting";
    await lookAfter(10 * MIN);
    expect(streamsCalls()).toBe(0);
    channel.state = "connected";
    await lookAfter(MIN);
    await lookAfter(10_000);
    expect(streamsCalls()).toBe(1);
    expect(await waitFor(() => posted()[0]?.text)).toBe("x");
  });

  test("a timer whose message opens with a command character, invisibles before it or not, posts without them", async () => {
    await setUp();
    const t0 = clock.now();
    goLive(t0);
    await addTimer(
      h.ctx.db,
      h.account.id,
      { name: "lurk", message: "\u200b\u2800!lurk and $(channel) will remember you", intervalMinutes: 5 },
      t0,
    );
    lines(10);
    await lookAfter(5 * MIN);
    expect(await waitFor(() => posted()[0]?.text)).toBe("lurk and CuebotDemo will remember you");
  });
});
