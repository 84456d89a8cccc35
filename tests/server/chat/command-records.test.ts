/**
 * Every chat command counts, by the viewer who typed it (issue 36): built-ins, custom commands,
 * quotes, counters and management lines, as the Overview (`GET /api/dashboard/analytics`) and the
 * activity feed (`GET /api/dashboard/activity`) show them; a command a limit kept from a reply is
 * listed with why, never counted, and stored at most once per viewer and reason per 30 s.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { addCustomCommand } from "../../../db/custom-commands.ts";
import { recentEvents } from "../../../db/events.ts";
import { updateCommandSettings } from "../../../server/bot/settings.ts";
import { createSession, SESSION_COOKIE } from "../../../server/core/sessions.ts";
import type { CommandRefused } from "../../../server/live/hooks.ts";
import { type ChatHarness, waitFor } from "../../helpers/chat.ts";
import { chatLines, MODERATOR, startConnectedChat } from "../../helpers/custom-chat.ts";
import { TROLL_TEXTS } from "../../helpers/troll-texts.ts";

let h: ChatHarness;
afterEach(async () => {
  await h.stop();
});

const { say, ask, mod } = chatLines(() => h);

/** A dashboard read with the streamer's session: its `data`. */
async function panel<T>(path: string): Promise<T> {
  const session = await createSession(h.ctx, h.account.id, "test");
  const res = await h.request(path, { headers: { cookie: `${SESSION_COOKIE}=${session.token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

interface Analytics {
  total_calls: number;
  distinct_callers: number;
  by_command: { command: string; calls: number; ok: number }[];
  top_callers: { caller: string; calls: number }[];
}

interface Activity {
  items: { kind: string; command: string; caller: string; outcome: string; refused: string | null }[];
}

/** Counts every refusal told to the hook (the demo chat's note), stored or not. */
function refusalsTold(): CommandRefused[] {
  const told: CommandRefused[] = [];
  h.ctx.live.hooks.commandRefused.bind((r) => told.push(r));
  return told;
}

/** Chat's rows of the account once `n` are stored (the sink writes behind). */
async function storedRows(n: number) {
  return await waitFor(async () => {
    await h.ctx.events.flush();
    const rows = await recentEvents(h.ctx.db, h.account.id, 5000);
    return rows.length >= n && rows;
  });
}

describe("chat commands in the Overview", () => {
  test("a custom command, a quote and a counter count by the viewer who typed them", async () => {
    h = await startConnectedChat();
    const now = Date.now();
    await addCustomCommand(h.ctx.db, h.account.id, { name: "hug", response: "$(user) hugs" }, now);
    await addCustomCommand(h.ctx.db, h.account.id, { name: "deaths", response: "Deaths: $(count)" }, now);
    expect(await mod("!addquote Never trust the bridge")).toBe("Quote #1 has been added.");
    expect(await ask("!hug")).toBe("Viewer_Anna hugs");
    expect(await ask("!quote", "modbob", MODERATOR)).toStartWith('Quote #1: "Never trust the bridge"');
    expect(await ask("!deaths +", "modbob", MODERATOR)).toContain("1");
    expect(await ask("!coinflip", "viewer_anna")).not.toBeNull();

    const a = await panel<Analytics>("/api/dashboard/analytics?days=1");
    const calls = Object.fromEntries(a.by_command.map((c) => [c.command, [c.calls, c.ok]]));
    expect(calls).toEqual({ addquote: [1, 1], coinflip: [1, 1], deaths: [1, 1], hug: [1, 1], quote: [1, 1] });
    expect(a).toMatchObject({ total_calls: 5, distinct_callers: 3 });
    expect(a.top_callers).toEqual([
      { caller: "modbob", calls: 2 },
      { caller: "viewer_anna", calls: 2 },
      { caller: "mod_mia", calls: 1 },
    ]);
  }, 15_000);

  test("each reason a command got no reply is in the activity feed, and none is counted", async () => {
    h = await startConnectedChat();
    const told = refusalsTold();
    await addCustomCommand(
      h.ctx.db,
      h.account.id,
      { name: "secret", response: "hi", userLevel: "moderator" },
      0,
    );
    await updateCommandSettings(h.ctx, h.account.id, "magic8", { cooldownSeconds: 60 });
    // A user level below the command's: a viewer's `!secret`, and another's `!addcom`.
    say("!secret", "viewer_anna");
    say("!addcom !mine mine now", "viewer_finn");
    // The command's cooldown: the second `!magic8` within 60 s.
    expect(await ask("!magic8 will it rain?", "viewer_bob")).not.toBeNull();
    say("!magic8 and now?", "viewer_carla");
    // The viewer's 3 answers per 30 s: the fourth.
    for (let i = 0; i < 3; i++) expect(await ask("!coinflip", "viewer_dave")).not.toBeNull();
    say("!coinflip", "viewer_dave");
    expect(await waitFor(() => told.length === 4)).toBe(true);
    // The same viewer's same reason again within 30 s: told, not stored again.
    say("!secret", "viewer_anna");
    expect(await waitFor(() => told.length === 5)).toBe(true);
    // The channel's chat budget for the minute (the Default role's 30), spent.
    while ((await h.ctx.limits.chatters.check(h.account, null)) === null);
    say("!coinflip", "viewer_erin");
    expect(await waitFor(() => told.length === 6)).toBe(true);

    const { items } = await panel<Activity>("/api/dashboard/activity");
    const refusals = items.filter((i) => i.refused !== null).map((i) => [i.command, i.caller, i.refused]);
    // (The first two lines were said together: either may be answered first.)
    expect(refusals.sort()).toEqual([
      ["addcom", "viewer_finn", "user_level"],
      ["coinflip", "viewer_dave", "viewer_limit"],
      ["coinflip", "viewer_erin", "chat_budget"],
      ["magic8", "viewer_carla", "cooldown"],
      ["secret", "viewer_anna", "user_level"],
    ]);
    const a = await panel<Analytics>("/api/dashboard/analytics?days=1");
    expect(a).toMatchObject({ total_calls: 4, distinct_callers: 2 });
    expect(a.top_callers).toEqual([
      { caller: "viewer_dave", calls: 3 },
      { caller: "viewer_bob", calls: 1 },
    ]);
  }, 15_000);

  test("a troll flooding 1,000 commands: 3 answers, and their refusal stored once (every one still told)", async () => {
    h = await startConnectedChat();
    const told = refusalsTold();
    for (let i = 0; i < 1000; i++) say("!coinflip", "troll_tim");
    expect(await waitFor(() => told.length === 997, 20_000)).toBe(true);
    // (A reply Twitch's pace dropped is a note of its own: not a call, not a refusal.)
    const rows = ((await storedRows(4)) || []).filter((r) => !r.outcome.startsWith("reply_dropped"));
    expect(rows.map((r) => [r.caller, r.outcome, r.refused]).sort()).toEqual([
      ["troll_tim", "ok", null],
      ["troll_tim", "ok", null],
      ["troll_tim", "ok", null],
      ["troll_tim", "refused", "viewer_limit"],
    ]);
    // Command-looking text that names no command is no call at all: nothing is stored for it.
    for (const text of TROLL_TEXTS) say(`!${text}`, "troll_tim");
    say("!ｃｏｉｎｆｌｉｐ", "troll_tim");
    // A moderator's line said after them is answered after them (one dispatch per message, in order).
    expect(await h.replyTo(say("!commands", "mod_mia", MODERATOR), 10_000)).not.toBeNull();
    await h.ctx.events.flush();
    const after = await recentEvents(h.ctx.db, h.account.id, 5000);
    expect(after.filter((r) => r.caller === "troll_tim" && !r.outcome.startsWith("reply_"))).toHaveLength(4);
  }, 30_000);
});
