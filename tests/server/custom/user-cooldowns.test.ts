/**
 * A custom command's per-user cooldown in native chat (issue 24: "per user where the streamer wants
 * it"), through the EventSub simulator: a chatter answered once waits, others do not, moderators and
 * the broadcaster never do, and a line that answered nothing keeps no cooldown.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { addCustomCommand, editCustomCommand, getCustomCommand } from "../../../db/custom-commands.ts";
import { userCooldownKey } from "../../../server/custom/answers.ts";
import { REPLIES } from "../../../server/custom/changes.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import type { ChatHarness } from "../../helpers/chat.ts";
import { badge, chatLines, startConnectedChat } from "../../helpers/custom-chat.ts";

let h: ChatHarness;
afterEach(async () => {
  await h.stop();
});

async function start(): Promise<void> {
  h = await startConnectedChat();
}

/** Adds a command as the dashboard does (chat has no per-user option, as Nightbot has none). */
async function command(name: string, response: string, cooldownSeconds: number, userCooldownSeconds: number) {
  const options = { name, response, cooldownSeconds, userCooldownSeconds };
  await addCustomCommand(h.ctx.db, h.account.id, options, Date.now());
}

const { say, ask, mod, expectSilent } = chatLines(() => h);

describe("a custom command's per-user cooldown in native chat", () => {
  test("a viewer answered once waits; another viewer, a moderator and the broadcaster are answered", async () => {
    await start();
    await command("hug", "$(user) hugs $(touser)", 0, 60);
    expect(await ask("!hug")).toBe("Viewer_Anna hugs Viewer_Anna");
    const again = say("!hug @viewer_bob");
    const louder = say("!HUG");
    await expectSilent(again, louder);
    expect(await ask("!hug", "viewer_bob")).toBe("viewer_bob hugs viewer_bob");
    for (let i = 0; i < 3; i++) expect(await mod("!hug")).toBe("mod_mia hugs mod_mia");
    for (let i = 0; i < 2; i++) {
      expect(await ask("!hug", "cuebotdemo", badge("broadcaster"))).toBe("CuebotDemo hugs CuebotDemo");
    }
  });

  test("once it has passed the viewer is answered again; a viewer resting does not hold the channel's cooldown", async () => {
    await start();
    await command("hype", "Hype!", 5, 300);
    await command("wave", "o/", 0, 5);
    expect(await ask("!hype")).toBe("Hype!");
    expect(await ask("!wave")).toBe("o/");
    const cooling = say("!hype", "viewer_bob");
    await expectSilent(cooling);
    await Bun.sleep(5100);
    // viewer_anna still rests on !hype (300 s); her line neither answers nor starts the channel's 5 s.
    const resting = say("!hype");
    await expectSilent(resting);
    expect(await ask("!hype", "viewer_bob")).toBe("Hype!");
    expect(await ask("!wave")).toBe("o/");
  }, 20_000);

  test("chat's syntax has no per-user option: an add from chat has none, an edit from chat keeps it", async () => {
    await start();
    expect(await mod("!addcom !wave o/")).toBe(REPLIES.added("wave"));
    expect(await getCustomCommand(h.ctx.db, h.account.id, "wave")).toMatchObject({ userCooldownSeconds: 0 });
    await command("hug", "hug!", 0, 60);
    expect(await mod("!editcom !hug -cd=5 -ul=subscriber A big hug")).toBe(REPLIES.edited("hug"));
    expect(await getCustomCommand(h.ctx.db, h.account.id, "hug")).toMatchObject({
      response: "A big hug",
      userLevel: "subscriber",
      cooldownSeconds: 5,
      userCooldownSeconds: 60,
    });
  });

  test("an edit of the cooldown applies to a rest under way; 0 ends it", async () => {
    await start();
    await command("lurk", "$(user) lurks", 0, 300);
    expect(await ask("!lurk")).toBe("Viewer_Anna lurks");
    await expectSilent(say("!lurk"));
    await editCustomCommand(h.ctx.db, h.account.id, "lurk", { userCooldownSeconds: 0 }, Date.now());
    h.ctx.chatBot.clear();
    expect(await ask("!lurk")).toBe("Viewer_Anna lurks");
    expect(await ask("!lurk")).toBe("Viewer_Anna lurks");
  });

  test("a line the chat budgets refuse keeps no per-user rest", async () => {
    await start();
    for (const name of ["a", "b", "c"]) await command(name, `${name}!`, 0, 0);
    await command("hug", "hug!", 0, 60);
    for (const name of ["a", "b", "c"]) expect(await ask(`!${name}`)).toBe(`${name}!`);
    // The fourth answer within 30 s is over viewer_anna's budget: nothing is sent.
    await expectSilent(say("!hug"));
    // Its per-user claim went back: no rest of !hug is recorded for viewer_anna.
    const key = userCooldownKey("hug", SIM_IDS.anna);
    const left = await h.ctx.cooldowns.claim(h.account.id, key, 60, Date.now());
    expect(left).toBe(0);
  });

  test("an alias with a per-user cooldown gives its claim back when its target is resting", async () => {
    await start();
    await command("go", "Go follow $(touser)", 60, 0);
    await addCustomCommand(
      h.ctx.db,
      h.account.id,
      { name: "shout", response: "$(query)", aliasTarget: "go", cooldownSeconds: 0, userCooldownSeconds: 60 },
      Date.now(),
    );
    expect(await ask("!go viewer_bob", "viewer_carl")).toBe("Go follow viewer_bob");
    await expectSilent(say("!shout viewer_bob"));
    // Nothing answered, so viewer_anna's !shout is free once the target may answer.
    await editCustomCommand(h.ctx.db, h.account.id, "go", { cooldownSeconds: 0 }, Date.now());
    h.ctx.chatBot.clear();
    expect(await ask("!shout viewer_bob")).toBe("Go follow viewer_bob");
    await expectSilent(say("!shout viewer_bob"));
  });

  test("trolls cannot spend another chatter's rest: a flood of distinct lines from one viewer answers once", async () => {
    await start();
    await command("hug", "$(user) hugs $(touser)", 0, 60);
    const flood = Array.from({ length: 20 }, (_, i) =>
      say(`!hug @victim_${i} ${"$(user)".repeat(i)}`, "troll_tom"),
    );
    await expectSilent();
    const answered = (await Promise.all(flood.map((id) => h.replyTo(id, 10)))).filter((r) => r !== null);
    // The lines may run at once: whichever claims first is the one answer, its text the command's own.
    expect(answered).toHaveLength(1);
    expect(answered[0]!.text).toMatch(/^troll_tom hugs victim_\d{1,2}$/);
    expect(await ask("!hug", "viewer_bob")).toBe("viewer_bob hugs viewer_bob");
  });
});
