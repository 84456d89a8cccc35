import { describe, expect, test } from "bun:test";
import { emoteFor, fragments, onlyEmotes } from "../../../../server/sim/twitch/chat/fragments.ts";
import { SIM_IDS, seedWorld } from "../../../../server/sim/twitch/world.ts";

/**
 * How the simulator splits a chat line into `message.fragments` (reference/twitch-chat.md §3.2),
 * including what trolls type: emote walls, combining marks, direction overrides, pattern-looking codes.
 */

const world = seedWorld();
const split = (text: string, emotes: string[] = [], cheers = true) =>
  fragments(world, text, { cheers, emotes: new Set(emotes), channelId: SIM_IDS.demo });

describe("message fragments", () => {
  test("emotes are whole words, case-sensitive; mentions of known users and a chatter's cheers apart", () => {
    expect(
      split("Kappa kappa Kappa! @viewer_anna Cheer100 @nobody_here", ["Kappa"]).map((f) => [f.type, f.text]),
    ).toEqual([
      ["emote", "Kappa"],
      ["text", " kappa Kappa! "],
      ["mention", "@viewer_anna"],
      ["text", " "],
      ["cheermote", "Cheer100"],
      ["text", " @nobody_here"],
    ]);
    expect(split("Cheer100", [], false).map((f) => f.type)).toEqual(["text"]);
  });

  test("every fragment has all five keys, the unused ones null", () => {
    for (const f of split("Kappa @viewer_anna Cheer5 hi", ["Kappa"])) {
      expect(Object.keys(f).sort()).toEqual(["cheermote", "emote", "mention", "text", "type"]);
    }
  });

  test("an emote's id is stable: a global one its real id, another the channel's own", () => {
    expect(emoteFor("Kappa", SIM_IDS.demo)).toEqual({
      id: "25",
      emote_set_id: "0",
      owner_id: "0",
      format: ["static"],
    });
    expect(emoteFor("cuebotHype", SIM_IDS.demo)).toEqual(emoteFor("cuebotHype", SIM_IDS.demo));
    expect(emoteFor("cuebotHype", SIM_IDS.demo).id).not.toBe(emoteFor("cuebotWave", SIM_IDS.demo).id);
  });

  test("troll text: an emote wall, combining marks, RTL overrides and pattern-looking codes split plainly", () => {
    const wall = Array.from({ length: 250 }, () => "Kappa").join(" ");
    const parts = split(wall, ["Kappa"]);
    expect(parts.filter((f) => f.type === "emote")).toHaveLength(250);
    expect(onlyEmotes(wall, new Set(["Kappa"]))).toBe(true);
    const zalgo = `Z${"\u0301\u0302\u0303".repeat(166)}`;
    expect(
      split(zalgo, ["Kappa"])
        .map((f) => f.text)
        .join(""),
    ).toBe(zalgo);
    const rtl = "\u202Emoc.swollofgib\u202C Kappa";
    expect(split(rtl, ["Kappa"]).map((f) => f.type)).toEqual(["text", "emote"]);
    expect(split("(a+)+$ aaaa", ["(a+)+$"]).map((f) => [f.type, f.text])).toEqual([
      ["emote", "(a+)+$"],
      ["text", " aaaa"],
    ]);
    expect(onlyEmotes("   ", new Set(["Kappa"]))).toBe(false);
  });
});
