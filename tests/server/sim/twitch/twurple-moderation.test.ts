import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "@twurple/api";
import { StaticAuthProvider } from "@twurple/auth";
import type {
  EventSubChannelChatClearUserMessagesEvent,
  EventSubChannelChatMessageDeleteEvent,
  EventSubChannelChatMessageEvent,
  EventSubChannelChatSettingsUpdateEvent,
} from "@twurple/eventsub-base";
import { EventSubWsListener } from "@twurple/eventsub-ws";
import { startTwitchSimulator, type TwitchSimulator } from "../../../../server/sim/twitch/server.ts";
import { SIM_IDS, seedWorld } from "../../../../server/sim/twitch/world.ts";
import { waitFor } from "../../../helpers/chat.ts";

/**
 * The simulator's moderation side checked by a real third-party client: twurple 8.1.4 (mock mode, as
 * twurple.test.ts) calls Delete Chat Messages, Update/Get Chat Settings, Ban User and Get Moderated
 * Channels, and its EventSub listener parses the chat events (emote fragments, Shared Chat fields,
 * deletions, cleared lines, settings updates) the way it parses Twitch's.
 */

const SCOPES = [
  "user:read:chat",
  "user:write:chat",
  "moderator:manage:chat_messages",
  "moderator:manage:chat_settings",
  "moderator:manage:banned_users",
  "user:read:moderated_channels",
];
const MOCK_PORT_ENV = "TWURPLE_MOCK_API_PORT";
const DEMO = SIM_IDS.demo;

let sim: TwitchSimulator;
let api: ApiClient;
let listener: EventSubWsListener;
let previousPort: string | undefined;
const messages: EventSubChannelChatMessageEvent[] = [];
const deletions: EventSubChannelChatMessageDeleteEvent[] = [];
const cleared: EventSubChannelChatClearUserMessagesEvent[] = [];
const settingsUpdates: EventSubChannelChatSettingsUpdateEvent[] = [];

beforeAll(async () => {
  sim = startTwitchSimulator({ world: seedWorld(Date.now()) });
  previousPort = process.env[MOCK_PORT_ENV];
  process.env[MOCK_PORT_ENV] = new URL(sim.authUrl).port;
  const { accessToken } = sim.issueUserToken("cuebotdemo", SCOPES);
  api = new ApiClient({
    authProvider: new StaticAuthProvider(sim.client.id, accessToken, SCOPES),
    logger: { minLevel: "critical" },
  });
  listener = new EventSubWsListener({ apiClient: api, logger: { minLevel: "critical" } });
  listener.onChannelChatMessage(DEMO, DEMO, (e) => messages.push(e));
  listener.onChannelChatMessageDelete(DEMO, DEMO, (e) => deletions.push(e));
  listener.onChannelChatClearUserMessages(DEMO, DEMO, (e) => cleared.push(e));
  listener.onChannelChatSettingsUpdate(DEMO, DEMO, (e) => settingsUpdates.push(e));
  listener.start();
  await waitFor(
    () => sim.chat.subscriptions().filter((s) => s.status === "enabled").length === 4 || null,
    10_000,
  );
});

afterAll(async () => {
  listener.stop();
  if (previousPort === undefined) delete process.env[MOCK_PORT_ENV];
  else process.env[MOCK_PORT_ENV] = previousPort;
  await sim.stop();
});

const received = (id: string) => waitFor(() => messages.find((m) => m.messageId === id));

describe("twurple 8.1.4 against the simulator's moderation", () => {
  test("emote fragments parse as twurple's emote parts, with the emote's id, set, owner and format", async () => {
    const id = sim.chat.say({
      channel: "cuebotdemo",
      user: "viewer_anna",
      text: "Kappa hello cuebotHype Kappa",
      emotes: ["Kappa", "cuebotHype"],
    });
    const event = await received(id);
    const parts = event?.messageParts ?? [];
    expect(parts.map((p) => [p.type, p.text])).toEqual([
      ["emote", "Kappa"],
      ["text", " hello "],
      ["emote", "cuebotHype"],
      ["text", " "],
      ["emote", "Kappa"],
    ]);
    const emoteOf = (i: number) => {
      const part = parts[i];
      return part?.type === "emote" ? part.emote : null;
    };
    expect(emoteOf(0)).toEqual({ id: "25", emote_set_id: "0", owner_id: "0", format: ["static"] });
    expect(emoteOf(2)).toMatchObject({ emote_set_id: `${DEMO}01`, owner_id: DEMO, format: ["static"] });
    expect(emoteOf(2)?.id).toMatch(/^emotesv2_[0-9a-f]+$/);
    expect(event?.sourceBroadcasterId).toBeNull();
    expect(event?.isSourceOnly).toBeNull();
  });

  test("a Shared Chat line carries its source channel, source message id and badges there", async () => {
    const id = sim.chat.say({
      channel: "cuebotdemo",
      user: "viewer_anna",
      text: "hi from the other side",
      sourceChannel: "otherstreamer",
      sourceBadges: [{ set_id: "subscriber", id: "3000", info: "14" }],
    });
    const event = await received(id);
    expect(event?.sourceBroadcasterId).toBe(SIM_IDS.other);
    expect(event?.sourceBroadcasterName).toBe("otherstreamer");
    expect(event?.sourceBroadcasterDisplayName).toBe("OtherStreamer");
    expect(event?.sourceMessageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(event?.sourceMessageId).not.toBe(id);
    expect(event?.sourceBadges).toEqual({ subscriber: "3000" });
    expect(event?.isSourceOnly).toBe(false);
  });

  test("deleteChatMessages removes the line; the listener hears channel.chat.message_delete", async () => {
    const id = sim.chat.say({ channel: "cuebotdemo", user: "subdave", text: "bigfollows . com" });
    await received(id);
    await api.moderation.deleteChatMessages(DEMO, id);
    expect(sim.chat.lines("cuebotdemo").find((l) => l.messageId === id)?.deleted).toBe(true);
    const deletion = await waitFor(() => deletions.find((d) => d.messageId === id));
    expect(deletion).toMatchObject({ userId: SIM_IDS.dave, userName: "subdave", broadcasterId: DEMO });
    // A moderator's line cannot be deleted: twurple surfaces Twitch's 400.
    const mod = sim.chat.say({ channel: "cuebotdemo", user: "modbob", text: "mod line" });
    await expect(api.moderation.deleteChatMessages(DEMO, mod)).rejects.toThrow(/another moderator/);
  });

  test("banUser with a duration times out and clears the chatter's lines (channel.chat.clear_user_messages)", async () => {
    const id = sim.chat.say({ channel: "cuebotdemo", user: "lurker_eve", text: "spam spam" });
    await received(id);
    const [ban] = await api.moderation.banUser(DEMO, { user: SIM_IDS.eve, duration: 600, reason: "links" });
    expect(ban?.userId).toBe(SIM_IDS.eve);
    expect(ban?.expiryDate?.getTime()).toBeGreaterThan(Date.now());
    expect(sim.chat.lines("cuebotdemo").find((l) => l.messageId === id)?.deleted).toBe(true);
    expect(await waitFor(() => cleared.find((c) => c.userId === SIM_IDS.eve))).toBeTruthy();
    await expect(api.moderation.banUser(DEMO, { user: DEMO, duration: 60, reason: "x" })).rejects.toThrow(
      /may not be put in a timeout/,
    );
  });

  test("updateSettings turns followers-only on (channel.chat_settings.update); getSettings reads it", async () => {
    const updated = await api.chat.updateSettings(DEMO, {
      followerOnlyModeEnabled: true,
      followerOnlyModeDelay: 0,
    });
    expect(updated.followerOnlyModeEnabled).toBe(true);
    expect(updated.followerOnlyModeDelay).toBe(0);
    expect((await api.chat.getSettings(DEMO)).followerOnlyModeEnabled).toBe(true);
    const update = await waitFor(() => settingsUpdates.find((u) => u.followerOnlyModeEnabled));
    expect(update?.followerOnlyModeDelay).toBe(0);
    const off = await api.chat.updateSettings(DEMO, { followerOnlyModeEnabled: false });
    expect(off.followerOnlyModeEnabled).toBe(false);
    expect(off.followerOnlyModeDelay).toBeNull();
  });

  test("getModeratedChannels lists the channels the token's user moderates", async () => {
    const { accessToken } = sim.issueUserToken("modbob", ["user:read:moderated_channels"]);
    const bob = new ApiClient({
      authProvider: new StaticAuthProvider(sim.client.id, accessToken, ["user:read:moderated_channels"]),
      logger: { minLevel: "critical" },
    });
    const channels = await bob.moderation.getModeratedChannels(SIM_IDS.bob);
    expect(channels.data.map((c) => c.name)).toEqual(["cuebotdemo"]);
  });
});
