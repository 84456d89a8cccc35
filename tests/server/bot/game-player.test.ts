// The game commands' player, set once for the four (issue 36): the panel's GET and PUT
// /api/dashboard/game-player, each command's detail level kept, a wrong value storing nothing.
import { afterEach, describe, expect, test } from "bun:test";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { TROLL_TEXTS } from "../../helpers/troll-texts.ts";

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

interface Listed {
  command: string;
  options: Record<string, unknown>;
}

const GAME = ["rank", "lastmatch", "today", "stats"];
const gameOptions = async () => {
  const listed = ((await (await h.panel("/api/dashboard/commands")).json()) as { data: Listed[] }).data;
  return Object.fromEntries(
    listed.filter((c) => GAME.includes(c.command)).map((c) => [c.command, c.options]),
  );
};
const getPlayer = async () =>
  ((await (await h.panel("/api/dashboard/game-player")).json()) as { data: unknown }).data;
const putPlayer = (body: unknown) =>
  h.panel("/api/dashboard/game-player", { method: "PUT", body: JSON.stringify(body) });

describe("the game commands' player", () => {
  test("none at first; one PUT sets it for all four, each detail level kept", async () => {
    h = await startBotHarness({
      configure: (config) => {
        config.game.apiKey = "HDEV-test";
      },
    });
    expect(await getPlayer()).toEqual({ player: null, differs: false, providerKey: true });
    await h.panel("/api/dashboard/commands/stats", {
      method: "PUT",
      body: JSON.stringify({ options: { type: 1 } }),
    });

    const res = await putPlayer({ region: " EU ", name: " Kestrel ", tag: "EUW" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({
      region: "eu",
      name: "Kestrel",
      tag: "EUW",
    });
    expect(await gameOptions()).toEqual({
      rank: { region: "eu", name: "Kestrel", tag: "EUW", type: 2 },
      lastmatch: { region: "eu", name: "Kestrel", tag: "EUW" },
      today: { region: "eu", name: "Kestrel", tag: "EUW", type: 2 },
      stats: { region: "eu", name: "Kestrel", tag: "EUW", type: 1 },
    });
    expect(await getPlayer()).toEqual({
      player: { region: "eu", name: "Kestrel", tag: "EUW" },
      differs: false,
      providerKey: true,
    });
  });

  test("players set one command at a time, as before, are shown as differing", async () => {
    h = await startBotHarness();
    const one = (command: string, name: string) =>
      h.panel(`/api/dashboard/commands/${command}`, {
        method: "PUT",
        body: JSON.stringify({ options: { region: "na", name, tag: "NA1" } }),
      });
    await one("rank", "Night Owl");
    await one("today", "Someone");
    expect(await getPlayer()).toEqual({
      player: { region: "na", name: "Night Owl", tag: "NA1" },
      differs: true,
      // Without CUEBOT_GAME_API_KEY: the dashboard says where to get one.
      providerKey: false,
    });
  });

  test("a wrong region, a too long tag or a troll's text is refused naming it, and nothing is stored", async () => {
    h = await startBotHarness();
    const before = await gameOptions();
    for (const body of [
      { region: "mars", name: "Kestrel", tag: "EUW" },
      { region: "eu", name: "Kestrel", tag: "TOOLONG" },
      { region: "eu", name: "Kestrel", tag: 5 },
      { region: "eu", name: TROLL_TEXTS.find((t) => t.length > 16) ?? "x".repeat(40), tag: "EUW" },
      { region: "eu", name: "Kes\u0000trel", tag: "EUW" },
    ]) {
      const res = await putPlayer(body);
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("bad_request");
    }
    expect(await gameOptions()).toEqual(before);
  });
});
