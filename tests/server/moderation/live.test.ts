import { afterEach, describe, expect, test } from "bun:test";
import { listModerationLog, setModerationEnabled, writeModerationSettings } from "../../../db/moderation.ts";
import { BASE_SCOPES, MODERATION_EXTRA_SCOPES, READ_CHAT_SCOPE } from "../../../server/twitch/scopes.ts";
import { type ChatHarness, startChatHarness, waitFor } from "../../helpers/chat.ts";
import { badge, MODERATOR } from "../../helpers/custom-chat.ts";

const MODERATING = [...BASE_SCOPES, READ_CHAT_SCOPE, ...MODERATION_EXTRA_SCOPES];

let h: ChatHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** cuebotdemo with native chat connected and moderation on (filters as given, else the defaults). */
async function moderatedChat(filters: unknown = {}, shield: unknown = {}): Promise<ChatHarness> {
  const harness = await startChatHarness();
  h = harness;
  const now = Date.now();
  await setModerationEnabled(harness.ctx.db, harness.account.id, true, now);
  await writeModerationSettings(harness.ctx.db, harness.account.id, { filters, shield }, now);
  await harness.startChat({ scopes: MODERATING });
  await waitFor(async () => (await harness.ctx.chat.status(harness.account.id)).state === "connected");
  return harness;
}

const say = (text: string, user = "viewer_anna", badges = badge("none")) =>
  h?.sim.chat.say({ channel: "cuebotdemo", user, text, badges: badges.filter((b) => b.set_id !== "none") }) ?? "";

const lineOf = (id: string) => h?.sim.chat.lines("cuebotdemo").find((l) => l.messageId === id);
const deleted = (id: string) => waitFor(() => lineOf(id)?.deleted === true, 3000);
const sentTexts = () => (h?.sim.chat.sent() ?? []).filter((s) => s.isSent).map((s) => s.text);

describe("chat moderation on the live layer", () => {
  test("a link from a viewer is deleted, one warning names them, and the log keeps it", async () => {
    const harness = await moderatedChat();
    const id = say("free followers at bigfollows . com");
    expect(await deleted(id)).toBe(true);
    expect(await waitFor(() => sentTexts().find((t) => t.startsWith("@viewer_anna ")), 3000)).toBe(
      "@viewer_anna please ask a moderator before posting links.",
    );
    const log = await waitFor(async () => {
      const items = await listModerationLog(harness.ctx.db, harness.account.id, { before: null, limit: 10 });
      return items.length > 0 ? items : null;
    });
    expect(log?.[0]).toMatchObject({ action: "warned", filter: "links", userLogin: "viewer_anna" });
    expect(log?.[0]?.text).toBe("free followers at bigfollows . com");
  });

  test("a second offence within the hour times the chatter out for the filter's time", async () => {
    const harness = await moderatedChat({ caps: { timeoutSeconds: 120 } });
    expect(await deleted(say("THIS STREAM IS THE BEST EVER WOW"))).toBe(true);
    say("I SAID THIS STREAM IS THE BEST EVER");
    const ban = await waitFor(() => harness.sim.world.bans.find((b) => b.user_id === "100003"), 3000);
    expect(ban?.expires_at).not.toBeNull();
    const seconds = (Date.parse(ban?.expires_at ?? "") - Date.parse(ban?.created_at ?? "")) / 1000;
    expect(seconds).toBe(120);
  });

  test("moderators, the broadcaster and Shared Chat lines from elsewhere are never caught", async () => {
    await moderatedChat();
    const mod = say("see example.com", "mod_mia", MODERATOR);
    const own = say("see example.com", "cuebotdemo", badge("broadcaster"));
    const shared = h?.sim.chat.say({
      channel: "cuebotdemo",
      user: "viewer_anna",
      text: "see example.com",
      sourceChannel: "otherstreamer",
    });
    const caught = say("see example.com", "viewer_bob");
    expect(await deleted(caught)).toBe(true);
    for (const id of [mod, own, shared ?? ""]) expect(lineOf(id)?.deleted).toBeFalsy();
  });

  test("!permit lets the user post links for 60 s, with one line saying so", async () => {
    const harness = await moderatedChat();
    const permit = say("!permit @Viewer_Anna", "mod_mia", MODERATOR);
    expect((await harness.replyTo(permit, 3000))?.text).toBe("@viewer_anna may post links for the next 60 seconds.");
    const link = say("my clip: clips.twitch.tv/abc");
    const other = say("my clip: clips.twitch.tv/abc", "viewer_bob");
    expect(await deleted(other)).toBe(true);
    expect(lineOf(link)?.deleted).toBeFalsy();
  });

  test("a wave of spam raises the shield: followers-only chat and one line, and no limit is hit", async () => {
    const harness = await moderatedChat({}, { chatters: 5, seconds: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      harness.sim.world.users.push({
        ...harness.sim.world.users[2]!,
        id: `9000${i}`,
        login: `spam_${i}`,
        display_name: `spam_${i}`,
      });
      ids.push(say(`cheap viewers at spam${i}.xyz`, `spam_${i}`));
    }
    for (const id of ids) expect(await deleted(id)).toBe(true);
    expect(await waitFor(() => harness.sim.chat.settings("cuebotdemo").follower_mode, 3000)).toBe(true);
    expect(sentTexts().filter((t) => t.startsWith("Followers-only chat is on"))).toHaveLength(1);
    expect([...harness.sim.stats.tooMany]).toEqual([]);
  });
});
