/**
 * cuebot's own lines known by what it sent, not by who spoke (issue 24): when cuebot speaks as the
 * streamer, the streamer's own commands are answered and cuebot's echoes never are, even a reply that
 * reads as a command once Twitch's reply mention is dropped (`@CuebotDemo !pong`: no line cuebot sends
 * opens with `!` itself, core/chat-lead.ts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { OWN_LINE_MS, OwnLines } from "../../../server/chat/own-lines.ts";
import { REPLIES } from "../../../server/custom/changes.ts";
import { saveProviderTokens } from "../../../server/identity/provider-tokens.ts";
import type { HelixApi } from "../../../server/twitch/helix-api.ts";
import { BASE_SCOPES, READ_CHAT_SCOPE } from "../../../server/twitch/scopes.ts";
import { type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";
import { REPLY_WAIT_MS, waitUntilReading } from "../../helpers/custom-chat.ts";

const echo = (messageId: string, text: string, replyParentLogin: string | null = null) => ({
  messageId,
  text,
  replyParentLogin,
});

describe("OwnLines", () => {
  test("an echo arriving before Helix answers waits for its message id, and is known once", async () => {
    let now = 1_000;
    const lines = new OwnLines(() => now);
    const send = lines.sending("Command  !x added. ");
    const judged = lines.isOwn(echo("m1", "Command !x added."));
    send.sent("m1", true);
    expect(await judged).toBe(true);
    // Redelivered: still ours. The same text typed by the streamer afterwards is theirs.
    expect(await lines.isOwn(echo("m1", "Command !x added."))).toBe(true);
    now += 1_000;
    expect(await lines.isOwn(echo("m2", "Command !x added."))).toBe(false);
  });

  test("the streamer typing the text cuebot is sending keeps their line, and cuebot's echo is still ours", async () => {
    const lines = new OwnLines(() => 0);
    const send = lines.sending("!lurk");
    // The streamer's own !lurk (s1) arrives while the send is in flight.
    const streamers = lines.isOwn(echo("s1", "!lurk"));
    send.sent("c1", true);
    expect(await streamers).toBe(false);
    // cuebot's real echo (c1) is known by its id: not answered as the broadcaster.
    expect(await lines.isOwn(echo("c1", "!lurk"))).toBe(true);
  });

  test("two sends of one text in flight: each echo is matched by its own id", async () => {
    const lines = new OwnLines(() => 0);
    const first = lines.sending("!lurk", "a");
    const second = lines.sending("!lurk", "b");
    const secondEcho = lines.isOwn(echo("c2", "!lurk"));
    const streamers = lines.isOwn(echo("s1", "!lurk"));
    first.sent("c1", true);
    second.sent("c2", true);
    expect(await secondEcho).toBe(true);
    expect(await streamers).toBe(false);
    expect(await lines.isOwn(echo("c1", "!lurk"))).toBe(true);
  });

  test("a send that answers only after the wait: the line matched by text meanwhile, its echo is still ours", async () => {
    const lines = new OwnLines(() => 0);
    const send = lines.sending("!lurk");
    // Helix has not answered within the wait: the line is judged by its text.
    const judged = lines.isOwn(echo("s1", "!lurk"));
    expect(await Promise.race([judged, Bun.sleep(5_500).then(() => "late")])).toBe(true);
    send.sent("c1", true);
    expect(await lines.isOwn(echo("c1", "!lurk"))).toBe(true);
  }, 10_000);

  test("a send that returned no message id is known by its text", async () => {
    const lines = new OwnLines(() => 0);
    const send = lines.sending("!pong");
    const judged = lines.isOwn(echo("c1", "!pong"));
    send.sent(null, true);
    expect(await judged).toBe(true);
    expect(await lines.isOwn(echo("s1", "!pong"))).toBe(false);
  });

  test("a send Twitch certainly refused (a 4xx, a 429) is forgotten at once", async () => {
    const lines = new OwnLines(() => 0);
    lines.sending("!lurk").failed(false);
    expect(await lines.isOwn(echo("s1", "!lurk"))).toBe(false);
  });

  test("a send that may have posted (a timeout, a 5xx) is known by its text; its retry is the same line", async () => {
    const lines = new OwnLines(() => 0);
    lines.sending("!lurk", "m0").failed(true);
    // The retry of the same reply takes the line over: once it answers, only its id is ours.
    lines.sending("!lurk", "m0").sent("c1", true);
    expect(await lines.isOwn(echo("s1", "!lurk"))).toBe(false);
    expect(await lines.isOwn(echo("c1", "!lurk"))).toBe(true);
    // A failure that may have posted, never retried: its text is ours once.
    lines.sending("!deaths +", "m1").failed(true);
    expect(await lines.isOwn(echo("c2", "!deaths +"))).toBe(true);
    expect(await lines.isOwn(echo("s2", "!deaths +"))).toBe(false);
  });

  test("an echo after Helix answered is known by its message id, whatever Twitch did to its text", async () => {
    const lines = new OwnLines(() => 0);
    lines.sending("hello there").sent("m1", true);
    expect(await lines.isOwn(echo("m1", "@viewer_anna hello there", "viewer_anna"))).toBe(true);
    expect(await lines.isOwn(echo("m9", "hello there"))).toBe(false);
  });

  test("a reply's @parent prefix is not part of what was sent", async () => {
    const lines = new OwnLines(() => 0);
    lines.sending("!pong").sent(null, true);
    expect(await lines.isOwn(echo("m1", "@viewer_anna !pong", "viewer_anna"))).toBe(true);
  });

  test("a streamer's line during a send waits for the send's message id, then is theirs", async () => {
    const lines = new OwnLines(() => 0);
    const send = lines.sending("a reply");
    const judged = lines.isOwn(echo("s1", "!deaths +"));
    send.sent("m1", true);
    expect(await judged).toBe(false);
    expect(await lines.isOwn(echo("m1", "something else"))).toBe(true);
  });

  test("a line Twitch dropped is forgotten; lines are forgotten after the window", async () => {
    let now = 0;
    const lines = new OwnLines(() => now);
    lines.sending("dropped").sent("", false);
    expect(await lines.isOwn(echo("s1", "dropped"))).toBe(false);
    lines.sending("old").sent("m1", true);
    lines.sending("older in flight");
    now = OWN_LINE_MS + 1;
    expect(await lines.isOwn(echo("m1", "old"))).toBe(false);
    expect(await lines.isOwn(echo("s2", "older in flight"))).toBe(false);
  });

  test("a line is forgotten at the end of its window to the millisecond, however recent the last look-up", async () => {
    let now = 0;
    const lines = new OwnLines(() => now);
    lines.sending("first").sent(null, true);
    now = 500;
    lines.sending("second").sent(null, true);
    expect(await lines.isOwn(echo("m0", "nobody's"))).toBe(false);
    now = OWN_LINE_MS + 1;
    expect(await lines.isOwn(echo("m1", "first"))).toBe(false);
    now = OWN_LINE_MS + 2;
    expect(await lines.isOwn(echo("m2", "second"))).toBe(true);
    // Its id is remembered as long, and no longer.
    now = OWN_LINE_MS + 3;
    expect(await lines.isOwn(echo("m2", "second"))).toBe(true);
    now = 2 * OWN_LINE_MS + 3;
    expect(await lines.isOwn(echo("m2", "second"))).toBe(false);
  });

  test("a line known by its text: tabs, newlines, no-break and ideographic spaces fold as Twitch folds them", async () => {
    const lines = new OwnLines(() => 0);
    lines.sending("\tgo\u00a0 now\u3000!x\n").sent(null, true);
    lines.sending("one two").sent(null, true);
    expect(await lines.isOwn(echo("m1", "go now !x"))).toBe(true);
    expect(await lines.isOwn(echo("m2", " one\t\ttwo "))).toBe(true);
    // Not folded away: a zero-width space is no whitespace.
    lines.sending("one\u200btwo").sent(null, true);
    expect(await lines.isOwn(echo("m3", "one two"))).toBe(false);
  });

  test("a flood of sends keeps the latest 200 lines, the oldest forgotten first", async () => {
    const lines = new OwnLines(() => 0);
    for (let i = 0; i < 201; i++) lines.sending(`!line ${i}`).sent(null, true);
    expect(await lines.isOwn(echo("m0", "!line 0"))).toBe(false);
    expect(await lines.isOwn(echo("m1", "!line 1"))).toBe(true);
    expect(await lines.isOwn(echo("m200", "!line 200"))).toBe(true);
  });
});

describe("native chat: cuebot speaks as the streamer", () => {
  let h: ChatHarness;
  afterEach(async () => {
    await h.stop();
  });

  async function start(): Promise<void> {
    h = await startChatHarness();
    await h.startChat();
    await waitUntilReading(h);
  }

  const say = (text: string, user = "cuebotdemo") => h.sim.chat.say({ channel: "cuebotdemo", user, text });
  const ask = async (text: string, user = "cuebotdemo") =>
    (await h.replyTo(say(text, user), REPLY_WAIT_MS))?.text ?? null;
  const sentCount = () => h.sim.chat.sent().filter((s) => s.isSent).length;
  const grant = async (scopes: string[]) => {
    const issued = h.sim.issueUserToken("cuebotdemo", scopes);
    await saveProviderTokens(h.ctx, h.account.id, { ...issued, scopes, expiresIn: 14_400 });
  };

  test("the streamer adds !discord with !addcom, it answers them and a viewer", async () => {
    await start();
    expect(await ask("!addcom !discord Join us: discord.gg/cuebot")).toBe(REPLIES.added("discord"));
    expect(await ask("!discord")).toBe("Join us: discord.gg/cuebot");
    expect(await ask("!discord", "viewer_anna")).toBe("Join us: discord.gg/cuebot");
    expect(await ask("!addcom !deaths Deaths: $(count)")).toBe(REPLIES.added("deaths"));
    expect(await ask("!deaths +")).toMatch(/1/);
  });

  test("replies that read as a command are never answered: no loop between two commands naming each other", async () => {
    await start();
    expect(await ask("!addcom !ping @$(user) !pong")).toBe(REPLIES.added("ping"));
    expect(await ask("!addcom !pong @$(user) !ping")).toBe(REPLIES.added("pong"));
    expect(await ask("!addcom !toss @$(user) !coinflip")).toBe(REPLIES.added("toss"));
    const before = sentCount();
    expect(await ask("!ping")).toBe("@CuebotDemo !pong");
    expect(await ask("!toss")).toBe("@CuebotDemo !coinflip");
    await Bun.sleep(400);
    // Two replies, and none to their echoes (the broadcaster is held to no cooldown: a loop would run).
    expect(sentCount()).toBe(before + 2);
    // The streamer typing the same text themselves is answered.
    expect(await ask("!pong")).toBe("@CuebotDemo !ping");
  });

  test("a stored response that opens with ! is said without it, so its echo runs nothing", async () => {
    await start();
    expect(await ask("!addcom !ping !pong")).toBe(REPLIES.added("ping"));
    expect(await ask("!addcom !pong !ping")).toBe(REPLIES.added("pong"));
    const before = sentCount();
    expect(await ask("!ping")).toBe("pong");
    await Bun.sleep(300);
    expect(sentCount()).toBe(before + 1);
  });

  test("a reply in flight while the channel reopens is known as ours when its echo reaches the new channel", async () => {
    await start();
    expect(await ask("!addcom !ping @$(user) !pong")).toBe(REPLIES.added("ping"));
    expect(await ask("!addcom !pong @$(user) !ping")).toBe(REPLIES.added("pong"));
    // Send Chat Message held until the channel has reopened.
    const helix = h.ctx.helixApi as HelixApi;
    const send = helix.sendChatMessage.bind(helix);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = 0;
    helix.sendChatMessage = async (token, message) => {
      held++;
      await gate;
      return await send(token, message);
    };
    const before = sentCount();
    const ping = say("!ping");
    expect(await waitFor(() => held === 1)).toBe(true);
    // The grant loses the chat scope and gets it back: the channel closes and a new one opens.
    await grant([...BASE_SCOPES]);
    await h.ctx.chat.sync(h.account.id);
    expect((await h.ctx.chat.status(h.account.id)).state).toBe("needs_consent");
    await grant([...BASE_SCOPES, READ_CHAT_SCOPE]);
    await h.ctx.chat.sync(h.account.id);
    await waitUntilReading(h);
    release();
    expect((await h.replyTo(ping, REPLY_WAIT_MS))?.text).toBe("@CuebotDemo !pong");
    await Bun.sleep(400);
    // The old channel's reply only: its echo, read by the new channel, is not answered with !ping.
    expect(sentCount()).toBe(before + 1);
  });

  test("a reply repeating the very line that asked for it is answered once", async () => {
    await start();
    expect(await ask("!addcom !hello @$(user) !hello")).toBe(REPLIES.added("hello"));
    const before = sentCount();
    expect(await ask("!hello")).toBe("@CuebotDemo !hello");
    await Bun.sleep(300);
    expect(sentCount()).toBe(before + 1);
  });
});
