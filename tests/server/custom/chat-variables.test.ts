/**
 * Custom commands' variables answered from Twitch (the simulator) and cuebot's own commands, aliases
 * (`-a=!other`) in native chat, and counts exact when two servers on one database count at once.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { editCustomCommand, getCustomCommand } from "../../../db/custom-commands.ts";
import { createLogger } from "../../../server/core/log.ts";
import { REPLIES } from "../../../server/custom/changes.ts";
import { type CustomLine, readCustomLine, runCustomLine } from "../../../server/custom/service.ts";
import type { ChatMessageEvent } from "../../../server/live/eventsub-message.ts";
import { type Context, openContext } from "../../../server/runtime.ts";
import { SIM_IDS } from "../../../server/sim/twitch/world.ts";
import type { ChatHarness } from "../../helpers/chat.ts";
import { chatLines, startConnectedChat } from "../../helpers/custom-chat.ts";

let h: ChatHarness;
let second: Context | null = null;
afterEach(async () => {
  await second?.close();
  second = null;
  await h.stop();
});

async function start(): Promise<void> {
  h = await startConnectedChat();
}

const { ask, mod } = chatLines(() => h);

describe("custom commands' variables and aliases in native chat", () => {
  test("$(uptime), $(game), $(followage) and $(rank) come from Twitch and cuebot's own commands", async () => {
    await start();
    expect(await mod("!addcom !live Live for $(uptime), playing $(game)")).toBe(REPLIES.added("live"));
    expect(await mod("!addcom !fa $(user): $(followage)")).toBe(REPLIES.added("fa"));
    expect(await mod("!addcom !myrank Rank: $(rank)")).toBe(REPLIES.added("myrank"));
    // The simulated stream started 2 h 15 min before the world was seeded.
    expect(await mod("!live")).toMatch(/^Live for 2 hours, 1[5-6] minutes, playing Just Chatting$/);
    const builtIn = await ask("!followage");
    expect(builtIn).toBeTruthy();
    expect(await ask("!fa")).toBe(`Viewer_Anna: ${builtIn}`);
    // No player set for !rank: the variable shows its placeholder, the rest of the line stands.
    expect(await mod("!myrank")).toBe("Rank: (rank unavailable)");
  });

  test("an alias runs its line as the same chatter: a built-in, another custom command, never a lifted level", async () => {
    await start();
    expect(await mod("!addcom !discord Join us at discord.gg/x")).toBe(REPLIES.added("discord"));
    expect(await mod("!addcom !so2 -a=!shoutout")).toBe(REPLIES.added("so2"));
    expect(await mod("!addcom !d2 -a=!discord")).toBe(REPLIES.added("d2"));
    expect(await mod("!addcom !newcmd -a=!commands add $(query)")).toBe(REPLIES.added("newcmd"));
    expect(await ask("!so2 @otherstreamer")).toContain("Go check out OtherStreamer!");
    expect(await ask("!d2", "viewer_bob")).toBe("Join us at discord.gg/x");
    // A viewer's alias into !commands changes nothing; a moderator's adds the command.
    const viewer = h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_carla", text: "!newcmd !pwned hi" });
    expect(await mod("!newcmd !hello Hello there")).toBe(REPLIES.added("hello"));
    expect(await h.replyTo(viewer, 10)).toBeNull();
    expect(await getCustomCommand(h.ctx.db, h.account.id, "pwned")).toBeUndefined();
    expect(await ask("!hello", "viewer_dave")).toBe("Hello there");
  });

  test("an alias whose line answers nothing keeps no cooldown: the target cooling down, missing or an alias", async () => {
    await start();
    // Added from chat, each with Nightbot's default 30 s cooldown.
    expect(await mod("!addcom !discord Join us at discord.gg/x")).toBe(REPLIES.added("discord"));
    expect(await mod("!addcom !d2 -a=!discord")).toBe(REPLIES.added("d2"));
    expect(await mod("!addcom !later -a=!notyet")).toBe(REPLIES.added("later"));
    expect(await mod("!addcom !chain -a=!d2")).toBe(REPLIES.added("chain"));
    expect(await ask("!discord")).toBe("Join us at discord.gg/x");
    // !discord is cooling down, !notyet does not exist, and an alias reached through an alias answers
    // nothing: none of these lines keeps its alias (or !d2 behind !chain) cooling down.
    const silent = [
      h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_bob", text: "!d2" }),
      h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_bob", text: "!later" }),
      h.sim.chat.say({ channel: "cuebotdemo", user: "viewer_bob", text: "!chain" }),
    ];
    expect(await mod("!addcom !notyet Now it exists")).toBe(REPLIES.added("notyet"));
    for (const id of silent) expect(await h.replyTo(id, 10)).toBeNull();
    await editCustomCommand(h.ctx.db, h.account.id, "discord", { cooldownSeconds: 0 }, Date.now());
    expect(await ask("!d2", "viewer_carla")).toBe("Join us at discord.gg/x");
    expect(await ask("!later", "viewer_dave")).toBe("Now it exists");
  });

  test("50 concurrent !deaths + on two servers sharing the database end at exactly +50", async () => {
    await start();
    expect(await mod("!addcom !deaths Deaths: $(count)")).toBe(REPLIES.added("deaths"));
    const log = createLogger({ level: "error", format: "json", write: () => {} });
    second = await openContext(h.ctx.config, { log });
    const account = h.account;
    const event = (i: number): ChatMessageEvent => ({
      broadcasterId: SIM_IDS.demo,
      broadcasterLogin: "cuebotdemo",
      chatterId: "300001",
      chatterLogin: "mod_mia",
      chatterName: "mod_mia",
      messageId: `m${i}`,
      text: "!deaths +",
      badges: ["moderator"],
      replyParentLogin: null,
      sourceBroadcasterId: null,
      emotes: [],
    });
    const servers = [h.ctx, second];
    const replies = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const ctx = servers[i % 2] as Context;
        const line = (await readCustomLine(ctx, account, event(i), new Set())) as CustomLine;
        expect(line.kind).toBe("count");
        const run = {
          ctx,
          account,
          event: event(i),
          level: line.level,
          gate: () => null,
          builtIns: new Set<string>(),
        };
        const outcome = await runCustomLine(run, line);
        return outcome?.kind === "reply" ? outcome.text : "";
      }),
    );
    const counts = replies
      .map((text: string) => Number(/now (\d+)\./.exec(text ?? "")?.[1]))
      .sort((a: number, b: number) => a - b);
    expect(counts).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await getCustomCommand(h.ctx.db, account.id, "deaths"))?.count).toBe(50);
  });
});
