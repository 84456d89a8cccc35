// The filters that count: caps, symbols, repetition, emotes, length.
import { describe, expect, test } from "bun:test";
import { caps } from "../../../../server/moderation/filters/caps.ts";
import { emotes } from "../../../../server/moderation/filters/emotes.ts";
import { length } from "../../../../server/moderation/filters/length.ts";
import { repetition } from "../../../../server/moderation/filters/repetition.ts";
import { symbols } from "../../../../server/moderation/filters/symbols.ts";
import { line, ORDINARY_CHAT, settingsOf } from "../lines.ts";

describe("caps: at least minLength letters, at least percent % capitals, emotes aside", () => {
  const test10 = caps.compile(settingsOf("caps", { minLength: 10, percent: 70 }));

  test("shouting is caught; short or mostly lower-case lines are not", () => {
    expect(test10(line("WHY IS NOBODY LISTENING"))).toBe(true);
    expect(test10(line("WHY IS NOBODY LISTENING to me"))).toBe(true);
    expect(test10(line("WHY IS nobody listening"))).toBe(false);
    expect(test10(line("OMG WOW!!!"))).toBe(false);
    expect(test10(line("OMG WOW YESS"))).toBe(true);
  });

  test("capitals of any script count, digits and symbols do not", () => {
    expect(test10(line("ПОЧЕМУ НИКТО НЕ СЛУШАЕТ"))).toBe(true);
    expect(test10(line("ΓΕΙΑ ΣΑΣ ΦΙΛΟΙ"))).toBe(true);
    expect(test10(line("1234567890 !!!! AB"))).toBe(false);
  });

  test("emote names are not shouting", () => {
    const emoteNames = ["PogChamp", "LUL", "KEKW"];
    expect(test10(line("LUL LUL KEKW PogChamp LUL KEKW ok", emoteNames))).toBe(false);
    expect(test10(line("LUL LUL PogChamp LUL LUL LUL LUL LUL"))).toBe(true);
  });

  test("the most common BTTV, FFZ and 7TV emote codes (sent as text) are not shouting either", () => {
    const defaults = caps.compile(settingsOf("caps"));
    for (const text of ["OMEGALUL OMEGALUL", "KEKW KEKW KEKW KEKW", "POGGERS LULW OMEGALUL COPIUM"]) {
      expect({ text, caught: defaults(line(text)) }).toEqual({ text, caught: false });
    }
    expect(defaults(line("KEKW WHY IS NOBODY LISTENING"))).toBe(true);
    expect(defaults(line("OMEGALULZ OMEGALULZ"))).toBe(true);
  });

  test("ordinary chat is not caught with the defaults", () => {
    const defaults = caps.compile(settingsOf("caps"));
    for (const text of ORDINARY_CHAT)
      expect({ text, caught: defaults(line(text)) }).toEqual({ text, caught: false });
  });
});

describe("symbols: at least minLength characters, at least percent % neither letters, digits, spaces nor emotes", () => {
  const test10 = symbols.compile(settingsOf("symbols", { minLength: 10, percent: 50 }));

  test("symbol walls and emoji walls are caught", () => {
    expect(test10(line("!!!!!!!!!!!!"))).toBe(true);
    expect(test10(line("$$$ ### @@@ %%%"))).toBe(true);
    expect(test10(line("😂😂😂😂😂😂😂😂😂😂"))).toBe(true);
    expect(test10(line("▓▓▓▓▓▒▒▒▒░░░░"))).toBe(true);
  });

  test("letters of any script, digits and spaces are not symbols", () => {
    expect(test10(line("what?! no way!!"))).toBe(false);
    expect(test10(line("привет!!! как дела"))).toBe(false);
    expect(test10(line("12345 67890"))).toBe(false);
    expect(test10(line("!!!!!!!!!"))).toBe(false);
  });

  test("emotes are not symbols; invisible characters and combining marks count as nothing", () => {
    expect(test10(line("<3 <3 <3 <3 Kappa Kappa", ["Kappa", "Kappa"]))).toBe(false);
    expect(test10(line(`lol${"\u200b\u034f\u{e0000}".repeat(20)}`))).toBe(false);
    expect(test10(line(`a${"\u0301".repeat(500)}bcdefghij`))).toBe(false);
    expect(test10(line("हिन्दी में बात करते हैं"))).toBe(false);
  });

  test("ordinary chat is not caught with the defaults", () => {
    const defaults = symbols.compile(settingsOf("symbols"));
    for (const text of ORDINARY_CHAT)
      expect({ text, caught: defaults(line(text)) }).toEqual({ text, caught: false });
  });
});

describe("repetition: a character, word or emote repeated more than max times in a row", () => {
  const test5 = repetition.compile(settingsOf("repetition", { max: 5 }));

  test("a character run longer than max", () => {
    expect(test5(line("noooooo"))).toBe(true);
    expect(test5(line("nooooo"))).toBe(false);
    expect(test5(line("!!!!!!"))).toBe(true);
    expect(test5(line("😂😂😂😂😂😂"))).toBe(true);
    expect(test5(line("❤️❤️❤️❤️❤️❤️"))).toBe(true);
  });

  test("a word or emote repeated in a row, case aside", () => {
    expect(test5(line("lol LOL lol lol Lol lol"))).toBe(true);
    expect(test5(line("Kappa Kappa Kappa Kappa Kappa Kappa", Array(6).fill("Kappa")))).toBe(true);
    expect(test5(line("lol lol lol lol lol"))).toBe(false);
    expect(test5(line("lol lol lol x lol lol lol"))).toBe(false);
  });

  test("laughter is not a character run (ㅋㅋㅋ, wwww, 8888, 5555, 草草草, 笑笑笑); a laughing word repeated is", () => {
    const defaults = repetition.compile(settingsOf("repetition"));
    for (const text of [
      "ㅋㅋㅋㅋㅋㅋㅋㅋㅋㅋㅋㅋ",
      "ㅎㅎㅎㅎㅎㅎㅎㅎㅎㅎㅎㅎ",
      "wwwwwwwwwwwwwww",
      "WWWWWWWWWWWWWWWW",
      "888888888888",
      "555555555555",
      "草草草草草草草草草草草草",
      "笑笑笑笑笑笑笑笑笑笑笑笑",
    ]) {
      expect({ text, caught: defaults(line(text)) }).toEqual({ text, caught: false });
    }
    expect(test5(line("ㅋㅋ ㅋㅋ ㅋㅋ ㅋㅋ ㅋㅋ ㅋㅋ"))).toBe(true);
    expect(test5(line("zzzzzz"))).toBe(true);
  });

  test("invisible characters do not break a run; spaces are not a run", () => {
    expect(test5(line("lol lol\u034f lol lol\u{e0000} lol lol"))).toBe(true);
    expect(test5(line("a\u200ba\u200ba\u200ba\u200ba\u200ba"))).toBe(true);
    expect(test5(line("hi          there"))).toBe(false);
  });

  test("ordinary chat is not caught with the defaults", () => {
    const defaults = repetition.compile(settingsOf("repetition"));
    for (const text of ORDINARY_CHAT)
      expect({ text, caught: defaults(line(text)) }).toEqual({ text, caught: false });
  });
});

describe("emotes: more than max emote fragments", () => {
  test("counts the line's Twitch emotes, not emote-looking words or emoji", () => {
    const test3 = emotes.compile(settingsOf("emotes", { max: 3 }));
    expect(test3(line("Kappa Kappa Kappa Kappa", Array(4).fill("Kappa")))).toBe(true);
    expect(test3(line("Kappa Kappa Kappa", Array(3).fill("Kappa")))).toBe(false);
    expect(test3(line("Kappa Kappa Kappa Kappa 😂😂😂😂"))).toBe(false);
  });

  test("an emote wall of 500 emotes is caught", () => {
    const wall = Array(500).fill("PogChamp");
    expect(emotes.compile(settingsOf("emotes"))(line(wall.join(" "), wall))).toBe(true);
  });
});

describe("length: more than max characters", () => {
  const test10 = length.compile(settingsOf("length", { max: 10 }));

  test("counts code points: an emoji is one character", () => {
    expect(test10(line("abcdefghijk"))).toBe(true);
    expect(test10(line("abcdefghij"))).toBe(false);
    expect(test10(line("😂".repeat(10)))).toBe(false);
    expect(test10(line("😂".repeat(11)))).toBe(true);
  });

  test("a line of combining marks is long", () => {
    expect(length.compile(settingsOf("length"))(line(`a${"\u0301".repeat(499)}`))).toBe(true);
  });
});
