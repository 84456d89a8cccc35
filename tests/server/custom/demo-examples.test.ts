/**
 * `serve --demo`: the demo streamer's channel starts with example commands, a timer and quotes (issue
 * 24), stored at the first login when the account has none, never twice; the simulated chat answers
 * them and the panel routes list them.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { listCustomCommands } from "../../../db/custom-commands.ts";
import { listTimers } from "../../../db/timers.ts";
import type { Config } from "../../../server/core/config.ts";
import { DEMO_COMMANDS, DEMO_QUOTES, DEMO_TIMER, seedDemoChatBot } from "../../../server/demo-seed.ts";
import { type GameSimulator, startGameSimulator } from "../../../server/sim/game/server.ts";
import { type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";
import { type IdentityHarness, startIdentityHarness } from "../../helpers/twitch.ts";

let h: IdentityHarness | undefined;
let chat: ChatHarness | undefined;
let game: GameSimulator | undefined;
afterEach(async () => {
  await h?.stop();
  await chat?.stop();
  await game?.stop();
  h = chat = game = undefined;
});

interface Listed<T> {
  data: { items: T[] };
}

async function panel<T>(cookie: string, path: string): Promise<T[]> {
  const res = await h!.request(path, { headers: { cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as Listed<T>).data.items;
}

const NAMES = ["deaths", "discord", "hug", "lurk"];

function inDemo(config: Config): void {
  config.demo = true;
}

describe("the demo's chat-bot examples", () => {
  test("the demo streamer's first login stores them; the panel routes list them; a second login adds nothing", async () => {
    h = await startIdentityHarness({ configure: inDemo });
    const { cookie } = await h.login("cuebotdemo");
    const commands = await panel<{ name: string; response: string }>(
      cookie,
      "/api/dashboard/custom-commands",
    );
    expect(commands.map((c) => c.name).sort()).toEqual(NAMES);
    expect(commands.find((c) => c.name === "discord")?.response).toContain("https://discord.gg/cuebot-demo");
    const timers = await panel<{ name: string; message: string }>(cookie, "/api/dashboard/timers");
    expect(timers.map((t) => t.message)).toEqual([DEMO_TIMER.message]);
    const quotes = await panel<{ number: number; text: string; game: string }>(
      cookie,
      "/api/dashboard/quotes",
    );
    expect(quotes.map((q) => q.text).sort()).toEqual(DEMO_QUOTES.map((q) => q.text).sort());
    expect(quotes.map((q) => q.number).sort()).toEqual([1, 2, 3]);

    // Logging in again (or the visitor having changed them) stores nothing more.
    const again = await h.login("cuebotdemo");
    expect((await panel(again.cookie, "/api/dashboard/custom-commands")).length).toBe(DEMO_COMMANDS.length);
    expect((await panel(again.cookie, "/api/dashboard/timers")).length).toBe(1);
    expect((await panel(again.cookie, "/api/dashboard/quotes")).length).toBe(3);
  });

  test("another demo user's account, and any account outside the demo, get none", async () => {
    h = await startIdentityHarness({ configure: inDemo });
    const { cookie } = await h.login("viewer_anna");
    expect(await panel(cookie, "/api/dashboard/custom-commands")).toEqual([]);
    await h.stop();
    h = await startIdentityHarness();
    const real = await h.login("cuebotdemo");
    expect(await panel(real.cookie, "/api/dashboard/custom-commands")).toEqual([]);
    expect(await panel(real.cookie, "/api/dashboard/quotes")).toEqual([]);
  });

  test("the simulated chat answers them", async () => {
    chat = await startChatHarness({ configure: inDemo });
    expect(await seedDemoChatBot(chat.ctx, chat.account)).toBe(true);
    expect(await seedDemoChatBot(chat.ctx, chat.account)).toBe(false);
    expect((await listCustomCommands(chat.ctx.db, chat.account.id)).length).toBe(4);
    expect((await listTimers(chat.ctx.db, chat.account.id)).length).toBe(1);
    await chat.startChat();
    const c = chat;
    await waitFor(async () => (await c.ctx.chat.status(c.account.id)).state === "connected");
    const ask = async (text: string, user = "viewer_anna") =>
      (await c.replyTo(c.sim.chat.say({ channel: "cuebotdemo", user, text }), 3000))?.text ?? null;
    expect(await ask("!discord")).toBe("Join the community Discord: https://discord.gg/cuebot-demo");
    expect(await ask("!lurk", "lurker_eve")).toBe("Lurker_Eve is lurking in the shadows. Enjoy the stream!");
    expect(await ask("!hug @modbob", "subdave")).toBe("SubDave gives modbob a warm hug!");
    expect(await ask("!deaths", "vipcarla")).toBe("The streamer has died 1 times so far.");
    expect(await ask("!quote 2", "viewer_bob")).toMatch(
      /^Quote #2: "That was the plan all along\." \(VALORANT, /,
    );
  });

  test("the game commands report on a player the simulated provider knows: !rank answers a rank", async () => {
    const provider = startGameSimulator({ anchor: "request" });
    game = provider;
    chat = await startChatHarness({
      configure: (config) => {
        inDemo(config);
        config.game.apiUrl = provider.url;
        config.game.apiKey = provider.apiKey;
      },
    });
    await seedDemoChatBot(chat.ctx, chat.account);
    await chat.startChat();
    const c = chat;
    await waitFor(async () => (await c.ctx.chat.status(c.account.id)).state === "connected");
    const ask = async (text: string) =>
      (await c.replyTo(c.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text }), 3000))?.text ??
      null;
    const api = async (path: string) =>
      ((await (await c.request(`/api/game/${path}`)).json()) as { data: { text: string } }).data.text;
    expect(await ask("!rank")).toBe(await api("rank/eu/Kestrel/EUW?type=2"));
    expect(await ask("!stats")).toBe(await api("stats/eu/Kestrel/EUW?type=3"));
  });
});
