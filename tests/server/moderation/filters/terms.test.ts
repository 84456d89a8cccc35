import { describe, expect, test } from "bun:test";
import { terms } from "../../../../server/moderation/filters/terms.ts";
import { compileFilters, judgeLine } from "../../../../server/moderation/judge.ts";
import { DEFAULT_FILTER_SETTINGS, MODERATION_LIMITS } from "../../../../server/vocabulary.ts";
import { line, ORDINARY_CHAT, settingsOf } from "../lines.ts";

const compiled = (list: string[]) => terms.compile(settingsOf("terms", { list }));
const check = (list: string[]) => terms.check?.(settingsOf("terms", { list }));

describe("terms: blocked words and phrases", () => {
  const blocked = compiled(["ass", "free viewers", "free*", "*coin", "c++", "b*tch"]);

  test("whole words, case aside; a word inside another is not caught", () => {
    expect(blocked(line("you ass!"))).toBe(true);
    expect(blocked(line("ASS"))).toBe(true);
    expect(blocked(line("first class seat"))).toBe(false);
    expect(blocked(line("assassin creed"))).toBe(false);
  });

  test("a phrase across any white space", () => {
    expect(blocked(line("get FREE   viewers now"))).toBe(true);
    expect(blocked(line("viewers free"))).toBe(true);
    expect(compiled(["free viewers"])(line("viewers free"))).toBe(false);
  });

  test("* matches within a word, at the start, end or middle", () => {
    expect(blocked(line("freebies here"))).toBe(true);
    expect(blocked(line("buy bitcoin"))).toBe(true);
    expect(blocked(line("what a b1tch"))).toBe(true);
    expect(blocked(line("what a bench"))).toBe(false);
  });

  test("a term with punctuation matches as written", () => {
    expect(blocked(line("i code c++ daily"))).toBe(true);
    expect(blocked(line("i code c daily"))).toBe(false);
  });

  test("look-alikes, full-width letters, invisible characters and accents are folded", () => {
    const blockedWord = compiled(["spam"]);
    for (const text of ["ѕраm", "ｓｐａｍ", "s\u200bp\u2060a\u00adm", "s\u0301pam", "𝐬𝐩𝐚𝐦", "SPAM!!"]) {
      expect({ text, caught: blockedWord(line(text)) }).toEqual({ text, caught: true });
    }
    expect(compiled(["ѕраm"])(line("spam"))).toBe(true);
    expect(compiled(["Strasse"])(line("die straße"))).toBe(true);
    expect(compiled(["straße"])(line("DIE STRASSE"))).toBe(true);
  });

  test("ordinary chat is not caught by ordinary terms", () => {
    for (const text of ORDINARY_CHAT)
      expect({ text, caught: blocked(line(text)) }).toEqual({ text, caught: false });
  });

  test("1,000 terms compile once and match", () => {
    const list = Array.from({ length: 1_000 }, (_, i) =>
      i % 3 === 0 ? `word${i}` : i % 3 === 1 ? `bad${i}*` : `two words${i}`,
    );
    expect(check(list)).toBeNull();
    const many = compiled(list);
    expect(many(line("an ordinary line about the game"))).toBe(false);
    expect(many(line("hello word999 there"))).toBe(true);
    expect(many(line("hello bad997ish there"))).toBe(true);
    expect(many(line("so two   WORDS998"))).toBe(true);
  });
});

describe("terms: scripts written without spaces", () => {
  test("a Han, kana, Hangul or Thai term is caught inside a longer run of text", () => {
    for (const [term, text] of [
      ["死ね", "お前死ねよ"],
      ["傻逼", "你是傻逼吗"],
      ["씨발", "씨발놈아"],
      ["ควาย", "ไอ้ควายเอ๊ย"],
      ["カード", "ギフトカードをプレゼント"],
    ] as const) {
      expect({ term, text, caught: compiled([term])(line(text)) }).toEqual({ term, text, caught: true });
    }
  });

  test("an invisible character or full-width form inside does not hide it; other text is not caught", () => {
    const blocked = compiled(["死ね"]);
    expect(blocked(line("お前死\u200bねよ"))).toBe(true);
    expect(blocked(line("死んだ"))).toBe(false);
    expect(blocked(line("ﾃｽﾄ 死 ね"))).toBe(false);
    expect(compiled(["ｶｰﾄﾞ"])(line("ギフトカード"))).toBe(true);
  });

  test("a letter-script word still needs whole words", () => {
    expect(compiled(["ass"])(line("死ねass死ね"))).toBe(false);
  });
});

describe("terms: ~/regex/flags", () => {
  test("runs with its flags on the line as typed", () => {
    const phone = compiled(["~/(\\d{3}[-.])?\\d{3}[-.]\\d{4}/"]);
    expect(phone(line("call 555-123-4567 now"))).toBe(true);
    expect(phone(line("call me"))).toBe(false);
    expect(compiled(["~/hello/i"])(line("HeLLo"))).toBe(true);
    expect(compiled(["~/hello/"])(line("HeLLo"))).toBe(false);
    expect(compiled(["~/^a.b$/ms"])(line("x\na\nb"))).toBe(true);
    expect(compiled(["~/\\u{1F600}/u"])(line("hi 😀"))).toBe(true);
    expect(compiled(["~/(?<word>spam)/g"])(line("spam"))).toBe(true);
  });

  test("a pattern that backtracks in other engines returns at once", () => {
    const evil = compiled(["~/(a+)+$/", "~/(a|aa)+b/", "~/(.*a){20}/"]);
    expect(evil(line(`${"a".repeat(30_000)}!`))).toBeBoolean();
    expect(evil(line(`${"a".repeat(400)}!`))).toBe(true);
    expect(compiled(["~/(a+)+$/"])(line(`${"a".repeat(400)}!`))).toBe(false);
  });

  test("with words and phrases in one list", () => {
    const mixed = compiled(["spam", "~/buy\\s+followers/i"]);
    expect(mixed(line("BUY   followers"))).toBe(true);
    expect(mixed(line("spam"))).toBe(true);
    expect(mixed(line("ham"))).toBe(false);
  });
});

describe("terms: check names the first entry that cannot be saved", () => {
  test("empty, too long, no letter, bad regex, unknown flag, a regex matching every line", () => {
    expect(check(["ok", ""])).toBe("list[1]: empty");
    expect(check(["   "])).toBe("list[0]: empty");
    expect(check(["x".repeat(201)])).toBe("list[0]: longer than 200 characters");
    expect(check(["x".repeat(200)])).toBeNull();
    expect(check(["*"])).toBe("list[0]: needs a letter or digit");
    expect(check(["~/(a)\\1/"])).toStartWith("list[0]: not a regex this bot can run (");
    expect(check(["~/(?=a)/"])).toStartWith("list[0]: not a regex this bot can run (");
    expect(check(["~/a{2000}/"])).toStartWith("list[0]: not a regex this bot can run (");
    expect(check(["~/a/y"])).toBe('list[0]: unknown regex flag "y" (i, m, s or u)');
    expect(check(["~/a*/"])).toBe("list[0]: matches an empty line, so every line");
    expect(check(["~/unclosed"])).toBe("list[0]: a regex is written ~/pattern/flags");
    expect(check(["~/a/i", "~/b/msu"])).toBeNull();
  });
});

describe("terms: what a saved list may cost", () => {
  const tooBigTogether = Array.from({ length: 1_000 }, (_, i) => `~/[a-z]{1,1000}q${i}/`);

  test("a list that cannot compile as one set is refused when saved, and never breaks a line", () => {
    expect(check(tooBigTogether)).toStartWith("list[0]: regex too big to run on every chat line (");
    const stored = compiled(tooBigTogether);
    expect(stored(line("hello chat"))).toBe(false);
    // Compiling 1,000 regexes to find the one too many is CPU work: ~1 s alone, several on a busy CI.
  }, 30_000);

  test("a regex too big, too many regexes, regexes too big together: refused with the limit", () => {
    expect(check([`~/${".{0,1000}".repeat(16)}z/s`])).toStartWith(
      `list[0]: regex too big to run on every chat line (`,
    );
    expect(check(["~/(\\w+\\s?){1,100}z/"])).toMatch(/, at most 200\)$/);
    const many = Array.from({ length: 101 }, (_, i) => `~/spam${i}/`);
    expect(check(many)).toBe("list[100]: more than 100 regexes in the list");
    const big = Array.from({ length: 6 }, (_, i) => `~/[a-z]{1,90}q${i}/`);
    expect(check(big)).toMatch(/^list\[5\]: the list's regexes together are too big .*at most 1000\)$/);
  });

  test("compiled anyway (saved under other limits), the regexes past the limits are left out", () => {
    const many = Array.from({ length: 150 }, (_, i) => `~/x${i}y/`);
    const stored = compiled(["ham", ...many]);
    expect(stored(line("x99y"))).toBe(true);
    expect(stored(line("x120y"))).toBe(false);
    expect(stored(line("ham"))).toBe(true);
  });

  test("text after a * is limited across the list; a * at the end is free", () => {
    const tails = Array.from({ length: 5 }, (_, i) => `*${"a".repeat(99)}${i}`);
    expect(check(tails)).toBeNull();
    expect(check([...tails, "*coin"])).toBe(
      "list[5]: the list's terms have more than 500 characters after a * in all",
    );
    expect(check([...tails, ...Array.from({ length: 995 }, (_, i) => `free${i}*`)])).toBeNull();
    expect(compiled([...tails, "*coin"])(line("bitcoin"))).toBe(false);
  });

  test("the worst list the limits accept judges a hostile 500-character line quickly", () => {
    const { regexSize, regexTotalSize, wildcardTails } = MODERATION_LIMITS;
    const worst = [
      ...Array.from({ length: regexTotalSize / regexSize }, (_, i) => `~/.{0,98}z${i}/s`),
      ...Array.from({ length: wildcardTails / 100 }, (_, i) => `*${"a".repeat(99)}${i}`),
      ...Array.from({ length: 890 }, (_, i) => `a${"a".repeat(i % 180)}${i}*`),
    ];
    expect(check(worst)).toBeNull();
    const filters = compileFilters({
      ...DEFAULT_FILTER_SETTINGS,
      terms: settingsOf("terms", { list: worst }),
    });
    const judge = (text: string) => judgeLine(filters, line(text), "everyone", { linksPermitted: false });
    const hostile = (seed: number) => [
      Array.from({ length: 500 }, (_, i) => "abcdefghij klmnopqrstuvwxy"[(i * 7 + seed) % 27]).join(""),
      `${"a".repeat(499)}${seed}`,
    ];
    for (const text of hostile(0)) judge(text);
    const lines = Array.from({ length: 10 }, (_, seed) => hostile(seed + 1)).flat();
    const started = performance.now();
    for (const text of lines) judge(text);
    expect((performance.now() - started) / lines.length).toBeLessThan(50);
  });
});
