import { afterEach, describe, expect, test } from "bun:test";
import { StoreUnavailableError } from "../../../db/store-unavailable.ts";
import { runCommand } from "../../../server/bot/runner.ts";
import { ApiError } from "../../../server/core/errors.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import { TEST_CALL_HEADER } from "../../../server/vocabulary.ts";
import { type BotHarness, NIGHTBOT, startBotHarness } from "../../helpers/bot.ts";
import { chance } from "../../helpers/chance.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const data = async (res: Response) => ((await res.json()) as { data: Record<string, unknown> }).data;
const error = async (res: Response) =>
  ((await res.json()) as { error: { code: string; message: string } }).error;
const EXTRA = { CUEBOT_TWITCH_EXTRA_SCOPES: "moderator:manage:shoutouts moderation:read" };

describe("shoutout", () => {
  test("names the channel, its last category and its link", async () => {
    h = await startBotHarness();
    const res = await h.bot("/api/bot/shoutout?user=@OtherStreamer");
    expect(await data(res)).toMatchObject({
      user: "OtherStreamer",
      game: "VALORANT",
      link: "https://twitch.tv/otherstreamer",
      platform_shoutout: "not_granted",
      text: "Go check out OtherStreamer! They were last playing VALORANT: https://twitch.tv/otherstreamer",
    });
  });

  test("with moderator:manage:shoutouts it also sends the platform shoutout; its cooldown becomes a clear note", async () => {
    h = await startBotHarness({ env: EXTRA });
    expect((await data(await h.bot("/api/bot/shoutout?user=otherstreamer"))).platform_shoutout).toBe("sent");
    const again = await data(await h.bot("/api/bot/shoutout?user=viewer_anna"));
    expect(again.platform_shoutout).toBe("cooldown");
    expect(again.text).toContain("Twitch's own shoutout is cooling down");
  });

  test("offline, the platform shoutout is skipped with a note and the line still comes", async () => {
    h = await startBotHarness({ env: EXTRA });
    h.sim.setLive(SIM_IDS.demo, false);
    const reply = await data(await h.bot("/api/bot/shoutout?user=otherstreamer"));
    expect(reply.platform_shoutout).toBe("not_live");
    expect(reply.text).toContain("only works while you are live");
  });

  test("a template or another channel's title that leads with a command character is not a command (JSON and text mode)", async () => {
    h = await startBotHarness();
    h.sim.world.channels.find((c) => c.broadcaster_id === SIM_IDS.other)!.title = "\u200B/ban cuebotdemo";
    const setTemplate = (message: string) =>
      h.panel("/api/dashboard/commands/shoutout", {
        method: "PUT",
        body: JSON.stringify({ options: { message } }),
      });
    const line = async () => ({
      json: (await data(await h.bot("/api/bot/shoutout?user=otherstreamer"))).text,
      text: await (await h.bot("/api/bot/shoutout?user=otherstreamer", NIGHTBOT("viewer"))).text(),
    });
    expect((await setTemplate("!so {name}")).status).toBe(200);
    expect(await line()).toEqual({ json: "so OtherStreamer", text: "so OtherStreamer" });
    expect((await setTemplate("{title} ({name})")).status).toBe(200);
    expect(await line()).toEqual({
      json: "ban cuebotdemo (OtherStreamer)",
      text: "ban cuebotdemo (OtherStreamer)",
    });
  });

  test("a channel with no category gets a line without one", async () => {
    h = await startBotHarness();
    expect((await data(await h.bot("/api/bot/shoutout?user=viewer_anna"))).text).toBe(
      "Go check out Viewer_Anna: https://twitch.tv/viewer_anna",
    );
  });

  test("bad input: missing, unknown, self", async () => {
    h = await startBotHarness();
    // Streamer.bot leaves %input0% in the URL when the viewer typed nothing.
    expect((await error(await h.bot("/api/bot/shoutout?user=%25input0%25"))).message).toContain(
      '"user" is missing',
    );
    expect((await error(await h.bot("/api/bot/shoutout"))).message).toContain('"user" is missing');
    expect((await error(await h.bot("/api/bot/shoutout?user=ghost_x"))).message).toBe(
      "User not found: ghost_x",
    );
    const self = await h.bot("/api/bot/shoutout?user=cuebotdemo");
    expect(self.status).toBe(400);
  });
});

describe("clip", () => {
  test("returns the clip link at once", async () => {
    h = await startBotHarness();
    const reply = await data(await h.bot("/api/bot/clip"));
    expect(reply.url).toMatch(/^https:\/\/clips\.twitch\.tv\/.+/);
    expect(reply.text).toBe(`Clip created: ${reply.url}`);
  });

  test("offline → '<channel> is offline'; 403 → a clear sentence; one 503 is retried", async () => {
    h = await startBotHarness();
    h.sim.setLive(SIM_IDS.demo, false);
    const offline = await h.bot("/api/bot/clip?format=text");
    expect(offline.headers.get("x-cuebot-status")).toBe("409");
    expect(await offline.text()).toBe("CuebotDemo is offline");
    h.sim.setLive(SIM_IDS.demo, true);
    h.sim.knobs.failNext.set("POST /clips", { status: 403 });
    const forbidden = await h.bot("/api/bot/clip");
    expect(forbidden.status).toBe(403);
    expect((await error(forbidden)).message).toContain("does not allow clipping");
    h.sim.knobs.failNext.set("POST /clips", { status: 503, times: 1 });
    expect((await h.bot("/api/bot/clip")).status).toBe(200);
  });
});

describe("magic8, dice, coinflip and pick", () => {
  test("magic8 answers from the channel's answers (configurable in the panel)", async () => {
    h = await startBotHarness({ random: chance(0) });
    expect((await data(await h.bot("/api/bot/magic8?question=Will it work?"))).text).toBe(
      "🎱 It is certain.",
    );
    const put = await h.panel("/api/dashboard/commands/magic8", {
      method: "PUT",
      body: JSON.stringify({ options: { answers: ["Only on Tuesdays."] } }),
    });
    expect(put.status).toBe(200);
    expect((await data(await h.bot("/api/bot/magic8"))).text).toBe("🎱 Only on Tuesdays.");
  });

  test("two panel updates of one command at once (two tabs): both changes are kept", async () => {
    h = await startBotHarness();
    const put = (body: object) =>
      h.panel("/api/dashboard/commands/magic8", { method: "PUT", body: JSON.stringify(body) });
    const [first, second] = await Promise.all([
      put({ options: { answers: ["Only on Tuesdays."] } }),
      put({ cooldownSeconds: 7 }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const listed = (await data(await h.panel("/api/dashboard/commands"))) as unknown as {
      command: string;
      cooldownSeconds: number;
      options: { answers: string[] };
    }[];
    expect(listed.find((c) => c.command === "magic8")).toMatchObject({
      cooldownSeconds: 7,
      options: { answers: ["Only on Tuesdays."] },
    });
  });

  test("dice roll within their sides; bad sides or count → 400 naming the parameter", async () => {
    h = await startBotHarness({ random: chance(0.99, 0, 0.5) });
    expect(await data(await h.bot("/api/bot/dice?count=3&sides=20"))).toMatchObject({
      rolls: [20, 1, 11],
      total: 32,
    });
    for (const query of ["sides=1", "sides=1001", "count=0", "count=11", "sides=abc"]) {
      const res = await h.bot(`/api/bot/dice?${query}`);
      expect(res.status).toBe(400);
      expect((await error(res)).message).toMatch(/"(sides|count)"/);
    }
  });

  test("coinflip and pick (never the broadcaster)", async () => {
    // The coin takes the first answer, the pick the second.
    h = await startBotHarness({ random: chance(0.1, 0) });
    const coin = await h.bot(
      "/api/bot/coinflip?format=json",
      NIGHTBOT("viewer_anna", "regular", "Viewer_Anna"),
    );
    // Named the way chat shows the caller (Nightbot's displayName), not by login.
    expect(await data(coin)).toEqual({ result: "heads", text: "🪙 Viewer_Anna flipped Heads!" });
    const pick = await data(await h.bot("/api/bot/pick"));
    expect(pick.user_login).toBe("viewer_anna");
    expect(pick.text).toBe("🎲 The chosen one is Viewer_Anna!");
  });
});

describe("roulette", () => {
  test("the caller loses and is timed out through the Ban API for the configured time", async () => {
    h = await startBotHarness({ random: chance(0) });
    const res = await h.bot("/api/bot/roulette", NIGHTBOT("viewer_anna"));
    expect(await res.text()).toBe("💥 BANG! Viewer_Anna lost the roulette and is timed out for 1 minute.");
    const ban = h.sim.world.bans.find((b) => b.user_id === SIM_IDS.anna);
    expect(ban?.expires_at).toBe(new Date(h.clock.now() + 60_000).toISOString().replace(/\.\d{3}Z$/, "Z"));
  });

  test("a win times out nobody", async () => {
    h = await startBotHarness({ random: chance(0.9) });
    expect(await (await h.bot("/api/bot/roulette", NIGHTBOT("viewer_anna"))).text()).toBe(
      "*click* — Viewer_Anna survives the roulette.",
    );
    expect(h.sim.world.bans).toHaveLength(0);
  });

  test("the broadcaster, moderators and VIPs are immune and the text says so", async () => {
    h = await startBotHarness({ env: EXTRA, random: chance(0) });
    expect(await (await h.bot("/api/bot/roulette?user=modbob&format=text")).text()).toBe(
      "💥 BANG! ModBob is immune as a moderator.",
    );
    expect(await (await h.bot("/api/bot/roulette?user=vipcarla&format=text")).text()).toBe(
      "💥 BANG! VipCarla is immune as a VIP.",
    );
    expect(await (await h.bot("/api/bot/roulette?user=cuebotdemo&format=text")).text()).toBe(
      "💥 BANG! CuebotDemo is immune as the broadcaster.",
    );
    expect(h.sim.world.bans).toHaveLength(0);
  });

  test("subscribers are immune when the channel protects them", async () => {
    h = await startBotHarness({ env: EXTRA, random: chance(0) });
    await h.panel("/api/dashboard/commands/roulette", {
      method: "PUT",
      body: JSON.stringify({ options: { protectSubscribers: true, timeoutSeconds: 300 } }),
    });
    expect(await (await h.bot("/api/bot/roulette?user=subdave&format=text")).text()).toBe(
      "💥 BANG! SubDave is immune as a subscriber.",
    );
    expect(await (await h.bot("/api/bot/roulette?user=viewer_anna&format=text")).text()).toBe(
      "💥 BANG! Viewer_Anna lost the roulette and is timed out for 5 minutes.",
    );
  });

  test("without a way to check moderators, nobody is timed out", async () => {
    h = await startBotHarness({ random: chance(0) });
    const text = await (await h.bot("/api/bot/roulette?user=viewer_anna&format=text")).text();
    expect(text).toContain("cannot check moderators");
    expect(h.sim.world.bans).toHaveLength(0);
  });

  test("target=random picks a chatter who is not immune", async () => {
    h = await startBotHarness({ env: EXTRA, random: chance(0) });
    const reply = await data(await h.bot("/api/bot/roulette?target=random"));
    expect(reply.user).toBe("Viewer_Anna");
    expect(reply.timed_out).toBe(true);
  });

  test("target=random without moderation:read is refused with the fix", async () => {
    h = await startBotHarness();
    const res = await h.bot("/api/bot/roulette?target=random");
    expect(res.status).toBe(403);
    expect((await error(res)).message).toContain("press Allow under !roulette");
  });
});

describe("per-channel settings, cooldowns and events", () => {
  test("a disabled command answers a clear sentence", async () => {
    h = await startBotHarness();
    await h.panel("/api/dashboard/commands/coinflip", {
      method: "PUT",
      body: JSON.stringify({ enabled: false }),
    });
    const res = await h.bot("/api/bot/coinflip?format=text");
    expect(res.headers.get("x-cuebot-status")).toBe("403");
    expect(await res.text()).toBe("The coinflip command is turned off for this channel.");
  });

  test("a cooldown answers 'on cooldown, N s' until it passes; panel tests ignore it", async () => {
    h = await startBotHarness();
    await h.panel("/api/dashboard/commands/magic8", {
      method: "PUT",
      body: JSON.stringify({ cooldownSeconds: 30 }),
    });
    expect((await h.bot("/api/bot/magic8")).status).toBe(200);
    h.clock.advance(12_000);
    const cooling = await h.bot("/api/bot/magic8?format=text");
    expect(await cooling.text()).toBe("magic8 is on cooldown, 18 s");
    expect(cooling.headers.get("x-cuebot-status")).toBe("429");
    expect((await h.panel("/api/dashboard/test/magic8", { method: "POST" })).status).toBe(200);
    h.clock.advance(18_000);
    expect((await h.bot("/api/bot/magic8")).status).toBe(200);
  });

  test("a lowered cooldown applies at once to a rest already under way; a raised one too", async () => {
    h = await startBotHarness();
    const cooldown = (cooldownSeconds: number) =>
      h.panel("/api/dashboard/commands/magic8", { method: "PUT", body: JSON.stringify({ cooldownSeconds }) });
    const line = async () => (await h.bot("/api/bot/magic8?format=text")).text();
    await cooldown(600);
    expect((await h.bot("/api/bot/magic8")).status).toBe(200);
    h.clock.advance(10_000);
    expect(await line()).toBe("magic8 is on cooldown, 590 s");
    await cooldown(30);
    const cooling = await h.bot("/api/bot/magic8");
    expect(cooling.status).toBe(429);
    expect(cooling.headers.get("retry-after")).toBe("20");
    await cooldown(5);
    expect((await h.bot("/api/bot/magic8")).status).toBe(200);
    await cooldown(0);
    expect((await h.bot("/api/bot/magic8")).status).toBe(200);
    await cooldown(60);
    expect(await line()).toBe("magic8 is on cooldown, 60 s");
    await cooldown(120);
    expect(await line()).toBe("magic8 is on cooldown, 120 s");
  });

  test("a failing command rests like a working one: a flood of unknown names gets one error line per cooldown", async () => {
    h = await startBotHarness();
    await h.panel("/api/dashboard/commands/shoutout", {
      method: "PUT",
      body: JSON.stringify({ cooldownSeconds: 30 }),
    });
    const lines: string[] = [];
    for (let i = 0; i < 5; i++)
      lines.push(await (await h.bot(`/api/bot/shoutout?user=nobody_${i}&format=text`)).text());
    expect(lines).toEqual(["User not found: nobody_0", ...Array(4).fill("shoutout is on cooldown, 30 s")]);
    h.clock.advance(30_000);
    expect(await (await h.bot("/api/bot/shoutout?user=otherstreamer&format=text")).text()).toStartWith(
      "Go check out OtherStreamer!",
    );
  });

  test("commands arriving together: one runs, the rest are told the cooldown (429 with Retry-After)", async () => {
    h = await startBotHarness();
    for (const command of ["followage", "shoutout"])
      await h.panel(`/api/dashboard/commands/${command}`, {
        method: "PUT",
        body: JSON.stringify({ cooldownSeconds: 30 }),
      });
    const together = (path: (i: number) => string) =>
      Promise.all(Array.from({ length: 6 }, (_, i) => h.bot(path(i))));
    for (const answers of [
      await together((i) => `/api/followage?channel=cuebotdemo&user=nobody_${i}`),
      await together((i) => `/api/bot/shoutout?user=nobody_${i}`),
    ]) {
      expect(answers.map((res) => res.status).sort()).toEqual([404, 429, 429, 429, 429, 429]);
      for (const res of answers.filter((r) => r.status === 429))
        expect(res.headers.get("retry-after")).toBe("30");
    }
  });

  test("a run that fails through no fault of its own gives its cooldown back; the command's own refusal keeps it", async () => {
    h = await startBotHarness();
    await h.panel("/api/dashboard/commands/magic8", {
      method: "PUT",
      body: JSON.stringify({ cooldownSeconds: 30 }),
    });
    const call = { ctx: h.ctx, account: h.account, command: "magic8" as const, caller: "viewer_anna" };
    const internal = () => Promise.reject(new Error("a bug"));
    await expect(Promise.resolve(runCommand(call, internal))).rejects.toThrow("a bug");
    await expect(
      Promise.resolve(runCommand(call, () => Promise.reject(new StoreUnavailableError("redis", "down")))),
    ).rejects.toThrow();
    expect((await h.bot("/api/bot/magic8")).status).toBe(200);
    h.clock.advance(30_000);
    const own = () => Promise.reject(new ApiError(404, "not_found", "User not found: nobody"));
    await expect(Promise.resolve(runCommand(call, own))).rejects.toThrow("User not found");
    const cooling = await h.bot("/api/bot/magic8");
    expect(cooling.status).toBe(429);
    expect(cooling.headers.get("retry-after")).toBe("30");
  });

  test("a panel test with a body previews unsaved settings; bad ones are refused like a save; nothing is stored", async () => {
    h = await startBotHarness();
    const preview = await h.panel("/api/dashboard/test/shoutout?user=otherstreamer", {
      method: "POST",
      body: JSON.stringify({ options: { message: "Follow {name} ({game})" } }),
    });
    expect((await data(preview)).text).toBe("Follow OtherStreamer (VALORANT)");
    const bad = await h.panel("/api/dashboard/test/magic8", {
      method: "POST",
      body: JSON.stringify({ options: { answers: [] } }),
    });
    expect(bad.status).toBe(400);
    expect((await error(bad)).message).toContain('"answers"');
    const saved = await data(await h.bot("/api/bot/shoutout?user=otherstreamer"));
    expect(saved.text).toStartWith("Go check out OtherStreamer!");
  });

  test("settings reject bad values with the field named, and save nothing", async () => {
    h = await startBotHarness();
    const bad: [string, unknown][] = [
      ["magic8", { cooldownSeconds: -1 }],
      ["magic8", { cooldownSeconds: 3601 }],
      ["magic8", { enabled: "yes" }],
      ["magic8", { options: { answers: [] } }],
      ["roulette", { options: { timeoutSeconds: 0 } }],
      ["roulette", { options: { chambers: 99 } }],
      ["shoutout", { options: { nonsense: 1 } }],
    ];
    for (const [command, body] of bad) {
      const res = await h.panel(`/api/dashboard/commands/${command}`, {
        method: "PUT",
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect((await error(res)).code).toBe("bad_request");
    }
    const unknown = await h.panel("/api/dashboard/commands/teleport", { method: "PUT", body: "{}" });
    expect(unknown.status).toBe(404);
    const list = (await (await h.panel("/api/dashboard/commands")).json()) as {
      data: { command: string; cooldownSeconds: number }[];
    };
    expect(list.data.map((c) => c.command)).toEqual([
      "followage",
      "shoutout",
      "magic8",
      "clip",
      "roulette",
      "pick",
      "dice",
      "coinflip",
      "rank",
      "lastmatch",
      "today",
      "stats",
    ]);
    expect(list.data.every((c) => c.cooldownSeconds === 0)).toBe(true);
  });

  test("every call is recorded for analytics and the activity feed", async () => {
    h = await startBotHarness();
    await h.bot("/api/bot/coinflip", NIGHTBOT("viewer_anna"));
    await h.bot("/api/followage?channel=cuebotdemo&user=ghost_x", NIGHTBOT("modbob"));
    const activity = (await data(await h.panel("/api/dashboard/activity"))) as {
      items: { command: string; caller: string; outcome: string }[];
    };
    expect(activity.items.map((i) => [i.command, i.caller, i.outcome])).toEqual([
      ["followage", "modbob", "not_found"],
      ["coinflip", "viewer_anna", "ok"],
    ]);
    const analytics = (await data(await h.panel("/api/dashboard/analytics?days=7"))) as Record<
      string,
      unknown
    >;
    expect(analytics).toMatchObject({ days: 7, total_calls: 2, ok_calls: 1, distinct_callers: 2 });
    expect((await h.panel("/api/dashboard/analytics?days=91")).status).toBe(400);
  });

  test("analytics per day and command (the dashboard's chart) and the top callers, panel tests left out", async () => {
    h = await startBotHarness();
    for (const viewer of ["viewer_anna", "viewer_anna", "modbob"])
      await h.bot("/api/bot/coinflip", NIGHTBOT(viewer));
    await h.bot("/api/bot/dice", NIGHTBOT("viewer_anna"));
    // The Commands tab's test, and Bot setup's "Test this line" (the bot's call, marked as a test).
    await h.panel("/api/dashboard/test/dice", { method: "POST" });
    const lineTest = await h.bot("/api/bot/dice", { ...NIGHTBOT("subdave"), [TEST_CALL_HEADER]: "1" });
    expect(lineTest.status).toBe(200);
    const analytics = (await data(await h.panel("/api/dashboard/analytics?days=1"))) as {
      total_calls: number;
      distinct_callers: number;
      by_day_command: { day: string; command: string; calls: number }[];
      top_callers: { caller: string; calls: number }[];
    };
    expect(analytics).toMatchObject({ total_calls: 4, distinct_callers: 2 });
    const today = new Date(h.clock.now()).toISOString().slice(0, 10);
    expect(analytics.by_day_command).toEqual([
      { day: today, command: "coinflip", calls: 3 },
      { day: today, command: "dice", calls: 1 },
    ]);
    expect(analytics.top_callers).toEqual([
      { caller: "viewer_anna", calls: 3 },
      { caller: "modbob", calls: 1 },
    ]);
    // Both tests are listed in the activity feed, marked.
    const activity = (await data(await h.panel("/api/dashboard/activity"))) as {
      items: { command: string; caller: string; test: boolean }[];
    };
    expect(activity.items.slice(0, 2).map((i) => [i.command, i.caller, i.test])).toEqual([
      ["dice", "subdave", true],
      ["dice", "", true],
    ]);
    expect(activity.items.slice(2).every((i) => !i.test)).toBe(true);
  });
});
