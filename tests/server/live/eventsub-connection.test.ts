/**
 * The EventSub connection's watchdog (server/live/eventsub-connection.ts) against the Twitch simulator
 * on loopback, with the protocol's second shortened as the chat tests shorten it.
 */
import { afterEach, expect, test } from "bun:test";
import { createLogger } from "../../../server/core/log.ts";
import { EventSubConnection } from "../../../server/live/eventsub-connection.ts";
import { startTwitchSimulator, type TwitchSimulator } from "../../../server/sim/twitch/server.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import { CHAT_SECOND_MS, waitFor } from "../../helpers/chat.ts";
import { callHelix } from "../../helpers/helix.ts";

let sim: TwitchSimulator | null = null;
let connection: EventSubConnection | null = null;
afterEach(async () => {
  connection?.stop();
  connection = null;
  await sim?.stop();
  sim = null;
});

/** Keeps the event loop busy, as a loaded machine (or a long synchronous task) does. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

test("an event loop stalled past a shortened keepalive window is not taken for a dead Twitch", async () => {
  // 10 s keepalives of 20 ms: the keepalive and the watchdog are due 40 ms apart, and a stall of 300 ms
  // makes both overdue at once. The watchdog then runs before the keepalive's frame is read: with a
  // margin of only 20 % it closed a healthy socket (and a chat line said meanwhile was lost).
  const twitch = startTwitchSimulator({ eventsubSecondMs: CHAT_SECOND_MS });
  sim = twitch;
  const { accessToken } = twitch.issueUserToken("cuebotdemo", ["user:read:chat"]);
  // A session with no subscription is closed by Twitch: this one reads the demo channel's chat.
  const subscribe = (sessionId: string) =>
    callHelix(twitch, accessToken, "POST", "/eventsub/subscriptions", {
      body: {
        type: "channel.chat.message",
        version: "1",
        condition: { broadcaster_user_id: SIM_IDS.demo, user_id: SIM_IDS.demo },
        transport: { method: "websocket", session_id: sessionId },
      },
    });
  const drops: string[] = [];
  connection = new EventSubConnection({
    url: sim.eventsubUrl,
    secondMs: CHAT_SECOND_MS,
    log: createLogger({ level: "error", format: "json", write: () => {} }),
    handlers: {
      onWelcome: async (sessionId) => {
        await subscribe(sessionId);
      },
      onFrame: () => {},
      onDown: (reason) => drops.push(reason),
    },
  });
  connection.start();
  const sessionId = await waitFor(() => connection?.sessionId);
  expect(sessionId).not.toBeNull();
  const keepalives = () => twitch.chat.sessions().find((s) => s.id === sessionId)?.keepalives ?? 0;
  for (let i = 0; i < 3; i++) {
    const seen = keepalives();
    // On failure, why the socket was let go shows instead.
    expect((await waitFor(() => keepalives() > seen, 2000)) ?? drops).toBe(true);
    stall(300);
  }
  await Bun.sleep(500);
  expect(drops).toEqual([]);
  expect(connection.sessionId).toBe(sessionId);
});
