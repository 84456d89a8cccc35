// What an alert reads on the overlay (its type's template filled), what the settings form refuses, the
// chat thanks line (posted under the streamer's name: never the viewer's words or an odd name), the
// test alert's sample fields and the minimums.
import { describe, expect, test } from "bun:test";
import { passesMinimum } from "../../../server/alerts/minimum.ts";
import { ALERT_TYPES, type AlertFields, DEFAULT_TEMPLATES } from "../../../server/alerts/model.ts";
import { sampleFields } from "../../../server/alerts/samples.ts";
import { chatThanksLine, checkTemplate, fillTemplate } from "../../../server/alerts/template.ts";
import { expectNoEcho, INVISIBLE_LEADS, TROLL_TEXTS } from "../../helpers/troll-texts.ts";

const NONE: AlertFields = {
  user: "Mossy_Owl",
  amount: null,
  months: null,
  tier: null,
  reward: null,
  message: null,
};
const fields = (changes: Partial<AlertFields>): AlertFields => ({ ...NONE, ...changes });

describe("filling a template", () => {
  test("every default template reads as a sentence with the sample fields", () => {
    const shown = ALERT_TYPES.map((type) => fillTemplate(DEFAULT_TEMPLATES[type], sampleFields(type), type));
    expect(shown).toEqual([
      "CuebotTester just followed!",
      "CuebotTester subscribed!",
      "CuebotTester subscribed for 7 months!",
      "CuebotTester gifted 5 subs!",
      "CuebotTester cheered 500 bits!",
      "CuebotTester is raiding with 42 viewers!",
      "CuebotTester redeemed Hydrate!!",
    ]);
  });

  test("every placeholder is filled", () => {
    const all = "{user}|{amount}|{months}|{tier}|{reward}|{message}|{viewers}";
    const full = fields({ amount: 9, months: 9, tier: "3", reward: "Kazoo solo", message: "hello there" });
    expect(fillTemplate(all, full, "raid")).toBe("Mossy_Owl|9|9|3|Kazoo solo|hello there|9");
  });

  test("{viewers} is a raid's amount and nothing for other types", () => {
    expect(fillTemplate("{user} brings {viewers} friends", fields({ amount: 38 }), "raid")).toBe(
      "Mossy_Owl brings 38 friends",
    );
    expect(fillTemplate("{user} brings {viewers} friends", fields({ amount: 100 }), "cheer")).toBe(
      "Mossy_Owl brings friends",
    );
  });

  test("a null field leaves no gap, no doubled space and never 'undefined' or 'null'", () => {
    expect(fillTemplate("{user} cheered {amount} bits!", NONE, "cheer")).toBe("Mossy_Owl cheered bits!");
    expect(fillTemplate("{user} says: {message}", NONE, "cheer")).toBe("Mossy_Owl says");
    expect(fillTemplate("Thanks, {reward}, really", NONE, "redemption")).toBe("Thanks really");
    expect(fillTemplate("{tier} {user}", NONE, "subscribe")).toBe("Mossy_Owl");
    const text = fillTemplate("{amount} {months} {tier} {reward} {message} {viewers} end", NONE, "resub");
    expect(text).toBe("End");
  });

  test("a zero amount is shown as 0", () => {
    expect(fillTemplate("{user} cheered {amount} bits!", fields({ amount: 0 }), "cheer")).toBe(
      "Mossy_Owl cheered 0 bits!",
    );
  });

  test("a brace pair that is no placeholder stays as typed; the streamer's own spacing is kept", () => {
    expect(fillTemplate("{user} {shrug} !", NONE, "follow")).toBe("Mossy_Owl {shrug} !");
    expect(fillTemplate("Merci {user} !", NONE, "follow")).toBe("Merci Mossy_Owl !");
  });

  test("a viewer's text is shown as it came, braces included, without being filled again", () => {
    const message = "{user} {amount} \uE000 }{";
    expect(fillTemplate("{message}", fields({ message }), "cheer")).toBe("{user} {amount} }{");
  });
});

describe("checking a template", () => {
  const overlay = { allowMessage: true };
  const chat = { allowMessage: false };

  test("templates with known placeholders pass", () => {
    for (const template of Object.values(DEFAULT_TEMPLATES))
      expect(checkTemplate(template, overlay)).toBeNull();
    expect(checkTemplate("{user}{amount}{months}{tier}{reward}{message}{viewers}", overlay)).toBeNull();
    expect(checkTemplate("Thanks for the raid, {user}! {viewers} of you :{", chat)).toBeNull();
  });

  test("an unknown placeholder is refused by name", () => {
    expect(checkTemplate("{user} gave {bits} bits", overlay)).toBe(
      "{bits} is not a placeholder; use {user} {amount} {months} {tier} {reward} {message} {viewers}.",
    );
    expect(checkTemplate("{User} followed", overlay)).toStartWith("{User} is not a placeholder");
    expect(checkTemplate("{user} {name} {foo}", overlay)).toStartWith("{name} is not");
  });

  test("odd text in braces is refused without being echoed", () => {
    for (const troll of TROLL_TEXTS) {
      const error = checkTemplate(`{user} {${troll}}`, overlay);
      expect(error).not.toBeNull();
      expectNoEcho(error ?? "");
    }
    expect(checkTemplate("{}", overlay)).toStartWith("Braces hold a placeholder");
    expect(checkTemplate(`{${"a".repeat(40)}}`, overlay)).toStartWith("Braces hold a placeholder");
  });

  test("the chat line refuses {message}", () => {
    expect(checkTemplate("{user} says {message}", chat)).toBe(
      "The chat line cannot use {message}: it never repeats what a viewer wrote.",
    );
    expect(checkTemplate("{user} says {message}", overlay)).toBeNull();
  });

  test("empty, over 200 characters, several lines or control characters are refused", () => {
    expect(checkTemplate("   ", overlay)).toBe("A template needs some text.");
    expect(checkTemplate("x".repeat(201), overlay)).toStartWith("A template is at most 200 characters");
    expect(checkTemplate("😀".repeat(200), overlay)).toBeNull();
    expect(checkTemplate("x".repeat(1_000_000), overlay)).toStartWith("A template is at most 200 characters");
    for (const bad of ["one\ntwo", "tab\there", "\u202e{user}", "bad \ud800 half", "nul\u0000"]) {
      expect(checkTemplate(bad, overlay)).toBe(
        "A template is one line of plain text (no line breaks or control characters).",
      );
    }
  });
});

describe("the chat thanks line", () => {
  test("a login-shaped name is used", () => {
    expect(chatThanksLine("Thanks for the raid, {user}!", fields({ amount: 38 }), "raid")).toBe(
      "Thanks for the raid, Mossy_Owl!",
    );
    expect(chatThanksLine("Thanks @{user} for {viewers} raiders", fields({ amount: 38 }), "raid")).toBe(
      "Thanks @Mossy_Owl for 38 raiders",
    );
    expect(chatThanksLine("{user} x{amount} {months} {tier} {reward}", sampleFields("resub"))).toBe(
      "CuebotTester x7 7 1",
    );
  });

  test("a name that is not login-shaped is left out and the sentence closed around the gap", () => {
    const korean = fields({ user: "모시_올빼미" });
    expect(chatThanksLine("Thanks for the raid, {user}!", korean, "raid")).toBe("Thanks for the raid!");
    expect(chatThanksLine("Thanks for the raid, @{user}!", korean, "raid")).toBe("Thanks for the raid!");
    expect(chatThanksLine("Welcome {user}", korean, "follow")).toBe("Welcome");
    expect(chatThanksLine("{user} just followed, welcome!", korean, "follow")).toBe(
      "Just followed, welcome!",
    );
    expect(chatThanksLine("Thanks, {user}, for the follow", korean, "follow")).toBe("Thanks for the follow");
    expect(
      chatThanksLine("Thanks {user} for {amount} bits", fields({ user: "Ünïcode", amount: 5 }), "cheer"),
    ).toBe("Thanks for 5 bits");
  });

  test("a line with nothing left but the name is not sent", () => {
    const korean = fields({ user: "모시_올빼미" });
    expect(chatThanksLine("{user}", korean, "follow")).toBeNull();
    expect(chatThanksLine("@{user}!", korean, "follow")).toBeNull();
    expect(chatThanksLine("{message}", fields({ message: "hello" }), "cheer")).toBeNull();
    expect(chatThanksLine("   ", NONE, "follow")).toBeNull();
  });

  test("troll texts as name, message or reward never reach chat", () => {
    for (const troll of TROLL_TEXTS) {
      const from = fields({ user: troll, message: troll });
      const line = chatThanksLine("Thanks {user}! {message} <3", from, "cheer");
      expect(line).toBe("Thanks! <3");
      expectNoEcho(line ?? "");
    }
  });

  test("{message} is never repeated, even in a template saved unchecked", () => {
    const line = chatThanksLine(
      "{user} said: {message}",
      fields({ message: "buy followers at evil.example" }),
    );
    expect(line).toBe("Mossy_Owl said");
  });

  test("the line never opens with a chat command and is one line", () => {
    expect(chatThanksLine("/ban {user}", NONE, "follow")).toBe("ban Mossy_Owl");
    expect(chatThanksLine(".{user} thanks", NONE, "follow")).toBe("Mossy_Owl thanks");
    expect(chatThanksLine("!so {user}", NONE, "raid")).toBe("so Mossy_Owl");
    expect(chatThanksLine("thanks\n/ban {user}", NONE, "follow")).toBe("thanks /ban Mossy_Owl");
  });

  test("nor with a chat command behind invisible characters", () => {
    for (const invisible of INVISIBLE_LEADS) {
      expect(chatThanksLine(`${invisible}!so {user}`, NONE, "raid")).toBe("so Mossy_Owl");
      expect(chatThanksLine(`${invisible} /ban {user}`, NONE, "follow")).toBe("ban Mossy_Owl");
    }
    expect(chatThanksLine("\u2800{user}!", fields({ user: "모시_올빼미" }), "follow")).toBeNull();
  });

  test("a long line is capped at 480 code points", () => {
    const line = chatThanksLine(
      `${"🎉".repeat(190)} {reward}`,
      fields({ reward: "R".repeat(400) }),
      "redemption",
    );
    expect([...(line ?? "")].length).toBe(480);
    expect(line?.isWellFormed()).toBe(true);
  });
});

describe("sample fields and minimums", () => {
  test("each type's sample names the tester and fills the type's fields", () => {
    expect(sampleFields("cheer")).toMatchObject({ user: "CuebotTester", amount: 500 });
    expect(sampleFields("raid")).toMatchObject({ amount: 42 });
    expect(sampleFields("gift")).toMatchObject({ amount: 5, tier: "1" });
    expect(sampleFields("resub")).toMatchObject({ amount: 7, months: 7 });
    expect(sampleFields("redemption")).toMatchObject({ reward: "Hydrate!" });
    const copy = sampleFields("follow");
    copy.user = "changed";
    expect(sampleFields("follow").user).toBe("CuebotTester");
  });

  test("cheers, raids and gifts below the minimum do not pass; 0 lets any through", () => {
    expect(passesMinimum("cheer", fields({ amount: 99 }), 100)).toBe(false);
    expect(passesMinimum("cheer", fields({ amount: 100 }), 100)).toBe(true);
    expect(passesMinimum("raid", fields({ amount: 2 }), 5)).toBe(false);
    expect(passesMinimum("gift", fields({ amount: 1 }), 0)).toBe(true);
    expect(passesMinimum("gift", fields({ amount: null }), 0)).toBe(true);
    expect(passesMinimum("gift", fields({ amount: null }), 3)).toBe(false);
  });

  test("the other types have no minimum; an odd minimum is none", () => {
    expect(passesMinimum("resub", fields({ amount: 1 }), 50)).toBe(true);
    expect(passesMinimum("follow", NONE, 10)).toBe(true);
    expect(passesMinimum("cheer", fields({ amount: 1 }), Number.NaN)).toBe(true);
    expect(passesMinimum("cheer", fields({ amount: 1 }), -3)).toBe(true);
  });
});
