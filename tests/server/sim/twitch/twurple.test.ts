import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "@twurple/api";
import { StaticAuthProvider } from "@twurple/auth";
import type { EventSubChannelChatMessageEvent } from "@twurple/eventsub-base";
import { EventSubWsListener } from "@twurple/eventsub-ws";
import { startTwitchSimulator, type TwitchSimulator } from "../../../../server/sim/twitch/server.ts";
import { SIM_IDS, seedWorld } from "../../../../server/sim/twitch/world.ts";
import { waitFor } from "../../../helpers/chat.ts";
import { holdWithLinesAfterKeepalives } from "../../../helpers/keepalive-hold.ts";

/**
 * The Twitch simulator checked by a real third-party client: twurple 8.1.4 in its mock mode
 * (`TWURPLE_MOCK_API_PORT`, reference/twitch-chat.md §8), which sends every call to twitch-cli's
 * paths on localhost. twurple's timers are real seconds, so the simulator runs on real seconds too.
 */

const SCOPES = ["user:read:chat", "user:write:chat"];
/** How long the keepalive hold lasts: past three keepalive windows of 10 s. */
const HOLD_MS = 35_000;
const MOCK_PORT_ENV = "TWURPLE_MOCK_API_PORT";

let sim: TwitchSimulator;
let api: ApiClient;
let previousPort: string | undefined;

beforeAll(() => {
  sim = startTwitchSimulator({ world: seedWorld(Date.now()) });
  previousPort = process.env[MOCK_PORT_ENV];
  process.env[MOCK_PORT_ENV] = new URL(sim.authUrl).port;
  const { accessToken } = sim.issueUserToken("cuebotdemo", SCOPES);
  api = new ApiClient({
    authProvider: new StaticAuthProvider(sim.client.id, accessToken, SCOPES),
    logger: { minLevel: "critical" },
  });
});

afterAll(async () => {
  if (previousPort === undefined) delete process.env[MOCK_PORT_ENV];
  else process.env[MOCK_PORT_ENV] = previousPort;
  await sim.stop();
});

/** Starts a listener for cuebotdemo's chat that records what it receives and every socket drop. */
function listen() {
  const listener = new EventSubWsListener({ apiClient: api, logger: { minLevel: "critical" } });
  const messages: EventSubChannelChatMessageEvent[] = [];
  const drops: string[] = [];
  listener.onUserSocketDisconnect((_, error) => drops.push(error?.message ?? "closed"));
  listener.onChannelChatMessage(SIM_IDS.demo, SIM_IDS.demo, (event) => messages.push(event));
  // twurple routes a notification by the subscription id its create call answered: a line said before
  // it read that answer (the simulator had the subscription enabled already) is not handed to it.
  const created: string[] = [];
  listener.onSubscriptionCreateSuccess((_, api) => created.push(api.id));
  listener.start();
  const received = (messageId: string) =>
    waitFor(() => messages.find((m) => m.messageId === messageId), 10_000);
  /** The subscription, enabled in the simulator and known to twurple. */
  const subscribed = () =>
    waitFor(
      () => sim.chat.subscriptions().find((s) => s.status === "enabled" && created.includes(s.id)),
      10_000,
    );
  return { listener, messages, drops, received, subscribed };
}

const simControl = (action: string, body: object) =>
  fetch(`${sim.authUrl}/_sim/eventsub/${action}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("twurple 8.1.4 against the simulator", () => {
  test("mock mode: the token validates at /auth/validate and Helix answers under /mock/", async () => {
    const token = await api.getTokenInfo();
    expect(token).toMatchObject({ userId: SIM_IDS.demo, userName: "cuebotdemo" });
    expect(token.scopes).toEqual(SCOPES);
    const user = await api.users.getUserByName("cuebotdemo");
    expect(user?.id).toBe(SIM_IDS.demo);
  });

  test(
    "subscribe, receive a line, send a message, move on session_reconnect, hold 35 s of keepalives without a drop",
    async () => {
      const chat = listen();
      try {
        const subscription = await chat.subscribed();
        expect(subscription?.condition).toEqual({
          broadcaster_user_id: SIM_IDS.demo,
          user_id: SIM_IDS.demo,
        });

        const line = sim.chat.say({ channel: "cuebotdemo", user: "subdave", text: "!uptime Cheer100" });
        const event = await chat.received(line);
        expect(event).toMatchObject({ messageText: "!uptime Cheer100", chatterName: "subdave", bits: 100 });
        expect(event?.badges).toEqual({ subscriber: "0" });

        const sent = await api.chat.sendChatMessage(SIM_IDS.demo, "Live for 2 hours");
        expect(sent.isSent).toBe(true);
        expect((await chat.received(sent.id))?.messageText).toBe("Live for 2 hours");

        const first = subscription!.sessionId;
        expect((await (await simControl("reconnect", { session_id: first })).json()).reconnecting).toEqual([
          first,
        ]);
        const moved = await waitFor(() => {
          const now = sim.chat.subscriptions()[0]!;
          const old = sim.chat.sessions().find((s) => s.id === first);
          return now.sessionId !== first && old?.status === "closed" ? now : null;
        }, 10_000);
        expect(moved?.status).toBe("enabled");
        const afterMove = sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "still here?" });
        await chat.received(afterMove);

        const said = await holdWithLinesAfterKeepalives(sim, moved!.sessionId, HOLD_MS, 1000);
        expect(chat.drops).toEqual([]);
        expect(said.length).toBeGreaterThanOrEqual(3);
        for (const id of said) expect(await chat.received(id)).toBeTruthy();
        // One subscription, created once: the handover carried it over and nothing resubscribed.
        expect(sim.calls.get("POST /helix/eventsub/subscriptions")).toBe(1);
        expect(sim.chat.sessions().filter((s) => s.status !== "closed")).toEqual([
          expect.objectContaining({ id: moved!.sessionId, status: "connected" }),
        ]);
        // Every line arrived once (twurple drops redeliveries; the simulator sent none).
        const ids = chat.messages.map((m) => m.messageId);
        expect(new Set(ids).size).toBe(ids.length);
      } finally {
        chat.listener.stop();
      }
    },
    HOLD_MS + 45_000,
  );
});
