import { afterEach, expect, test } from "bun:test";
import { MAX_ATTEMPTS } from "../../../../server/sim/twitch/chat/send.ts";
import { MAX_REMEMBERED_NOTIFICATIONS } from "../../../../server/sim/twitch/eventsub/subscriptions.ts";
import { SIM_IDS } from "../../../../server/sim/twitch/world.ts";
import { callHelix } from "../../../helpers/helix.ts";
import { type AlertHarness, alertHarness } from "./eventsub-alert-helpers.ts";

/**
 * `serve --demo` runs the simulator in cuebot's own process for days: what it records for tests
 * (notifications for `redeliver`, Send Chat Message attempts for `sent()`) keeps only the newest, so
 * the demo's memory does not grow with its traffic (issue 26: the soak's +7 MB/h).
 */

let h: AlertHarness;
afterEach(() => h.stop());

test("redeliver reaches back over the newest notifications only, not every one since the start", async () => {
  h = alertHarness();
  const socket = await h.connect();
  const condition = { broadcaster_user_id: SIM_IDS.demo, moderator_user_id: SIM_IDS.demo };
  expect(
    (await h.subscribe(h.token("cuebotdemo"), socket.sessionId, "channel.follow", condition)).status,
  ).toBe(202);
  const ids: string[] = [];
  for (let i = 0; i <= MAX_REMEMBERED_NOTIFICATIONS; i++) {
    const { body } = await h.control<{ notifications: { message_ids: string[] }[] }>("emit", {
      broadcaster_user_id: SIM_IDS.demo,
      type: "follow",
    });
    ids.push(...(body.notifications[0]?.message_ids ?? []));
  }
  expect(ids).toHaveLength(MAX_REMEMBERED_NOTIFICATIONS + 1);
  expect((await h.control("redeliver", { message_id: ids[0] })).body).toEqual({ redelivered: 0 });
  expect((await h.control("redeliver", { message_id: ids[1] })).body).toEqual({ redelivered: 1 });
  expect((await h.control("redeliver", { message_id: ids.at(-1) })).body).toEqual({ redelivered: 1 });
});

test("sent() keeps the newest Send Chat Message attempts, oldest first", async () => {
  h = alertHarness();
  // Two senders: each token has its own bucket of 800 calls a minute.
  const senders = [
    { token: h.sim.issueUserToken("cuebotdemo", ["user:write:chat"]).accessToken, id: SIM_IDS.demo },
    { token: h.sim.issueUserToken("modbob", ["user:write:chat"]).accessToken, id: SIM_IDS.bob },
  ];
  const total = MAX_ATTEMPTS + 20;
  for (let i = 0; i < total; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, total - i) }, (_, k) => {
        const { token, id } = senders[(i + k) % 2]!;
        const body = { broadcaster_id: SIM_IDS.demo, sender_id: id, message: `line ${i + k}` };
        return callHelix(h.sim, token, "POST", "/chat/messages", { body });
      }),
    );
  }
  const sent = h.sim.chat.sent();
  expect(sent).toHaveLength(MAX_ATTEMPTS);
  expect(new Set(sent.map((s) => s.text)).has("line 0")).toBe(false);
  expect(sent.some((s) => s.text === `line ${total - 1}`)).toBe(true);
});
