import { describe, expect, test } from "bun:test";
import { parseCountLine } from "../../../server/custom/count-lines.ts";
import { changesQuotes, parseQuoteLine, QUOTE_USAGE } from "../../../server/custom/quote-lines.ts";
import { commandText } from "../../../server/custom/service.ts";
import { TROLL_TEXTS } from "../../helpers/troll-texts.ts";

describe("counter forms", () => {
  test("+, -, +n, -n and = n change the count; other words are the command's own", () => {
    expect(parseCountLine(["+"])).toEqual({ kind: "add", by: 1 });
    expect(parseCountLine(["-"])).toEqual({ kind: "add", by: -1 });
    expect(parseCountLine(["+5"])).toEqual({ kind: "add", by: 5 });
    expect(parseCountLine(["-1000"])).toEqual({ kind: "add", by: -1000 });
    expect(parseCountLine(["=", "12"])).toEqual({ kind: "set", value: 12 });
    expect(parseCountLine(["=-3"])).toEqual({ kind: "set", value: -3 });
    expect(parseCountLine([])).toBeNull();
    expect(parseCountLine(["hello", "+"])).toBeNull();
    for (const troll of TROLL_TEXTS) expect(parseCountLine(troll.split(" "))).toBeNull();
  });

  test("a counter form gone wrong is a usage line, never a change", () => {
    for (const words of [
      ["+1001"],
      ["+0"],
      ["+", "x"],
      ["="],
      ["=", "twelve"],
      ["=", "1", "2"],
      ["=99999999999"],
      ["+999999999"],
    ]) {
      expect(parseCountLine(words)).toEqual({ kind: "usage" });
    }
  });
});

describe("quote lines", () => {
  test("!quote reads; !addquote and !delquote change (or say how)", () => {
    expect(parseQuoteLine("quote", "")).toEqual({ kind: "random" });
    expect(parseQuoteLine("quote", "#12")).toEqual({ kind: "number", number: 12 });
    expect(parseQuoteLine("quote", "cat videos")).toEqual({ kind: "search", words: "cat videos" });
    expect(parseQuoteLine("addquote", "I am not a cat")).toEqual({ kind: "add", text: "I am not a cat" });
    expect(parseQuoteLine("addquote", "")).toEqual({ kind: "usage", reply: QUOTE_USAGE.add });
    expect(parseQuoteLine("delquote", "3")).toEqual({ kind: "delete", number: 3 });
    expect(parseQuoteLine("delquote", "0")).toEqual({ kind: "usage", reply: QUOTE_USAGE.delete });
    expect(parseQuoteLine("delquote", "https://evil.example")).toEqual({
      kind: "usage",
      reply: QUOTE_USAGE.delete,
    });
    expect(parseQuoteLine("quotes", "")).toBeNull();
    expect(changesQuotes({ kind: "search", words: "x" })).toBe(false);
    expect(changesQuotes({ kind: "usage", reply: "" })).toBe(true);
  });
});

describe("the line as typed", () => {
  test("a reply's @parent is skipped; a line that does not start with ! is none", () => {
    expect(commandText({ text: "@Bob !discord", replyParentLogin: "bob" })).toBe("!discord");
    expect(commandText({ text: "  !discord  ", replyParentLogin: null })).toBe("!discord");
    expect(commandText({ text: "hello !discord", replyParentLogin: null })).toBeNull();
  });
});
