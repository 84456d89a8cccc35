import { describe, expect, test } from "bun:test";
import { allowTest, linkHosts, links } from "../../../../server/moderation/filters/links.ts";
import { INVISIBLE_LEADS } from "../../../helpers/troll-texts.ts";
import { line, ORDINARY_CHAT, settingsOf } from "../lines.ts";

const catches = (text: string, allow: string[] = []) =>
  links.compile(settingsOf("links", { allow }))(line(text));

describe("links: what counts as a link", () => {
  test("a host with a public top-level domain, with or without a scheme, in any case", () => {
    for (const text of [
      "visit example.com",
      "https://example.com/free",
      "http://EXAMPLE.COM",
      "www.twitch.tv/someone",
      "discord.gg/abc",
      "bit.ly/xyz",
      "cheap viewers at spam.xyz",
      "get it on file.zip",
      "www.ok.so",
      "ok.so/x",
      "mail me at me@example.com",
      "https://localhost/x",
    ]) {
      expect({ text, caught: catches(text) }).toEqual({ text, caught: true });
    }
  });

  test("the spellings spammers use to dodge filters", () => {
    for (const text of [
      "example . com",
      "example .com",
      "example(dot)com",
      "example (dot) com",
      "example[dot]com",
      "example [.] com",
      "example(.)com",
      "example{dot}com",
      "discord. gg/abc",
      "visit evil. com",
      "evil\u200b. com now",
      "ex\u200bample.com",
      "example\u200b.com",
      "example.\u2060com",
      "ехаmple.com",
      "ｅｘａｍｐｌｅ．ｃｏｍ",
      "example。com",
      "\u202emoc.elpmaxe",
      "e\u0301xample.com",
      "файл.рф",
    ]) {
      expect({ text, caught: catches(text) }).toEqual({ text, caught: true });
    }
  });

  test("every invisible character a troll puts in a host still leaves a link", () => {
    // (A right-to-left override turns what follows around: its own test is above.)
    for (const invisible of INVISIBLE_LEADS.filter((char) => char !== "\u202e")) {
      const text = `ex${invisible}ample${invisible}.${invisible}com`;
      expect({ invisible, caught: catches(text) }).toEqual({ invisible, caught: true });
    }
  });

  test("a host with a port is a link, whatever its TLD", () => {
    expect(linkHosts("evil.com:8080")).toEqual(["evil.com"]);
    expect(linkHosts("evil.com:8080/x")).toEqual(["evil.com"]);
    expect(linkHosts("go to evil.com:443 now")).toEqual(["evil.com"]);
    expect(linkHosts("ok.no:80")).toEqual(["ok.no"]);
    expect(linkHosts("ｅｖｉｌ．ｃｏｍ：８０８０")).toEqual(["evil.com"]);
    expect(linkHosts("evil(dot)no:80")).toEqual(["evil.no"]);
    expect(linkHosts("at 12:30 oh.no")).toEqual([]);
  });

  test("ordinary chat with dots is not a link", () => {
    for (const text of [
      ...ORDINARY_CHAT,
      "e.g. the red one",
      "wait... what",
      "v1.2.3 is out",
      "pi is 3.14159",
      "Mr.Bean is great",
      "gg.wp",
      "I was there (.) yes",
      "that's it. me too",
      "good game. live now",
      "ok.so what now",
      "it.is fine",
      "oh.no",
      "hey.how are you",
      "this.is",
      "nice.one",
      "i am.so tired",
      "omg.lol",
      "wait .no way",
      "lol . no",
      "so . do it",
      "who .is that",
    ]) {
      expect({ text, caught: catches(text) }).toEqual({ text, caught: false });
    }
  });

  test("the hosts found are folded: lower case, look-alikes as Latin", () => {
    expect(linkHosts("Go to ЕХАМРLЕ.com/x and https://user@Other.ORG:8080/path")).toEqual([
      "example.com",
      "other.org",
    ]);
  });
});

describe("links: the allow list", () => {
  test("example.com allows that host and www.example.com, not other hosts under it", () => {
    const allowed = allowTest(["example.com"]);
    expect(allowed("example.com")).toBe(true);
    expect(allowed("www.example.com")).toBe(true);
    expect(allowed("EXAMPLE.COM")).toBe(true);
    expect(allowed("clips.example.com")).toBe(false);
    expect(allowed("notexample.com")).toBe(false);
    expect(allowed("example.com.evil.xyz")).toBe(false);
  });

  test("*.example.com allows example.com and every host under it", () => {
    const allowed = allowTest(["*.Example.com"]);
    expect(allowed("example.com")).toBe(true);
    expect(allowed("clips.example.com")).toBe(true);
    expect(allowed("a.b.example.com")).toBe(true);
    expect(allowed("badexample.com")).toBe(false);
    expect(allowed("com")).toBe(false);
  });

  test("a line is caught when any of its links is not allowed", () => {
    expect(catches("clip: https://clips.twitch.tv/abc", ["*.twitch.tv"])).toBe(false);
    expect(catches("clip: clips.twitch.tv/abc and evil.xyz", ["*.twitch.tv"])).toBe(true);
    expect(catches("ехаmple.com", ["example.com"])).toBe(false);
    expect(catches("see ФАЙЛ.РФ/x", ["файл.рф"])).toBe(false);
    expect(catches("see файл.рф", ["*.ok.рф"])).toBe(true);
  });

  test("10,000 entries compile and a line is matched against them at once", () => {
    const allow = Array.from({ length: 10_000 }, (_, i) => (i % 2 ? `site${i}.com` : `*.host${i}.net`));
    expect(links.check?.(settingsOf("links", { allow }))).toBeNull();
    const test = links.compile(settingsOf("links", { allow }));
    expect(test(line("see site9999.com and x.y.host9998.net"))).toBe(false);
    expect(test(line("see site9998.com"))).toBe(true);
  });

  test("check names the first entry that is not a host pattern", () => {
    const check = (allow: string[]) => links.check?.(settingsOf("links", { allow }));
    expect(check(["example.com", "*.twitch.tv", "файл.рф", "a-b.co.uk"])).toBeNull();
    expect(check(["example.com", "https://example.com"])).toBe(
      "allow[1]: not a host name (write example.com or *.example.com)",
    );
    expect(check(["localhost"])).toStartWith("allow[0]: not a host name");
    expect(check(["*.*.example.com"])).toStartWith("allow[0]: not a host name");
    expect(check(["ex ample.com"])).toStartWith("allow[0]: not a host name");
    expect(check(["-bad.com"])).toStartWith("allow[0]: not a host name");
    expect(check([""])).toBe("allow[0]: empty");
    expect(check([`${"a".repeat(250)}.com`])).toBe("allow[0]: longer than 253 characters");
  });
});
