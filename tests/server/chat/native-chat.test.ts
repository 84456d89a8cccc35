import { afterEach, describe, expect, test } from "bun:test";
import { readChatSettings, storeChatBot } from "../../../db/chat.ts";
import { updateCommandSettings } from "../../../server/bot/settings.ts";
import { removeAccount } from "../../../server/identity/account-removal.ts";
import { type GameSimulator, startGameSimulator } from "../../../server/sim/game/server.ts";
import type { SimBadge } from "../../../server/sim/twitch/chat/chatters.ts";
import { type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";
import { expectNoEcho, TROLL_TEXTS } from "../../helpers/troll-texts.ts";

let h: ChatHarness;
afterEach(async () => {
  await h.stop();
});

/** Chat's own subscriptions (a streamer's session also hears their stream go live: live/stream-state.ts). */
const chatSubscriptions = () => h.sim.chat.subscriptions().filter((s) => s.type === "channel.chat.message");

const connected = () =>
  waitFor(async () => (await h.ctx.chat.status(h.account.id)).state === "connected", 12_000);

/** The chat messages a limit kept from a reply, as the live layer tells them (its commandRefused hook). */
function refusedLines(): Set<string> {
  const refused = new Set<string>();
  h.ctx.live.hooks.commandRefused.bind((event) => {
    refused.add(event.messageId);
  });
  return refused;
}

const repliedTo = (messageId: string) =>
  h.sim.chat.sent().some((s) => s.replyParentMessageId === messageId && s.isSent);

/** What the bot endpoint answers, for comparison with the chat reply. */
async function httpText(path: string, headers: Record<string, string> = {}): Promise<string> {
  const separator = path.includes("?") ? "&" : "?";
  const res = await h.request(`${path}${separator}apiKey=${h.apiKey}`, { headers });
  const body = await res.text();
  // Nightbot's headers switch the endpoint to text mode: the body is the chat line itself.
  return body.startsWith("{") ? (JSON.parse(body) as { data: { text: string } }).data.text : body;
}

/** Moderators are not held to 3 answers per 30 s: tests that ask one chatter many things use one. */
const MODERATOR: SimBadge[] = [{ set_id: "moderator", id: "1", info: "" }];

const NIGHTBOT_ANNA = {
  "Nightbot-User":
    "name=viewer_anna&displayName=Viewer_Anna&provider=twitch&providerId=100003&userLevel=regular",
  "Nightbot-Channel": "name=cuebotdemo&displayName=CuebotDemo&provider=twitch&providerId=100001",
};

describe("native chat: from a chat line to the reply", () => {
  test("when the server closes, the stored state says chat is off because cuebot is not running", async () => {
    h = await startChatHarness();
    await h.startChat();
    expect(await connected()).toBe(true);
    await h.ctx.close();
    expect(await h.sql("SELECT state, reason FROM chat_settings")).toEqual([
      { state: "off", reason: "cuebot is not running" },
    ]);
  });

  test("connects over EventSub and reports connected, with the state stored for the CLI", async () => {
    h = await startChatHarness();
    await h.startChat();
    expect(await connected()).toBe(true);
    expect(chatSubscriptions()).toMatchObject([
      {
        status: "enabled",
        type: "channel.chat.message",
        condition: { broadcaster_user_id: "100001", user_id: "100001" },
      },
    ]);
    // The state is stored behind the change (one write after another): the CLI sees it moments later.
    const stored = await waitFor(async () => {
      const settings = await readChatSettings(h.ctx.db, h.account.id);
      return settings?.state === "connected" ? settings : null;
    });
    expect(stored).toMatchObject({ enabled: true, state: "connected" });
  });

  test("every command answers in chat, as a reply, with the bot endpoint's text", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    const ask = async (text: string, user = "viewer_anna") => {
      const id = h.sim.chat.say({ channel: "cuebotdemo", user, text, badges: MODERATOR });
      const reply = await h.replyTo(id);
      expect(reply).not.toBeNull();
      expect(reply!.senderId).toBe("100001");
      return reply!.text;
    };
    expect(await ask("!followage")).toBe(await httpText("/api/followage", NIGHTBOT_ANNA));
    expect(await ask("!followage @viewer_bob")).toBe(
      await httpText("/api/followage?user=viewer_bob", NIGHTBOT_ANNA),
    );
    expect(await ask("!so @otherstreamer")).toBe(await httpText("/api/bot/shoutout?user=otherstreamer"));
    expect(await ask("!shoutout otherstreamer")).toContain("Go check out OtherStreamer!");
    expect((await ask("!8ball will it work?")).length).toBeGreaterThan(0);
    expect(await ask("!clip")).toContain("clips.twitch.tv");
    expect(await ask("!dice 20")).toMatch(/^🎲 Viewer_Anna rolled \d+ \(d20\)$/);
    expect(await ask("!coinflip")).toMatch(/^🪙 Viewer_Anna flipped (Heads|Tails)!$/);
    expect(await ask("!pick")).toBeTruthy();
    expect(await ask("!roulette")).toContain("Viewer_Anna");
    // A user error is answered with its sentence, as text mode does.
    expect(await ask("!so @nobody_here_xyz")).toBe("User not found: nobody_here_xyz");
  });

  test("analytics record chat calls like bot calls", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    await h.replyTo(h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" }));
    await h.ctx.events.flush();
    const rows = await h.sql("SELECT command, caller, outcome FROM events");
    expect(rows).toEqual([{ command: "coinflip", caller: "viewer_anna", outcome: "ok" }]);
  });

  test("triggers: case-insensitive, aliases, disabled commands and other text get no reply", async () => {
    h = await startChatHarness();
    await updateCommandSettings(h.ctx, h.account.id, "coinflip", { enabled: false });
    await updateCommandSettings(h.ctx, h.account.id, "dice", { aliases: ["wuerfel", "d"] });
    await h.startChat();
    await connected();
    const say = (text: string) =>
      h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text, badges: MODERATOR });
    expect(await h.replyTo(say("!DICE"))).not.toBeNull();
    expect(await h.replyTo(say("!d 6"))).not.toBeNull();
    const silent = [
      say("!coinflip"),
      say("!flip"),
      say("!teleport"),
      say("hello !dice"),
      say("!"),
      say(""),
      say("x".repeat(10_000)),
      say("!dice".padEnd(10_000, " 6")),
      say("‮!dice ‭ 🧨\u0000\uFFFF"),
      say("!würfel"),
      say("!wuerfel"),
    ];
    // A reply to a later line proves the earlier ones were handled (one queue, in order).
    expect(await h.replyTo(say("!dice 4"))).not.toBeNull();
    for (const id of silent.slice(0, 6)) expect(await h.replyTo(id, 50)).toBeNull();
    expect((await h.ctx.chat.status(h.account.id)).state).toBe("connected");
  });

  test("a command switched off or given an alias while chat runs: the very next line follows the change", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    const say = (text: string) =>
      h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text, badges: MODERATOR });
    expect(await h.replyTo(say("!dice"))).not.toBeNull();
    await updateCommandSettings(h.ctx, h.account.id, "dice", { enabled: false });
    const off = say("!dice");
    await updateCommandSettings(h.ctx, h.account.id, "coinflip", { aliases: ["muenze"] });
    expect(await h.replyTo(say("!muenze"))).not.toBeNull();
    expect(await h.replyTo(off, 50)).toBeNull();
  });

  test("the streamer's own lines are answered when cuebot speaks as them, cuebot's echoes never; shared-chat lines from elsewhere are ignored", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    const own = h.sim.chat.say({ channel: "cuebotdemo", user: "cuebotdemo", text: "!coinflip" });
    const shared = h.sim.chat.say({
      channel: "cuebotdemo",
      user: "viewer_anna",
      text: "!coinflip",
      sourceChannel: "otherstreamer",
    });
    const later = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_bob", text: "!coinflip" });
    expect(await h.replyTo(later)).not.toBeNull();
    expect(await h.replyTo(own)).not.toBeNull();
    expect(await h.replyTo(shared, 50)).toBeNull();
    await Bun.sleep(100);
    // The echoes of cuebot's two replies (lines of the streamer's account) started nothing.
    expect(h.sim.chat.sent().filter((s) => s.isSent)).toHaveLength(2);
  });

  test("a redelivered message is answered once; a message stamped 11 minutes ago not at all", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    const id = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" });
    expect(await h.replyTo(id)).not.toBeNull();
    h.sim.chat.redeliver(id);
    h.sim.chat.redeliver(id);
    const stale = h.sim.chat.sayStale({ channel: "cuebotdemo", user: "viewer_anna", text: "!dice" });
    const last = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_bob", text: "!dice" });
    expect(await h.replyTo(last)).not.toBeNull();
    expect(h.sim.chat.sent().filter((s) => s.replyParentMessageId === id)).toHaveLength(1);
    expect(await h.replyTo(stale, 50)).toBeNull();
  });
});

describe("native chat: a separate bot account speaks", () => {
  test("the bot's token reads (user_id = bot) and sends (sender_id = bot); the streamer's grant needs no chat scope", async () => {
    h = await startChatHarness();
    const scopes = ["user:read:chat", "user:write:chat", "user:read:moderated_channels"];
    const issued = h.sim.issueUserToken("modbob", scopes);
    await storeChatBot(
      h.ctx.db,
      h.ctx.secrets,
      h.account.id,
      {
        twitchUserId: "100004",
        login: "modbob",
        displayName: "ModBob",
        ...issued,
        scopes,
        expiresAt: Date.now() + 3_600_000,
        needsReauth: false,
      },
      Date.now(),
    );
    await h.startChat({ scopes: ["user:read:email"] });
    expect(await connected()).toBe(true);
    expect(h.sim.chat.subscriptions()[0]!.condition).toEqual({
      broadcaster_user_id: "100001",
      user_id: "100004",
    });
    const id = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" });
    const reply = await h.replyTo(id);
    expect(reply).toMatchObject({ senderId: "100004", broadcasterId: "100001" });
    // The bot's own lines are never answered either.
    const own = h.sim.chat.say({ channel: "cuebotdemo", user: "modbob", text: "!coinflip" });
    expect(await h.replyTo(own, 100)).toBeNull();
  });

  test("a bot whose grant is revoked ends in needs_consent asking to link it again", async () => {
    h = await startChatHarness();
    const scopes = ["user:read:chat", "user:write:chat"];
    const issued = h.sim.issueUserToken("modbob", scopes);
    await storeChatBot(
      h.ctx.db,
      h.ctx.secrets,
      h.account.id,
      {
        twitchUserId: "100004",
        login: "modbob",
        displayName: "ModBob",
        ...issued,
        scopes,
        expiresAt: 0,
        needsReauth: false,
      },
      Date.now(),
    );
    h.sim.knobs.failRefresh = true;
    await h.startChat();
    expect(await waitFor(async () => (await h.ctx.chat.status(h.account.id)).state === "needs_consent")).toBe(
      true,
    );
    expect((await h.ctx.chat.status(h.account.id)).reason).toContain("modbob");
  });
});

describe("native chat: the connection survives", () => {
  test("a reconnect handover mid-stream loses and duplicates nothing, and does not resubscribe", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      if (i === 10) h.sim.chat.reconnect();
      ids.push(
        h.sim.chat.say({
          channel: "cuebotdemo",
          user: `viewer_${i}`,
          text: "!coinflip",
        }),
      );
      await Bun.sleep(2);
    }
    for (const id of ids) expect(await h.replyTo(id)).not.toBeNull();
    for (const id of ids)
      expect(h.sim.chat.sent().filter((s) => s.replyParentMessageId === id)).toHaveLength(1);
    const subs = chatSubscriptions();
    expect(subs).toHaveLength(1);
    const moved = await waitFor(
      () => h.sim.chat.sessions().filter((s) => s.status !== "closed").length === 1,
    );
    expect(moved).toBe(true);
    expect(subs[0]!.status).toBe("enabled");
    expect((await h.ctx.chat.status(h.account.id)).state).toBe("connected");
  });

  test("missed keepalives: the connection is treated as dead and comes back with a new subscription", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    const first = h.sim.chat.sessions()[0]!.id;
    h.sim.chat.dropKeepalives(true, first);
    const second = await waitFor(
      () => h.sim.chat.sessions().find((s) => s.id !== first && s.status === "connected"),
      12_000,
    );
    expect(second).not.toBeNull();
    // The chat subscription itself: the stream's online/offline ones on the same session may come first.
    const reading = await waitFor(
      () => chatSubscriptions().some((s) => s.sessionId === second!.id && s.status === "enabled"),
      12_000,
    );
    expect(reading).toBe(true);
    const id = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" });
    expect(await h.replyTo(id)).not.toBeNull();
    // A dead connection is noticed after the keepalive window, then reconnects after a backoff with
    // jitter: 0.5–2.6 s measured here, more on a loaded machine with PostgreSQL (5 s was passed in two CI
    // runs, so each wait allows 12 s).
  }, 30_000);

  test("close codes 4000/4005/4006 and a dropped socket reconnect; the next line is answered", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    for (const code of [4000, 4005, 4006, 1006] as const) {
      const current = h.sim.chat.sessions().find((s) => s.status === "connected")!;
      h.sim.chat.close(current.id, code);
      const next = await waitFor(
        async () =>
          h.sim.chat.subscriptions().find((s) => s.sessionId !== current.id && s.status === "enabled") &&
          (await h.ctx.chat.status(h.account.id)).state === "connected",
        8000,
      );
      expect(next).toBe(true);
    }
    const id = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" });
    expect(await h.replyTo(id)).not.toBeNull();
  });

  test("revocation ends in needs_consent, and nothing reconnects", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    h.sim.chat.revoke("100001", "authorization_revoked");
    expect(await waitFor(async () => (await h.ctx.chat.status(h.account.id)).state === "needs_consent")).toBe(
      true,
    );
    // The revocation frame says so; a token use racing it (refused, its refresh too: Twitch ended the
    // grant) may mark the account for a new login first, which says so instead. Either asks the streamer.
    expect((await h.ctx.chat.status(h.account.id)).reason).toMatch(/revoked|log in again/);
    await Bun.sleep(300);
    expect(h.sim.chat.sessions().filter((s) => s.status !== "closed")).toHaveLength(0);
    const sessionsAfter = h.sim.chat.sessions().length;
    await Bun.sleep(300);
    expect(h.sim.chat.sessions().length).toBe(sessionsAfter);
  });

  test("an expired token that can no longer be refreshed ends in needs_consent without a retry loop", async () => {
    h = await startChatHarness();
    h.sim.knobs.failRefresh = true;
    // Stored already due for a refresh, before chat starts: the runtime refreshes before subscribing,
    // and that fails. (Expiring it after the start raced the first subscribe, which could connect
    // with the still-valid token first and then had no reason to refresh.)
    await h.startChat({ expiresIn: 0 });
    // On PostgreSQL a refused refresh first looks 1.5 s for a pair another instance rotated.
    const needsConsent = async () => (await h.ctx.chat.status(h.account.id)).state === "needs_consent";
    expect(await waitFor(needsConsent, 12_000)).toBe(true);
    const count = h.sim.chat.sessions().length;
    await Bun.sleep(400);
    expect(h.sim.chat.sessions().length).toBe(count);
  }, 20_000);

  test("deleting the account closes its chat connection", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    await removeAccount(h.ctx, h.account, "panel");
    expect(await waitFor(() => h.sim.chat.sessions().every((s) => s.status === "closed"))).toBe(true);
  });

  test("without user:read:chat the account needs consent and no connection is opened", async () => {
    h = await startChatHarness();
    await h.startChat({ scopes: ["user:write:chat"] });
    expect(await h.ctx.chat.status(h.account.id)).toMatchObject({ enabled: true, state: "needs_consent" });
    await Bun.sleep(100);
    expect(h.sim.chat.sessions()).toHaveLength(0);
  });
});

describe("native chat: sending holds Twitch's limits", () => {
  test("a burst of 200 commands: never over the limit, nothing dropped by Twitch, the rest skipped and noted", async () => {
    h = await startChatHarness();
    await h.sql("UPDATE accounts SET role = 'Partner'");
    h.ctx.accounts.invalidate();
    await h.startChat();
    await connected();
    for (let i = 0; i < 200; i++)
      h.sim.chat.say({ channel: "cuebotdemo", user: `burst_${i}`, text: "!coinflip" });
    await waitFor(() => h.sim.chat.sent().length >= 10, 5000);
    await Bun.sleep(300);
    const sent = h.sim.chat.sent();
    expect(sent.every((s) => s.isSent)).toBe(true);
    const times = sent.map((s) => s.at).sort((a, b) => a - b);
    for (let i = 0; i < times.length; i++) {
      expect(times.filter((t) => t >= times[i]! && t < times[i]! + 30_000).length).toBeLessThanOrEqual(100);
    }
    await h.ctx.events.flush();
    const dropped = (
      await h.sql("SELECT CAST(count(*) AS INTEGER) AS n FROM events WHERE outcome LIKE 'reply_dropped:%'")
    )[0] as { n: number };
    expect(dropped.n).toBeGreaterThan(0);
  });

  test("a drop by Twitch shows in the activity feed with its reason and is not retried", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    h.sim.chat.knobs.forceDrop = { code: "msg_rejected", message: "Your message is being checked by mods." };
    h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" });
    expect(await waitFor(() => h.sim.chat.sent().length === 1)).toBe(true);
    await Bun.sleep(100);
    expect(h.sim.chat.sent()).toHaveLength(1);
    await h.ctx.events.flush();
    const rows = await h.sql("SELECT command, outcome FROM events ORDER BY id");
    expect(rows).toEqual([
      { command: "coinflip", outcome: "ok" },
      { command: "coinflip", outcome: "reply_dropped:msg_rejected" },
    ]);
  });
});

describe("native chat: game commands for the streamer's player", () => {
  let game: GameSimulator;
  afterEach(async () => {
    await game.stop();
  });

  test("!rank, !today, !stats and !lastmatch answer the game API's chat line; unset, they say how to set it", async () => {
    game = startGameSimulator({ anchor: "request" });
    h = await startChatHarness({
      configure: (config) => {
        config.game.apiUrl = game.url;
        config.game.apiKey = game.apiKey;
      },
    });
    await h.startChat();
    await connected();
    const ask = async (text: string) => {
      const reply = await h.replyTo(
        h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text, badges: MODERATOR }),
      );
      expect(reply).not.toBeNull();
      return reply!.text;
    };
    expect(await ask("!rank")).toBe(
      "The streamer has not set their VALORANT player for !rank yet (dashboard → Commands → Your VALORANT player).",
    );
    for (const command of ["rank", "lastmatch", "today", "stats"] as const) {
      await updateCommandSettings(h.ctx, h.account.id, command, {
        options: { region: "eu", name: "Kestrel", tag: "EUW" },
      });
    }
    const api = async (path: string) =>
      ((await (await h.request(`/api/game/${path}`)).json()) as { data: { text: string } }).data.text;
    expect(await ask("!rank")).toBe(await api("rank/eu/Kestrel/EUW?type=2"));
    expect(await ask("!today")).toBe(await api("today/eu/Kestrel/EUW?type=2"));
    expect(await ask("!stats")).toBe(await api("stats/eu/Kestrel/EUW?type=3"));
    expect(await ask("!lastgame")).toBe(await api("match/last/eu/Kestrel/EUW"));
  });

  test("a bad player setting is refused naming the field, and nothing is stored", async () => {
    game = startGameSimulator();
    h = await startChatHarness();
    await expect(
      updateCommandSettings(h.ctx, h.account.id, "rank", { options: { region: "mars" } }),
    ).rejects.toThrow('The option "region" of rank is not valid');
    await expect(
      updateCommandSettings(h.ctx, h.account.id, "rank", { options: { type: 4 } }),
    ).rejects.toThrow('The option "type" of rank is not valid');
    await expect(
      updateCommandSettings(h.ctx, h.account.id, "stats", { options: { name: "x".repeat(17) } }),
    ).rejects.toThrow('The option "name" of stats is not valid');
  });
});

describe("native chat: no troll can make the bot post their text or silence the channel", () => {
  /** Sends `text` as `user` and waits for cuebot's reply (null: none came). */
  const ask = async (text: string, user: string, ms?: number) =>
    (await h.replyTo(h.sim.chat.say({ channel: "cuebotdemo", user, text }), ms))?.text ?? null;

  test("links, sentences and odd Unicode as arguments never come back in a reply", async () => {
    h = await startChatHarness();
    await h.sql("UPDATE accounts SET role = 'Partner'");
    h.ctx.accounts.invalidate();
    await h.startChat();
    await connected();
    expect(await ask("!so https://evil.example/free-subs", "troll_0")).toBe("That user was not found.");
    expect(await ask("!followage free\u2800subs\u2800at\u2800evil\u2800example", "troll_1")).toBe(
      "That user was not found.",
    );
    const commands = ["so", "followage", "roulette", "8ball", "dice", "coinflip", "clip", "pick"];
    let n = 2;
    for (const command of commands) {
      // Chat splits at spaces: of a sentence, only its first word is the argument (below).
      for (const typed of TROLL_TEXTS.filter((text) => !text.includes(" "))) {
        const reply = await ask(`!${command} ${typed}`, `troll_${n++}`);
        expect(reply).not.toBeNull();
        expectNoEcho(reply!);
      }
    }
    // A login-shaped name is still named: of a sentence, its first word at most.
    expect(await ask("!so @nobody_here_xyz", `troll_${n++}`)).toBe("User not found: nobody_here_xyz");
    expect(await ask("!so FREE subs at evil.example", `troll_${n++}`)).toBe("User not found: FREE");
  }, 30_000);

  test("32 × !followage from one viewer: 3 answers, and the streamer's own bot keeps its whole quota", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    for (let i = 0; i < 32; i++)
      h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: `!followage nobody_${i}` });
    expect(await waitFor(() => h.sim.chat.sent().length >= 3)).toBeTruthy();
    await Bun.sleep(300);
    const sent = h.sim.chat.sent().map((s) => s.text);
    expect(sent).toHaveLength(3);
    for (const text of sent) expect(text).toMatch(/^User not found: nobody_\d+$/);
    const nightbot = await h.request(`/api/followage?apiKey=${h.apiKey}`, { headers: NIGHTBOT_ANNA });
    expect(nightbot.headers.get("x-cuebot-status")).toBe("200");
    expect(nightbot.headers.get("x-ratelimit-remaining")).toBe("29");
    // Another viewer is still answered; so is the flooding one, 30 s later (not waited for here).
    expect(await ask("!coinflip", "viewer_bob")).toMatch(/flipped/);
  });

  test("the broadcaster and moderators are not held to 3 answers per 30 s", async () => {
    h = await startChatHarness();
    // A linked bot speaks, so the broadcaster's own lines are commands too.
    const scopes = ["user:read:chat", "user:write:chat"];
    await storeChatBot(
      h.ctx.db,
      h.ctx.secrets,
      h.account.id,
      {
        twitchUserId: "100005",
        login: "vipcarla",
        displayName: "VipCarla",
        ...h.sim.issueUserToken("vipcarla", scopes),
        scopes,
        expiresAt: Date.now() + 3_600_000,
        needsReauth: false,
      },
      Date.now(),
    );
    await h.startChat();
    await connected();
    const refused = refusedLines();
    /** Five lines of `user`: how many were answered, once each was answered or refused. */
    const answered = async (user: string, badges?: SimBadge[]) => {
      const ids = Array.from({ length: 5 }, () =>
        h.sim.chat.say({ channel: "cuebotdemo", user, text: "!coinflip", badges }),
      );
      const settled = () => ids.every((id) => repliedTo(id) || refused.has(id));
      expect(await waitFor(settled, 10_000)).toBe(true);
      await Bun.sleep(200);
      // Each line one way or the other, never both.
      expect(ids.filter((id) => repliedTo(id) && refused.has(id))).toEqual([]);
      return ids.filter(repliedTo).length;
    };
    expect(await answered("cuebotdemo")).toBe(5);
    expect(await answered("modbob")).toBe(5);
    expect(await answered("viewer_anna")).toBe(3);
    // A lead moderator wears Twitch's lead_moderator badge instead of the moderator one.
    const LEAD: SimBadge[] = [{ set_id: "lead_moderator", id: "1", info: "" }];
    expect(await answered("viewer_lena", LEAD)).toBe(5);
  });

  test("many chatters share the channel's chat budget (the role's bot quota per minute), never the API key's", async () => {
    h = await startChatHarness();
    await h.startChat();
    await connected();
    // In groups of 5, each answered before the next (cuebot's send queue holds 10 replies at most).
    const lines: string[] = [];
    const say = (i: number) =>
      lines.push(h.sim.chat.say({ channel: "cuebotdemo", user: `crowd_${i}`, text: "!coinflip" }));
    const answered = () => {
      const sent = h.sim.chat.sent();
      return lines.map((id) => sent.some((s) => s.replyParentMessageId === id && s.isSent));
    };
    for (let i = 0; i < 45; i++) {
      say(i);
      if (i % 5 === 4)
        expect(await waitFor(() => answered().filter(Boolean).length >= Math.min(i + 1, 30), 10_000)).toBe(
          true,
        );
    }
    await Bun.sleep(300);
    // The 1st to the 30th chatter are answered, each once; the 31st to the 45th get no reply.
    expect(answered()).toEqual([...Array(30).fill(true), ...Array(15).fill(false)]);
    expect(h.sim.chat.sent()).toHaveLength(30);
    const nightbot = await h.request(`/api/bot/coinflip?apiKey=${h.apiKey}`, { headers: NIGHTBOT_ANNA });
    expect(nightbot.headers.get("x-cuebot-status")).toBe("200");
    expect(nightbot.headers.get("x-ratelimit-remaining")).toBe("29");
    expect(await ask("!coinflip", "crowd_late", 300)).toBeNull();
  });

  test("a failing command is not answered more often than its cooldown allows", async () => {
    h = await startChatHarness();
    await updateCommandSettings(h.ctx, h.account.id, "shoutout", { cooldownSeconds: 30 });
    await h.startChat();
    await connected();
    const refused = refusedLines();
    // The first is answered (after a user lookup: up to 10 s under load); the others are refused for the
    // cooldown, and never answered.
    expect(await ask("!so https://evil.example/0", "troll_0", 10_000)).toBe("That user was not found.");
    const later = [1, 2, 3].map((i) =>
      h.sim.chat.say({ channel: "cuebotdemo", user: `troll_${i}`, text: `!so https://evil.example/${i}` }),
    );
    expect(await waitFor(() => later.every((id) => refused.has(id)), 10_000)).toBe(true);
    await Bun.sleep(300);
    expect(later.filter(repliedTo)).toEqual([]);
  });

  test("lines during a cooldown get no reply and cost no answer: the chatter and the channel are answered after it", async () => {
    h = await startChatHarness();
    // 5 s: room for the 38 lines below to be read within the rest on a loaded machine.
    await updateCommandSettings(h.ctx, h.account.id, "coinflip", { cooldownSeconds: 5 });
    await h.startChat();
    await connected();
    expect(await ask("!coinflip", "viewer_bob")).toMatch(/flipped/);
    // During the rest: viewer_anna three times, and 35 others (more than the channel's 30 a minute).
    for (let i = 0; i < 3; i++)
      h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_anna", text: "!coinflip" });
    for (let i = 0; i < 35; i++)
      h.sim.chat.say({ channel: "cuebotdemo", user: `crowd_${i}`, text: "!coinflip" });
    await Bun.sleep(5_100);
    expect(h.sim.chat.sent()).toHaveLength(1);
    expect(await ask("!coinflip", "viewer_anna")).toMatch(/^🪙 Viewer_Anna flipped/);
    expect(await ask("!dice", "viewer_carl")).toMatch(/rolled/);
  });

  test("8 chatters asking at once for a command with a cooldown: one reply in chat", async () => {
    h = await startChatHarness();
    await updateCommandSettings(h.ctx, h.account.id, "shoutout", { cooldownSeconds: 30 });
    await h.startChat();
    await connected();
    for (let i = 0; i < 8; i++)
      h.sim.chat.say({ channel: "cuebotdemo", user: `crowd_${i}`, text: `!so @nobody_${i}` });
    expect(await waitFor(() => h.sim.chat.sent().length >= 1)).toBeTruthy();
    await Bun.sleep(300);
    const sent = h.sim.chat.sent().map((s) => s.text);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^User not found: nobody_\d$/);
  });
});
