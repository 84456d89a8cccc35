import { describe, expect, test } from "bun:test";
import {
  boundedText,
  foldText,
  MAX_MATCHED_UNITS,
  sameTextKey,
  visibleText,
} from "../../../server/moderation/text-fold.ts";
import { INVISIBLE_LEADS } from "../../helpers/troll-texts.ts";

describe("folding text for matching", () => {
  test("printable ASCII is only lower-cased", () => {
    expect(foldText("Visit EXAMPLE.com Now!")).toBe("visit example.com now!");
  });

  test("full-width and mathematical letters fold to Latin (NFKC's compatibility forms)", () => {
    expect(foldText("ｅｘａｍｐｌｅ．ｃｏｍ")).toBe("example.com");
    expect(foldText("𝐟𝐫𝐞𝐞 𝓿𝓲𝓮𝔀𝓮𝓻𝓼")).toBe("free viewers");
    expect(foldText("example。com")).toBe("example.com");
  });

  test("look-alike letters of other scripts fold to Latin, in lower case", () => {
    expect(foldText("ехаmple.com")).toBe("example.com");
    expect(foldText("ＦＲＥＥ ＶＩＥＷＥＲＳ")).toBe("free viewers");
    expect(foldText("Ꭼxample")).toBe("example");
  });

  test("ß and ẞ read as ss, not as the b they look like", () => {
    expect(foldText("Straße")).toBe("strasse");
    expect(foldText("STRAẞE")).toBe("strasse");
    expect(foldText("straße")).toBe(foldText("Strasse"));
  });

  test("invisible characters, accents and variation selectors are dropped", () => {
    for (const invisible of INVISIBLE_LEADS.filter((char) => !/[\s\u2800\u202e]/u.test(char))) {
      expect(foldText(`ex${invisible}ample`)).toBe("example");
    }
    expect(foldText("h\u0301e\u0308llo")).toBe("hello");
    expect(foldText("fre\u00ade")).toBe("free");
  });

  test("odd spaces and the braille blank read as spaces", () => {
    expect(foldText("free\u3000viewers\u2800now\u00a0ok")).toBe("free viewers now ok");
  });

  test("a right-to-left override is read in the order it shows", () => {
    expect(foldText("\u202emoc.elpmaxe")).toBe("example.com");
    expect(foldText("see \u202emoc.elpmaxe\u202c now")).toBe("see example.com now");
  });

  test("visible text keeps other scripts' letters (host names in them are found), accents aside", () => {
    expect(visibleText("ФАЙЛ.рф\u200b")).toBe("фаил.рф");
  });

  test("500 combining marks on one letter fold to the letter, quickly", () => {
    const zalgo = `a${"\u0301\u0336\u0489".repeat(500)}b`;
    expect(foldText(zalgo)).toBe("ab");
  });

  test("a text longer than the bound is folded on its beginning, never split inside a pair", () => {
    expect(foldText("A".repeat(10_000))).toBe("a".repeat(MAX_MATCHED_UNITS));
    const emoji = `${"x".repeat(MAX_MATCHED_UNITS - 1)}😀`;
    expect(boundedText(emoji)).toBe("x".repeat(MAX_MATCHED_UNITS - 1));
    expect(boundedText("short")).toBe("short");
  });

  test("lines that read the same share a key: client duplicate suffixes, doubled spaces, look-alikes", () => {
    const key = sameTextKey("FOLLOW my channel for free subs");
    for (const copy of [
      "follow my channel for free subs \u{e0000}",
      "follow my channel for free subs\u034f",
      "follow  my channel for free subs",
      " ｆｏｌｌｏｗ my сhannel for free subs ",
    ]) {
      expect(sameTextKey(copy)).toBe(key);
    }
    expect(sameTextKey("follow my channel for free")).not.toBe(key);
  });
});
