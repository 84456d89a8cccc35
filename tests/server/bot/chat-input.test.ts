import { describe, expect, test } from "bun:test";
import {
  DEFAULT_MAGIC8_ANSWERS,
  flipCoin,
  rollDice,
  rouletteLoses,
  seededRandom,
} from "../../../server/bot/chance.ts";
import { asLogin, chatCaller } from "../../../server/bot/chat-input.ts";
import { shoutoutText } from "../../../server/bot/shoutout.ts";
import { chatLine, chatName, wantsText } from "../../../server/http/text-mode.ts";
import { chance } from "../../helpers/chance.ts";

describe("chat-style input", () => {
  test("a leading @ is stripped, blanks and unreplaced templates count as missing", () => {
    expect(chatName("@Viewer_Anna")).toBe("Viewer_Anna");
    expect(chatName("  @@bob ")).toBe("bob");
    expect(chatName("")).toBeUndefined();
    expect(chatName("   ")).toBeUndefined();
    expect(chatName("$(touser)")).toBeUndefined();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a StreamElements variable the bot left unreplaced
    expect(chatName("${user}")).toBeUndefined();
    expect(chatName("%input0%")).toBeUndefined();
    expect(chatName("%userName%")).toBeUndefined();
    expect(chatName("100%")).toBe("100%");
    expect(chatName(null)).toBeUndefined();
  });

  test("only names that can be platform logins are looked up", () => {
    expect(asLogin("Viewer_Anna")).toBe("viewer_anna");
    expect(asLogin("데모시청자")).toBeNull();
    expect(asLogin("has space")).toBeNull();
    expect(asLogin("x".repeat(26))).toBeNull();
  });

  test("Nightbot and Fossabot headers tell the caller and channel", () => {
    const nightbot = new Request("http://localhost/x", {
      headers: {
        "Nightbot-User":
          "name=viewer_anna&displayName=Viewer_Anna&provider=twitch&providerId=100003&userLevel=moderator",
        "Nightbot-Channel": "name=cuebotdemo&displayName=CuebotDemo&provider=twitch&providerId=100001",
      },
    });
    expect(chatCaller(nightbot)).toEqual({
      channel: "cuebotdemo",
      user: "viewer_anna",
      displayName: "Viewer_Anna",
      userLevel: "moderator",
    });
    const fossabot = new Request("http://localhost/x", {
      headers: { "x-fossabot-channellogin": "cuebotdemo" },
    });
    expect(chatCaller(fossabot).channel).toBe("cuebotdemo");
  });

  test("text mode: format=text, Nightbot or Fossabot headers; format=json forces JSON", () => {
    expect(wantsText(new Request("http://localhost/x?format=text"))).toBe(true);
    expect(wantsText(new Request("http://localhost/x", { headers: { "Nightbot-User": "name=a" } }))).toBe(
      true,
    );
    expect(wantsText(new Request("http://localhost/x", { headers: { "x-fossabot-channelid": "1" } }))).toBe(
      true,
    );
    expect(
      wantsText(new Request("http://localhost/x?format=json", { headers: { "Nightbot-User": "name=a" } })),
    ).toBe(false);
    expect(wantsText(new Request("http://localhost/x"))).toBe(false);
  });

  test("a chat line is one line of at most 380 characters", () => {
    expect(chatLine("a\nb\r\n\tc")).toBe("a b c");
    const long = chatLine("word ".repeat(200));
    expect(long.length).toBeLessThanOrEqual(380);
    expect(long.endsWith("…")).toBe(true);
    // Cut by code points: never half an emoji.
    const emoji = chatLine("🎱".repeat(400));
    expect(emoji).not.toContain("\uFFFD");
    expect(Array.from(emoji).every((c) => c === "🎱" || c === "…")).toBe(true);
  });
});

describe("games of chance are deterministic under a seed", () => {
  test("the same seed gives the same rolls, flips and answers", () => {
    expect(rollDice(seededRandom(7), 5, 6)).toEqual(rollDice(seededRandom(7), 5, 6));
    const rolls = rollDice(seededRandom(1), 1000, 6);
    expect(Math.min(...rolls)).toBe(1);
    expect(Math.max(...rolls)).toBe(6);
    expect(flipCoin(chance(0.2))).toBe("heads");
    expect(flipCoin(chance(0.7))).toBe("tails");
    expect(DEFAULT_MAGIC8_ANSWERS).toHaveLength(20);
  });

  test("roulette loses with probability 1/chambers", () => {
    expect(rouletteLoses(chance(0), 6)).toBe(true);
    expect(rouletteLoses(chance(0.5), 6)).toBe(false);
    const random = seededRandom(42);
    const losses = Array.from({ length: 6000 }, () => rouletteLoses(random, 6)).filter(Boolean).length;
    expect(losses).toBeGreaterThan(850);
    expect(losses).toBeLessThan(1150);
  });
});

test("shoutout templates replace every placeholder", () => {
  expect(
    shoutoutText("{name} {game} {title} {link} {name}", { name: "N", game: "G", title: "T", link: "L" }),
  ).toBe("N G T L N");
});
