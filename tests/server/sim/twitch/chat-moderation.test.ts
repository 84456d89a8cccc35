import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { ManualClock } from "../../../../server/core/clock.ts";
import { ChatRefusedError } from "../../../../server/sim/twitch/chat/lines.ts";
import type { TwitchSimulator } from "../../../../server/sim/twitch/server.ts";
import { SIM_IDS } from "../../../../server/sim/twitch/world.ts";
import {
  callHelix,
  type HelixAnswer,
  type HelixQuery,
  startClockedSimulator,
} from "../../../helpers/helix.ts";

/**
 * What moderators do to a chat in the simulator, against reference/moderation.md §2.1–2.4: Delete
 * Chat Messages, the lines a timeout or ban clears, Get/Update Chat Settings, and the room refusing
 * lines as Twitch does (banned, timed out, followers-only). The reduced Helix OpenAPI in
 * tests/fixtures lacks these endpoints, so the bodies are checked field by field against §2.4.
 */

let sim: TwitchSimulator;
let clock: ManualClock;
beforeEach(() => {
  ({ sim, clock } = startClockedSimulator());
});
afterEach(async () => {
  await sim.stop();
});

const DEMO = SIM_IDS.demo;
const HOUR = 60 * 60_000;
const MOD_SCOPES = [
  "moderator:manage:chat_messages",
  "moderator:manage:chat_settings",
  "moderator:manage:banned_users",
];
const tokenFor = (login: string, scopes = MOD_SCOPES) => sim.issueUserToken(login, scopes).accessToken;

const deleteMessage = (token: string, query: HelixQuery) =>
  callHelix(sim, token, "DELETE", "/moderation/chat", {
    query: { broadcaster_id: DEMO, moderator_id: DEMO, ...query },
  });

const say = (user: string, text: string) => sim.chat.say({ channel: "cuebotdemo", user, text });
const lineOf = (id: string) => sim.chat.lines("cuebotdemo").find((l) => l.messageId === id);

function expectError(answer: HelixAnswer, status: number, message?: string): void {
  expect(answer.status).toBe(status);
  const body = answer.body as { status: number; message: string };
  expect(body.status).toBe(status);
  if (message) expect(body.message).toBe(message);
}

describe("DELETE /moderation/chat (Delete Chat Messages)", () => {
  test("204 with no body; the line stays in the chat's list marked deleted", async () => {
    const spam = say("viewer_anna", "buy followers at bigfollows . com");
    const kept = say("subdave", "hello");
    const answer = await deleteMessage(tokenFor("cuebotdemo"), { message_id: spam });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeNull();
    expect(lineOf(spam)).toMatchObject({ text: "buy followers at bigfollows . com", deleted: true });
    expect(lineOf(kept)?.deleted).toBe(false);
  });

  test("onDelete hears each call naming a message with its answer, until stopped; clearing the chat is not one", async () => {
    const heard: unknown[] = [];
    const stop = sim.chat.onDelete((call) => heard.push(call));
    const spam = say("viewer_anna", "buy followers at bigfollows . com");
    const token = tokenFor("cuebotdemo");
    await deleteMessage(token, { message_id: spam });
    await deleteMessage(token, { message_id: spam });
    await callHelix(sim, token, "DELETE", "/moderation/chat", {
      query: { broadcaster_id: DEMO, moderator_id: DEMO },
    });
    stop();
    await deleteMessage(token, { message_id: say("viewer_anna", "more spam") });
    expect(heard).toEqual([
      { broadcasterId: DEMO, messageId: spam, status: 204 },
      { broadcasterId: DEMO, messageId: spam, status: 404 },
    ]);
  });

  test("a moderator may delete a viewer's line and their own; not the broadcaster's nor another moderator's (400)", async () => {
    sim.chat.setRole("cuebotdemo", "mod_two", "moderator");
    const mod = tokenFor("modbob");
    const asMod = (messageId: string) =>
      deleteMessage(mod, { moderator_id: SIM_IDS.bob, message_id: messageId });
    expect((await asMod(say("viewer_anna", "spam"))).status).toBe(204);
    expect((await asMod(say("modbob", "my own typo"))).status).toBe(204);
    expectError(
      await asMod(say("cuebotdemo", "streamer talks")),
      400,
      "You may not delete the broadcaster's messages.",
    );
    expectError(
      await asMod(say("mod_two", "another mod")),
      400,
      "You may not delete another moderator's messages.",
    );
    // The broadcaster is bound by the same rules.
    expectError(
      await deleteMessage(tokenFor("cuebotdemo"), { message_id: say("modbob", "mod line") }),
      400,
      "You may not delete another moderator's messages.",
    );
  });

  test("an unknown, an already deleted, or a 6-hour-old message is 404; just under 6 hours is deleted", async () => {
    expectError(
      await deleteMessage(tokenFor("cuebotdemo"), { message_id: "00000000-0000-0000-0000-000000000000" }),
      404,
    );
    const old = say("viewer_anna", "old news");
    const younger = say("subdave", "still young");
    clock.advance(6 * HOUR - 1000);
    // A token of now: access tokens expire in hours too.
    const token = tokenFor("cuebotdemo");
    expect((await deleteMessage(token, { message_id: younger })).status).toBe(204);
    expectError(await deleteMessage(token, { message_id: younger }), 404);
    clock.advance(2000);
    expectError(
      await deleteMessage(token, { message_id: old }),
      404,
      "The message specified in message_id was created more than 6 hours ago.",
    );
    expect(lineOf(old)?.deleted).toBe(false);
  });

  test("without message_id every line of the chat is removed, the broadcaster's and moderators' too", async () => {
    const ids = [say("viewer_anna", "a"), say("modbob", "b"), say("cuebotdemo", "c")];
    expect((await deleteMessage(tokenFor("cuebotdemo"), {})).status).toBe(204);
    expect(ids.map((id) => lineOf(id)?.deleted)).toEqual([true, true, true]);
  });

  test("scope 401, moderator_id ≠ token user 401, a non-moderator 403, a line of another channel 404", async () => {
    const line = say("viewer_anna", "spam");
    expectError(
      await deleteMessage(tokenFor("cuebotdemo", ["moderator:manage:banned_users"]), { message_id: line }),
      401,
      "Missing scope: moderator:manage:chat_messages",
    );
    expectError(
      await deleteMessage(tokenFor("cuebotdemo"), { moderator_id: SIM_IDS.bob, message_id: line }),
      401,
    );
    expectError(
      await deleteMessage(tokenFor("subdave"), { moderator_id: SIM_IDS.dave, message_id: line }),
      403,
      "The user in moderator_id is not one of the broadcaster's moderators.",
    );
    const elsewhere = sim.chat.say({ channel: "otherstreamer", user: "viewer_anna", text: "hi" });
    expectError(await deleteMessage(tokenFor("cuebotdemo"), { message_id: elsewhere }), 404);
    expectError(
      await callHelix(sim, tokenFor("cuebotdemo"), "DELETE", "/moderation/chat", { query: {} }),
      400,
    );
    expect(lineOf(line)?.deleted).toBe(false);
  });
});

describe("timeouts and bans clear the chatter's lines and silence them while they hold", () => {
  const ban = (userId: string, duration?: number) =>
    callHelix(sim, tokenFor("cuebotdemo"), "POST", "/moderation/bans", {
      query: { broadcaster_id: DEMO, moderator_id: DEMO },
      body: { data: { user_id: userId, ...(duration ? { duration } : {}) } },
    });

  test("a timeout marks the chatter's earlier lines deleted (others' stay) and refuses their lines until it ends", async () => {
    const first = say("viewer_anna", "spam one");
    const second = say("viewer_anna", "spam two");
    const other = say("subdave", "innocent");
    expect((await ban(SIM_IDS.anna, 60)).status).toBe(200);
    expect([lineOf(first)?.deleted, lineOf(second)?.deleted, lineOf(other)?.deleted]).toEqual([
      true,
      true,
      false,
    ]);
    const before = sim.chat.lines("cuebotdemo").length;
    expect(sim.chat.trySay({ channel: "cuebotdemo", user: "viewer_anna", text: "let me talk" })).toEqual({
      messageId: null,
      refused: { code: "msg_timedout", message: "You are timed out from talking in this channel." },
    });
    expect(() => say("viewer_anna", "please")).toThrow(ChatRefusedError);
    expect(sim.chat.lines("cuebotdemo").length).toBe(before);
    clock.advance(60_000);
    expect(lineOf(say("viewer_anna", "back again"))?.deleted).toBe(false);
  });

  test("a ban refuses with msg_banned until an unban", async () => {
    expect((await ban(SIM_IDS.eve)).status).toBe(200);
    expect(sim.chat.trySay({ channel: "cuebotdemo", user: "lurker_eve", text: "hi" }).refused?.code).toBe(
      "msg_banned",
    );
    const unban = await callHelix(sim, tokenFor("cuebotdemo"), "DELETE", "/moderation/bans", {
      query: { broadcaster_id: DEMO, moderator_id: DEMO, user_id: SIM_IDS.eve },
    });
    expect(unban.status).toBe(204);
    expect(sim.chat.trySay({ channel: "cuebotdemo", user: "lurker_eve", text: "hi" }).refused).toBeNull();
  });

  test("a deleted line, or one cleared by a timeout, cannot be replied to (400)", async () => {
    const sender = tokenFor("cuebotdemo", ["user:write:chat"]);
    const reply = (parent: string) =>
      callHelix(sim, sender, "POST", "/chat/messages", {
        body: {
          broadcaster_id: DEMO,
          sender_id: DEMO,
          message: "@viewer_anna no links please",
          reply_parent_message_id: parent,
        },
      });
    const spam = say("viewer_anna", "link spam");
    expect((await reply(spam)).status).toBe(200);
    expect((await deleteMessage(tokenFor("cuebotdemo"), { message_id: spam })).status).toBe(204);
    expectError(await reply(spam), 400, "The request's input was not valid. Message cannot be replied to.");
    const cleared = say("subdave", "more spam");
    expect((await ban(SIM_IDS.dave, 10)).status).toBe(200);
    expectError(await reply(cleared), 400);
  });
});

describe("GET and PATCH /chat/settings (Get/Update Chat Settings)", () => {
  const patch = (body: unknown, token = tokenFor("cuebotdemo"), moderator: string = DEMO) =>
    callHelix<{ data: Record<string, unknown>[] }>(sim, token, "PATCH", "/chat/settings", {
      query: { broadcaster_id: DEMO, moderator_id: moderator },
      body,
    });

  const FULL_KEYS = [
    "broadcaster_id",
    "emote_mode",
    "follower_mode",
    "follower_mode_duration",
    "moderator_id",
    "non_moderator_chat_delay",
    "non_moderator_chat_delay_duration",
    "slow_mode",
    "slow_mode_wait_time",
    "subscriber_mode",
    "unique_chat_mode",
  ];

  test("followers-only on answers the full settings object; the simulator keeps it per channel", async () => {
    const on = await patch({ follower_mode: true, follower_mode_duration: 0 });
    expect(on.status).toBe(200);
    expect(Object.keys(on.body.data[0]!).sort()).toEqual(FULL_KEYS);
    expect(on.body.data[0]).toMatchObject({
      broadcaster_id: DEMO,
      moderator_id: DEMO,
      follower_mode: true,
      follower_mode_duration: 0,
      slow_mode: false,
      slow_mode_wait_time: null,
    });
    expect(sim.chat.settings("cuebotdemo")).toMatchObject({ follower_mode: true, follower_mode_duration: 0 });
    expect(sim.chat.settings("otherstreamer").follower_mode).toBe(false);
    const off = await patch({ follower_mode: false });
    expect(off.body.data[0]).toMatchObject({ follower_mode: false, follower_mode_duration: null });
  });

  test("a mode turned on without its duration gets the default (followers 0, slow 30 s); only what is named changes", async () => {
    expect((await patch({ slow_mode: true })).body.data[0]).toMatchObject({
      slow_mode: true,
      slow_mode_wait_time: 30,
    });
    expect((await patch({ follower_mode: true })).body.data[0]).toMatchObject({
      follower_mode: true,
      follower_mode_duration: 0,
      slow_mode: true,
      slow_mode_wait_time: 30,
    });
    expect((await patch({ slow_mode_wait_time: 120, emote_mode: true })).body.data[0]).toMatchObject({
      slow_mode_wait_time: 120,
      emote_mode: true,
    });
  });

  test("bad values and combinations are 400 and change nothing", async () => {
    const bad: unknown[] = [
      { follower_mode: true, follower_mode_duration: 129_601 },
      { follower_mode: true, follower_mode_duration: -1 },
      { follower_mode: true, follower_mode_duration: 1.5 },
      { follower_mode: false, follower_mode_duration: 10 },
      { follower_mode_duration: 10 },
      { slow_mode: true, slow_mode_wait_time: 2 },
      { slow_mode: true, slow_mode_wait_time: 121 },
      { non_moderator_chat_delay: true, non_moderator_chat_delay_duration: 3 },
      { non_moderator_chat_delay: true },
      { emote_mode: "yes" },
      { follower_mode: 1 },
    ];
    for (const body of bad) expectError(await patch(body), 400);
    expectError(
      await callHelix(sim, tokenFor("cuebotdemo"), "PATCH", "/chat/settings", {
        query: { broadcaster_id: DEMO, moderator_id: DEMO },
        body: "[]",
      }),
      400,
    );
    expect((await patch({ follower_mode: true, follower_mode_duration: 129_600 })).status).toBe(200);
    expect(sim.chat.settings("cuebotdemo")).toMatchObject({
      follower_mode_duration: 129_600,
      emote_mode: false,
    });
  });

  test("PATCH: scope 401, moderator_id ≠ token 401, a non-moderator 403; a moderator may", async () => {
    expectError(
      await patch({ follower_mode: true }, tokenFor("cuebotdemo", ["moderator:manage:chat_messages"])),
      401,
      "Missing scope: moderator:manage:chat_settings",
    );
    expectError(await patch({ follower_mode: true }, tokenFor("cuebotdemo"), SIM_IDS.bob), 401);
    expectError(await patch({ follower_mode: true }, tokenFor("subdave"), SIM_IDS.dave), 403);
    expect((await patch({ follower_mode: true }, tokenFor("modbob"), SIM_IDS.bob)).status).toBe(200);
    expect(sim.chat.settings("cuebotdemo").follower_mode).toBe(true);
  });

  test("GET: any token sees the modes; the chat delay and moderator_id only for a moderator with the scope", async () => {
    await patch({ follower_mode: true, follower_mode_duration: 10 });
    const plain = await callHelix<{ data: Record<string, unknown>[] }>(
      sim,
      tokenFor("subdave", []),
      "GET",
      "/chat/settings",
      {
        query: { broadcaster_id: DEMO },
      },
    );
    expect(plain.status).toBe(200);
    expect(plain.body.data[0]).toMatchObject({ follower_mode: true, follower_mode_duration: 10 });
    expect(plain.body.data[0]).not.toHaveProperty("non_moderator_chat_delay");
    const privileged = await callHelix<{ data: Record<string, unknown>[] }>(
      sim,
      tokenFor("modbob", ["moderator:read:chat_settings"]),
      "GET",
      "/chat/settings",
      { query: { broadcaster_id: DEMO, moderator_id: SIM_IDS.bob } },
    );
    expect(Object.keys(privileged.body.data[0]!).sort()).toEqual(FULL_KEYS);
    expectError(await callHelix(sim, tokenFor("subdave", []), "GET", "/chat/settings", { query: {} }), 400);
  });

  test("followers-only refuses a non-follower's line (msg_followersonly); followers, moderators and the broadcaster speak", async () => {
    await patch({ follower_mode: true });
    expect(sim.chat.trySay({ channel: "cuebotdemo", user: "lurker_eve", text: "hi" }).refused?.code).toBe(
      "msg_followersonly",
    );
    expect(
      sim.chat.trySay({ channel: "cuebotdemo", user: "free_viewers_bot", text: "cheap viewers" }).refused
        ?.code,
    ).toBe("msg_followersonly");
    for (const user of ["viewer_anna", "modbob", "cuebotdemo"]) {
      expect(sim.chat.trySay({ channel: "cuebotdemo", user, text: `${user} here` }).refused).toBeNull();
    }
    // With a duration, a recent follower (데모시청자 followed an hour before the epoch) must wait.
    await patch({ follower_mode: true, follower_mode_duration: 120 });
    expect(sim.chat.trySay({ channel: "cuebotdemo", user: "데모시청자", text: "안녕" }).refused?.code).toBe(
      "msg_followersonly_followed",
    );
    await patch({ follower_mode: false });
    expect(sim.chat.trySay({ channel: "cuebotdemo", user: "lurker_eve", text: "hi" }).refused).toBeNull();
  });
});

describe("the /_sim/chat hook over HTTP", () => {
  const simPost = (body: unknown) =>
    fetch(`${sim.authUrl}/_sim/chat/say`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const simLines = async () =>
    (
      (await (await fetch(`${sim.authUrl}/_sim/chat/lines?channel=cuebotdemo`)).json()) as {
        data: { messageId: string; text: string; deleted: boolean }[];
      }
    ).data;

  test("say takes emotes and Shared Chat fields; lines show deleted; a refused line answers message_id null", async () => {
    const said = await simPost({
      channel: "cuebotdemo",
      user: "viewer_anna",
      text: "Kappa Kappa",
      emotes: ["Kappa"],
      sourceChannel: "otherstreamer",
      sourceBadges: [{ set_id: "vip", id: "1", info: "" }],
      sourceOnly: true,
    });
    expect(said.status).toBe(200);
    const { message_id: id, refused } = (await said.json()) as { message_id: string; refused: null };
    expect(refused).toBeNull();
    expect((await deleteMessage(tokenFor("cuebotdemo"), { message_id: id })).status).toBe(204);
    expect((await simLines()).find((l) => l.messageId === id)).toMatchObject({
      text: "Kappa Kappa",
      deleted: true,
    });
    sim.chat.setRoomMode("cuebotdemo", { followersOnly: true });
    const refusedLine = await simPost({ channel: "cuebotdemo", user: "lurker_eve", text: "hi" });
    expect(await refusedLine.json()).toEqual({
      message_id: null,
      refused: { code: "msg_followersonly", message: "This room is in followers-only mode." },
    });
  });

  test("bad optional fields are 400 naming the field", async () => {
    for (const [field, value] of [
      ["emotes", "Kappa"],
      ["emotes", [1]],
      ["sourceChannel", 5],
      ["sourceBadges", [{ set_id: "vip" }]],
      ["sourceOnly", "yes"],
    ] as const) {
      const res = await simPost({ channel: "cuebotdemo", user: "viewer_anna", text: "hi", [field]: value });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain(field);
    }
  });
});
