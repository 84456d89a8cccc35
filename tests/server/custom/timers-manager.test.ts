import { afterEach, describe, expect, test } from "bun:test";
import { addTimer } from "../../../db/timers.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import { type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";
import { waitUntilReading } from "../../helpers/custom-chat.ts";

/**
 * Timers run inside native chat (chat/manager.ts): they start and stop with it. On the real clock a
 * post takes minutes, so this watches what they ask Twitch (timers-chat.test.ts moves the clock).
 */

let h: ChatHarness;
afterEach(async () => {
  await h.stop();
});

const streamsCalls = () => h.sim.calls.get("GET /helix/streams") ?? 0;

describe("timers run with native chat", () => {
  test("no timer: Twitch is not asked whether the channel is live", async () => {
    h = await startChatHarness();
    await h.startChat();
    await waitUntilReading(h);
    // Several ticks (one every 10 protocol seconds: 200 ms here).
    await Bun.sleep(700);
    expect(streamsCalls()).toBe(0);
  });

  test("an enabled timer: chat asks whether the channel is live, at most once a minute, until chat closes", async () => {
    h = await startChatHarness();
    h.sim.setLive(SIM_IDS.demo, true);
    await addTimer(h.ctx.db, h.account.id, { name: "t", message: "hello", intervalMinutes: 5 }, Date.now());
    const runtime = await h.startChat();
    expect(await waitFor(() => streamsCalls() > 0)).toBe(true);
    await Bun.sleep(700);
    expect(streamsCalls()).toBe(1);
    // The stream is minutes from its first interval: nothing is posted yet.
    expect(h.sim.chat.sent()).toEqual([]);
    await runtime.close();
    const after = streamsCalls();
    await Bun.sleep(500);
    expect(streamsCalls()).toBe(after);
  });

  test("every chatter's line read in the channel counts for the timers, commands or not; cuebot's own never", async () => {
    h = await startChatHarness();
    await h.startChat();
    await waitUntilReading(h);
    const say = (text: string) => h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text });
    say("hello");
    say("gg");
    expect(await h.replyTo(say("!coinflip"))).not.toBeNull();
    // cuebot's reply came back over EventSub as a line of the channel: it is not counted.
    await Bun.sleep(200);
    expect(h.ctx.chatLines.linesSeen(h.account.id)).toBe(3);
  });
});
