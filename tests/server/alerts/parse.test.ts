// Twitch's EventSub payloads (reference/alerts.md §1) read into what an alert shows: every type from the
// reference's examples, the anonymous gifts and cheers, the gift rule (§2), raids in and out, and payloads
// with fields missing, null, of the wrong type or full of troll text, which never show "undefined".
import { describe, expect, test } from "bun:test";
import type { AlertFields } from "../../../server/alerts/model.ts";
import { alertTypeOfSubscription, type ParsedEvent, parseAlertEvent } from "../../../server/alerts/parse.ts";
import { ALERT_SUBSCRIPTIONS } from "../../../server/alerts/types.ts";
import { TROLL_TEXTS } from "../../helpers/troll-texts.ts";

const STREAMER = "41245072";
const CHANNEL = {
  broadcaster_user_id: STREAMER,
  broadcaster_user_login: "kestrelplays",
  broadcaster_user_name: "KestrelPlays",
};
const MOSSY = { user_id: "90211", user_login: "mossy_owl", user_name: "Mossy_Owl" };
const NOBODY = { user_id: null, user_login: null, user_name: null };

const EXAMPLES = {
  follow: { ...MOSSY, ...CHANNEL, followed_at: "2026-03-14T19:02:11.171067130Z" },
  subscribe: {
    user_id: "77120",
    user_login: "fernwick",
    user_name: "Fernwick",
    ...CHANNEL,
    tier: "1000",
    is_gift: false,
  },
  resub: {
    user_id: "77120",
    user_login: "fernwick",
    user_name: "Fernwick",
    ...CHANNEL,
    tier: "2000",
    message: { text: "14 months already Kappa", emotes: [{ begin: 18, end: 22, id: "25" }] },
    cumulative_months: 14,
    streak_months: null,
    duration_months: 1,
  },
  gift: { ...NOBODY, ...CHANNEL, total: 5, tier: "1000", cumulative_total: null, is_anonymous: true },
  cheer: { is_anonymous: false, ...MOSSY, ...CHANNEL, message: "Cheer100 gg on that boss", bits: 100 },
  raid: {
    from_broadcaster_user_id: "3301",
    from_broadcaster_user_login: "quillandkettle",
    from_broadcaster_user_name: "QuillAndKettle",
    to_broadcaster_user_id: STREAMER,
    to_broadcaster_user_login: "kestrelplays",
    to_broadcaster_user_name: "KestrelPlays",
    viewers: 38,
  },
  redemption: {
    id: "1b5f7e8a-4c1e-4d1a-9a51-0f6c2d8e7a10",
    ...CHANNEL,
    ...MOSSY,
    user_input: "play the kazoo",
    status: "unfulfilled",
    reward: {
      id: "92af127c-7326-4483-a52b-b0da0be61c01",
      title: "Kazoo solo",
      cost: 500,
      prompt: "Name a song",
    },
    redeemed_at: "2026-03-14T19:10:03.17106713Z",
  },
} as const;

type Example = keyof typeof EXAMPLES;

function parse(type: Example, event: unknown): ParsedEvent | null {
  return parseAlertEvent(ALERT_SUBSCRIPTIONS[type].type, event, STREAMER);
}

/** The fields of an alert, failing the test when the event made none. */
function fieldsOf(type: Example, changes: Record<string, unknown> = {}): AlertFields {
  const parsed = parse(type, { ...EXAMPLES[type], ...changes });
  if (parsed?.kind !== "alert") throw new Error(`${type} made no alert: ${JSON.stringify(parsed)}`);
  expect(parsed.type).toBe(type);
  return parsed.fields;
}

const EMPTY = { amount: null, months: null, tier: null, reward: null, message: null };

describe("the reference's example payloads", () => {
  test("a follow names the follower by display name", () => {
    expect(fieldsOf("follow")).toEqual({ ...EMPTY, user: "Mossy_Owl" });
  });

  test("a new sub carries its tier as 1/2/3", () => {
    expect(fieldsOf("subscribe")).toEqual({ ...EMPTY, user: "Fernwick", tier: "1" });
  });

  test("a resub carries months as amount and months, the tier and the message's text without emotes", () => {
    expect(fieldsOf("resub")).toEqual({
      ...EMPTY,
      user: "Fernwick",
      amount: 14,
      months: 14,
      tier: "2",
      message: "14 months already Kappa",
    });
  });

  test("an anonymous gift of 5 is one alert from Anonymous", () => {
    expect(fieldsOf("gift")).toEqual({ ...EMPTY, user: "Anonymous", amount: 5, tier: "1" });
  });

  test("a cheer carries its bits and message", () => {
    expect(fieldsOf("cheer")).toEqual({
      ...EMPTY,
      user: "Mossy_Owl",
      amount: 100,
      message: "Cheer100 gg on that boss",
    });
  });

  test("an incoming raid names the raiding channel and its viewers", () => {
    expect(fieldsOf("raid")).toEqual({ ...EMPTY, user: "QuillAndKettle", amount: 38 });
  });

  test("a redemption carries the reward's title and the viewer's input, keyed by its id", () => {
    const parsed = parse("redemption", EXAMPLES.redemption);
    expect(parsed).toEqual({
      kind: "alert",
      type: "redemption",
      fields: { ...EMPTY, user: "Mossy_Owl", reward: "Kazoo solo", message: "play the kazoo" },
      naturalKey: "1b5f7e8a-4c1e-4d1a-9a51-0f6c2d8e7a10",
    });
  });

  test("only a redemption has a natural key", () => {
    for (const type of ["follow", "subscribe", "resub", "gift", "cheer", "raid"] as const) {
      expect(parse(type, EXAMPLES[type])).toMatchObject({ kind: "alert", naturalKey: null });
    }
  });

  test("stream.online and stream.offline are no alert (live/stream-state.ts reads them)", () => {
    const online = { id: "40261982654", ...CHANNEL, type: "live", started_at: "2026-03-14T18:00:05Z" };
    expect(parseAlertEvent("stream.online", online, STREAMER)).toBeNull();
    expect(parseAlertEvent("stream.offline", CHANNEL, STREAMER)).toBeNull();
  });

  test("each alert type's subscription type maps back to it; others map to nothing", () => {
    for (const [type, subscription] of Object.entries(ALERT_SUBSCRIPTIONS)) {
      expect(alertTypeOfSubscription(subscription.type)).toBe(type as Example);
    }
    expect(alertTypeOfSubscription("stream.online")).toBeNull();
    expect(alertTypeOfSubscription("channel.chat.message")).toBeNull();
  });
});

describe("anonymous gifts and cheers", () => {
  test("twitch-cli's anonymous gifter (274598607, ananonymousgifter) is Anonymous", () => {
    const cli = { user_id: "274598607", user_login: "ananonymousgifter", user_name: "AnAnonymousGifter" };
    expect(fieldsOf("gift", { ...cli, is_anonymous: true }).user).toBe("Anonymous");
    expect(fieldsOf("gift", { ...cli, is_anonymous: undefined }).user).toBe("Anonymous");
  });

  test("a gift flagged anonymous is Anonymous even when Twitch names someone", () => {
    expect(fieldsOf("gift", { ...MOSSY, is_anonymous: true }).user).toBe("Anonymous");
  });

  test("a named gifter is named", () => {
    expect(fieldsOf("gift", { ...MOSSY, is_anonymous: false, cumulative_total: 12 })).toEqual({
      ...EMPTY,
      user: "Mossy_Owl",
      amount: 5,
      tier: "1",
    });
  });

  test("an anonymous cheer, with null or with twitch-cli's empty names, is from Anonymous", () => {
    expect(fieldsOf("cheer", { ...NOBODY, is_anonymous: true }).user).toBe("Anonymous");
    const cli = { user_id: "", user_login: "", user_name: "", is_anonymous: true };
    expect(fieldsOf("cheer", cli).user).toBe("Anonymous");
  });

  test("a gift or cheer naming nobody, without the flag, is still from Anonymous", () => {
    expect(fieldsOf("gift", { ...NOBODY, is_anonymous: undefined }).user).toBe("Anonymous");
    expect(fieldsOf("cheer", { ...NOBODY, is_anonymous: false }).user).toBe("Anonymous");
  });
});

describe("the gift rule and raid direction", () => {
  test("a gift bomb's recipients (channel.subscribe with is_gift) make no alert", () => {
    for (const user of ["alpha", "beta", "gamma", "delta", "epsilon"]) {
      const recipient = {
        ...EXAMPLES.subscribe,
        user_id: user,
        user_login: user,
        user_name: user,
        is_gift: true,
      };
      expect(parse("subscribe", recipient)).toBeNull();
    }
  });

  test("a sub without the is_gift field is a new sub", () => {
    const { is_gift: _, ...withoutFlag } = EXAMPLES.subscribe;
    expect(parse("subscribe", withoutFlag)).toMatchObject({ kind: "alert", type: "subscribe" });
  });

  test("the streamer's own raid out is no alert", () => {
    const outgoing = {
      ...EXAMPLES.raid,
      from_broadcaster_user_id: STREAMER,
      from_broadcaster_user_name: "KestrelPlays",
      to_broadcaster_user_id: "3301",
      to_broadcaster_user_name: "QuillAndKettle",
    };
    expect(parse("raid", outgoing)).toBeNull();
    expect(parse("raid", { ...EXAMPLES.raid, to_broadcaster_user_id: undefined })).toBeNull();
  });

  test("an event for another broadcaster is not this channel's", () => {
    expect(parse("follow", { ...EXAMPLES.follow, broadcaster_user_id: "999" })).toBeNull();
    expect(parseAlertEvent("stream.online", { broadcaster_user_id: "999" }, STREAMER)).toBeNull();
  });
});

describe("malformed payloads and odd fields", () => {
  test("an unknown type or an event that is no object gives nothing", () => {
    expect(parseAlertEvent("channel.ban", EXAMPLES.follow, STREAMER)).toBeNull();
    for (const event of [null, undefined, "follow", 42, [EXAMPLES.follow], true]) {
      expect(parse("follow", event)).toBeNull();
    }
  });

  test("an empty event still makes a sensible alert of every type but raid", () => {
    for (const type of ["follow", "subscribe", "resub", "redemption"] as const) {
      expect(
        fieldsOf(type, Object.fromEntries(Object.keys(EXAMPLES[type]).map((key) => [key, undefined]))),
      ).toEqual({
        ...EMPTY,
        user: "Someone",
      });
    }
    expect(parse("gift", {})).toMatchObject({ fields: { ...EMPTY, user: "Anonymous" } });
    expect(parse("cheer", {})).toMatchObject({ fields: { ...EMPTY, user: "Anonymous" } });
  });

  test("an empty display name falls back to the login, then to Someone", () => {
    expect(fieldsOf("follow", { user_name: "" }).user).toBe("mossy_owl");
    expect(fieldsOf("follow", { user_name: "   ", user_login: null }).user).toBe("Someone");
    expect(fieldsOf("raid", { from_broadcaster_user_name: null }).user).toBe("quillandkettle");
  });

  test("tiers other than 1000/2000/3000 are null", () => {
    for (const tier of ["3000", "1000"])
      expect(fieldsOf("subscribe", { tier }).tier).toBe(tier === "1000" ? "1" : "3");
    for (const tier of [1000, "prime", "4000", "", null, "1000 "]) {
      expect(fieldsOf("subscribe", { tier }).tier).toBeNull();
    }
  });

  test("amounts that are not non-negative whole numbers are null", () => {
    for (const bits of [-5, 1.5, "100", Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, null, {}]) {
      expect(fieldsOf("cheer", { bits }).amount).toBeNull();
    }
    expect(fieldsOf("cheer", { bits: 0 }).amount).toBe(0);
    expect(fieldsOf("raid", { viewers: "38" }).amount).toBeNull();
    expect(fieldsOf("gift", { total: -1 }).amount).toBeNull();
  });

  test("a resub with null emotes, a string message or no message", () => {
    expect(fieldsOf("resub", { message: { text: "hi", emotes: null } }).message).toBe("hi");
    expect(fieldsOf("resub", { message: "as a string" }).message).toBe("as a string");
    expect(fieldsOf("resub", { message: null }).message).toBeNull();
    expect(fieldsOf("resub", { message: { text: 7 } }).message).toBeNull();
    expect(fieldsOf("resub", { cumulative_total: 9, cumulative_months: undefined })).toMatchObject({
      amount: null,
      months: null,
    });
  });

  test("a redemption without input, reward or a usable id", () => {
    const fields = fieldsOf("redemption", { user_input: "", reward: null });
    expect(fields).toMatchObject({ reward: null, message: null });
    expect(fieldsOf("redemption", { reward: { title: 12 } }).reward).toBeNull();
    for (const id of [undefined, 7, "", "has space", "x".repeat(129)]) {
      expect(parse("redemption", { ...EXAMPLES.redemption, id })).toMatchObject({ naturalKey: null });
    }
  });

  test("no field of any alert is undefined, and none reads 'undefined' or 'null'", () => {
    const odd = [{}, { user_name: undefined, message: undefined, reward: {} }, { user_name: 5, tier: {} }];
    for (const type of Object.keys(EXAMPLES) as Example[]) {
      for (const changes of odd) {
        const parsed = parse(type, { ...EXAMPLES[type], ...changes });
        if (parsed?.kind !== "alert") continue;
        for (const value of Object.values(parsed.fields)) expect(value).not.toBeUndefined();
        expect(JSON.stringify(parsed.fields)).not.toMatch(/undefined|"null"/);
      }
    }
  });
});

describe("viewer text and names made plain", () => {
  test("troll texts in a message, an input and a name keep no control or bidi character", () => {
    for (const troll of TROLL_TEXTS) {
      const cheer = fieldsOf("cheer", { message: troll, user_name: troll });
      const redemption = fieldsOf("redemption", { user_input: troll, reward: { title: troll } });
      for (const text of [cheer.message, cheer.user, redemption.message, redemption.reward]) {
        expect(text).not.toMatch(/[\p{Cc}\u202a-\u202e\u2066-\u2069\u200e\u200f]/u);
        expect(text?.length).toBeGreaterThan(0);
      }
    }
    expect(fieldsOf("cheer", { message: "\u202eelpmaxe\u202clive" }).message).toBe("elpmaxelive");
  });

  test("line breaks and tabs become single spaces, and the text is trimmed", () => {
    expect(fieldsOf("resub", { message: { text: "  one\nline\r\n\ttwo  " } }).message).toBe("one line two");
    expect(fieldsOf("cheer", { message: "\u0000\u0007" }).message).toBeNull();
  });

  test("a huge message is capped at 500 code points, never splitting an emoji", () => {
    const message = fieldsOf("cheer", { message: "😀".repeat(100_000) }).message ?? "";
    expect([...message].length).toBe(500);
    expect(message.isWellFormed()).toBe(true);
    expect([...fieldsOf("follow", { user_name: "N".repeat(10_000) }).user].length).toBe(100);
  });

  test("a lone surrogate is made well formed; other scripts are kept as written", () => {
    expect(fieldsOf("cheer", { message: "bad \ud800 half" }).message?.isWellFormed()).toBe(true);
    expect(fieldsOf("follow", { user_name: "모시_올빼미" }).user).toBe("모시_올빼미");
    expect(fieldsOf("cheer", { message: "fre\u0301e é 🎉" }).message).toBe("fre\u0301e é 🎉");
  });
});
