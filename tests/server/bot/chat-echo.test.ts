import { afterEach, describe, expect, test } from "bun:test";
import { ManualClock } from "../../../server/core/clock.ts";
import { type GameSimulator, startGameSimulator } from "../../../server/sim/game/server.ts";
import { type BotHarness, NIGHTBOT, startBotHarness } from "../../helpers/bot.ts";
import { createTestContext, type TestContext } from "../../helpers/context.ts";
import { expectNoEcho, TROLL_TEXTS } from "../../helpers/troll-texts.ts";

/**
 * CONTRACT §6: a reply never repeats what a chatter typed, except a login-shaped name. A bot prints
 * whatever cuebot answers under the streamer's name (past Twitch's link filter, AutoMod and blocked
 * terms), so neither the chat line (text mode) nor the JSON error message may carry a troll's text.
 */

describe("bot endpoints never repeat a troll's text", () => {
  let h: BotHarness;
  afterEach(async () => {
    await h.stop();
  });

  /** The chat line Nightbot would post, and the status behind it. */
  const line = async (path: string) => {
    const res = await h.bot(path, NIGHTBOT("viewer_anna"));
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    return { text: await res.text(), status: res.headers.get("x-cuebot-status") };
  };
  const json = async (path: string) => {
    const res = await h.bot(`${path}&format=json`, NIGHTBOT("viewer_anna"));
    return { status: res.status, body: (await res.json()) as { error?: { message: string } } & object };
  };

  test.each(TROLL_TEXTS)("a target of %j gets a fixed sentence, in chat and in JSON", async (typed) => {
    h = await startBotHarness();
    const q = encodeURIComponent(typed);
    for (const path of [
      `/api/bot/shoutout?user=${q}`,
      `/api/followage?user=${q}`,
      `/api/bot/roulette?user=${q}`,
    ]) {
      expect(await line(path)).toEqual({ text: "That user was not found.", status: "404" });
      const { status, body } = await json(path);
      expect(status).toBe(404);
      expect(body.error?.message).toBe("That user was not found.");
    }
    // Another channel named by a sentence: refused without repeating it.
    const other = await line(`/api/followage?channel=${q}&user=viewer_anna`);
    expect(other.status).toBe("403");
    expectNoEcho(other.text);
    // Dice and coin name the caller instead of a typed sentence.
    expect((await line(`/api/bot/dice?user=${q}`)).text).toMatch(/^🎲 viewer_anna rolled \d+ \(d6\)$/);
    expect((await line(`/api/bot/coinflip?user=${q}`)).text).toMatch(
      /^🪙 viewer_anna flipped (Heads|Tails)!$/,
    );
    for (const path of [
      `/api/bot/dice?sides=${q}`,
      `/api/bot/dice?count=${q}`,
      `/api/followage?user=viewer_anna&precision=${q}`,
    ])
      expectNoEcho((await line(path)).text);
  });

  test("a login-shaped name is still named, an @ dropped", async () => {
    h = await startBotHarness();
    expect(await line("/api/bot/shoutout?user=@ghost_x")).toEqual({
      text: "User not found: ghost_x",
      status: "404",
    });
    expect((await line("/api/followage?channel=otherstreamer&user=viewer_anna")).text).toContain(
      "not otherstreamer",
    );
    expect((await line("/api/bot/dice?user=@SubDave")).text).toMatch(/^🎲 SubDave rolled/);
  });
});

describe("the game API never repeats a troll's text", () => {
  let sim: GameSimulator;
  let t: TestContext;
  afterEach(async () => {
    await t.cleanup();
    await sim.stop();
  });

  const start = async () => {
    const clock = new ManualClock();
    sim = startGameSimulator({ clock });
    t = await createTestContext({
      clock,
      configure: (config) => {
        config.game.apiUrl = sim.url;
        config.game.apiKey = sim.apiKey;
      },
    });
  };
  const line = async (path: string) => {
    const res = await t.request(`/api/game${path}${path.includes("?") ? "&" : "?"}format=text`);
    return { text: await res.text(), status: res.headers.get("x-cuebot-status") };
  };
  const message = async (path: string) =>
    ((await (await t.request(`/api/game${path}`)).json()) as { error: { message: string } }).error.message;

  test("bad regions, names, tags and types are refused without the typed text", async () => {
    await start();
    const paths = [
      `/rank/${encodeURIComponent("evil.example/free")}/Kestrel/EUW`,
      `/rank/${encodeURIComponent("evil.example")}/Kestrel/EUW`,
      `/rank/eu/${encodeURIComponent("https://evil.example/free-subs")}/EUW`,
      `/rank/eu/${encodeURIComponent("free\u2800subs\u2800at\u2800evil")}/${encodeURIComponent("evil.example")}`,
      `/rank/eu/Kestrel/EUW?type=${encodeURIComponent("evil.example")}`,
      `/rank/eu/${encodeURIComponent("$(free subs at evil.example)")}/EUW`,
    ];
    for (const path of paths) {
      const got = await line(path);
      expect(got.status).toBe("400");
      expectNoEcho(got.text);
      expectNoEcho(await message(path));
    }
    expect((await line("/rank/euw/Kestrel/EUW")).text).toBe(
      '"euw" is not a game region; use one of na, eu, ap, kr, latam, br.',
    );
    expect((await line(`/rank/${encodeURIComponent("evil.example")}/Kestrel/EUW`)).text).toBe(
      "That is not a game region; use one of na, eu, ap, kr, latam, br.",
    );
  });

  test("an unknown player is named only when name and tag are login-shaped", async () => {
    await start();
    expect(await line("/rank/eu/Nobody/XYZ")).toEqual({
      text: "No player Nobody#XYZ exists; check the name and the tag.",
      status: "404",
    });
    const sentence = await line(
      `/rank/eu/${encodeURIComponent("free subs at")}/${encodeURIComponent("ev.il")}`,
    );
    expect(sentence).toEqual({
      text: "That player does not exist; check the name and the tag.",
      status: "404",
    });
  });
});
