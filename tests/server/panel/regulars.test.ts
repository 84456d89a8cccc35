import { afterEach, describe, expect, test } from "bun:test";
import { CHAT_BOT_LIMITS } from "../../../db/chat-bot-rules.ts";
import { addRegular, listRegulars, type Regular } from "../../../db/regulars.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { TROLL_TEXTS } from "../../helpers/troll-texts.ts";
import { call, expectDocumented, expectPanelSecurity, expectRefusal } from "./chat-bot-panel.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const BASE = "/api/dashboard/regulars";
const stored = () => listRegulars(h.ctx.db, h.account.id);

describe("regulars on the dashboard", () => {
  test("add by login (Twitch's user id looked up), list, add again, remove", async () => {
    h = await startBotHarness();
    expect((await call(h, "GET", BASE)).body.data).toEqual({ items: [], limit: 1000 });
    const added = await call(h, "POST", BASE, { login: "@Viewer_Anna" });
    expect(added).toMatchObject({
      status: 200,
      body: { data: { twitchUserId: SIM_IDS.anna, login: "viewer_anna", added: true } },
    });
    await call(h, "POST", BASE, { login: "modbob" });
    expect((await call(h, "POST", BASE, { login: "viewer_anna" })).body.data).toMatchObject({ added: false });
    const listed = (await call<{ items: Regular[] }>(h, "GET", BASE)).body.data.items;
    expect(listed.map((r) => [r.login, r.twitchUserId])).toEqual([
      ["modbob", SIM_IDS.bob],
      ["viewer_anna", SIM_IDS.anna],
    ]);

    const removed = await call<{ removed: Regular[] }>(h, "DELETE", `${BASE}/Viewer_Anna`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.removed.map((r) => r.twitchUserId)).toEqual([SIM_IDS.anna]);
    expect((await stored()).map((r) => r.login)).toEqual(["modbob"]);
    // Native chat's memory of the list follows every change.
    expect([...(await h.ctx.chatBot.regulars(h.account.id))]).toEqual([SIM_IDS.bob]);
  });

  test("what cannot be a login is refused naming the field; an unknown user is 404; nothing is stored", async () => {
    h = await startBotHarness();
    for (const body of [{}, { login: "" }, { login: 7 }, { login: "two words" }, { login: "x".repeat(26) }]) {
      expectRefusal(await call(h, "POST", BASE, body), 400, "bad_request", "login");
    }
    for (const text of TROLL_TEXTS) {
      const reply = await call(h, "POST", BASE, { login: text });
      expectRefusal(reply, 400, "bad_request", "login");
      expect(reply.body.error.message).not.toContain(text);
    }
    expectRefusal(await call(h, "POST", BASE, { login: "anna", id: "1" }), 400, "bad_request", "id");
    expectRefusal(await call(h, "POST", BASE, { login: "nobody_here_at_all" }), 404, "not_found");
    expectRefusal(await call(h, "DELETE", `${BASE}/nobody`), 404, "not_found", "login");
    expectRefusal(await call(h, "DELETE", `${BASE}/bad%20login`), 400, "bad_request", "login");
    // Checked before it is folded: the Kelvin sign is not a "k", so this is not lurker_eve.
    expectRefusal(await call(h, "POST", BASE, { login: "lur\u212Aer_eve" }), 400, "bad_request", "login");
    expect(await stored()).toEqual([]);
  });

  test("a full list is 409; Twitch failing is 502; neither stores anything", async () => {
    h = await startBotHarness();
    const now = h.ctx.clock.now();
    for (let i = 0; i < CHAT_BOT_LIMITS.regularsPerAccount; i++) {
      await addRegular(h.ctx.db, h.account.id, { twitchUserId: String(900_000 + i), login: `r${i}` }, now);
    }
    expectRefusal(await call(h, "POST", BASE, { login: "lurker_eve" }), 409, "limit_reached", "login");
    await h.panel(`${BASE}/r0`, { method: "DELETE" });
    h.sim.knobs.failNext.set("GET /users", { status: 500, times: 2 });
    expectRefusal(await call(h, "POST", BASE, { login: "subdave" }), 502, "upstream_error");
    const logins = (await stored()).map((r) => r.login);
    expect(logins).toHaveLength(CHAT_BOT_LIMITS.regularsPerAccount - 1);
    expect(logins).not.toContain("lurker_eve");
    expect(logins).not.toContain("subdave");
  });

  test("no session is 401, a foreign Origin 403, and /docs lists the routes with the panel's security", async () => {
    h = await startBotHarness();
    await call(h, "POST", BASE, { login: "viewer_anna" });
    await expectPanelSecurity(h, [
      { method: "GET", path: BASE },
      { method: "POST", path: BASE, body: { login: "modbob" } },
      { method: "DELETE", path: `${BASE}/viewer_anna` },
    ]);
    expect((await stored()).map((r) => r.login)).toEqual(["viewer_anna"]);
    await expectDocumented(h, { [BASE]: ["get", "post"], [`${BASE}/{login}`]: ["delete"] });
  });
});
