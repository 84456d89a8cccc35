import { describe, expect, test } from "bun:test";
import { LEVEL_RULE } from "../../../server/custom/levels.ts";
import { type ManagementParse, parseManagementLine, USAGE } from "../../../server/custom/management.ts";
import { NAME_RULE } from "../../../server/custom/names.ts";
import { expectNoEcho, FOLDING_LOOKALIKES, TROLL_TEXTS } from "../../helpers/troll-texts.ts";

const ok = (line: string) => {
  const parsed = parseManagementLine(line);
  if (!parsed?.ok) throw new Error(`expected an operation from ${line}: ${JSON.stringify(parsed)}`);
  return parsed.operation;
};
const error = (line: string): string => {
  const parsed: ManagementParse | null = parseManagementLine(line);
  if (parsed === null || parsed.ok)
    throw new Error(`expected an error from ${line}: ${JSON.stringify(parsed)}`);
  return parsed.error;
};

describe("management lines: add, edit, delete", () => {
  test("add with options between the name and the response", () => {
    expect(ok("!commands add !Discord -ul=mod -cd=10 Join us on discord")).toEqual({
      kind: "add",
      name: "discord",
      options: { userLevel: "moderator", cooldownSeconds: 10 },
      response: "Join us on discord",
    });
    expect(ok("!commands add !lurk $(user) is lurking")).toEqual({
      kind: "add",
      name: "lurk",
      options: {},
      response: "$(user) is lurking",
    });
  });

  test("the response keeps its own spacing; option-like words inside it stay text", () => {
    expect(ok("!addcom !x a  b -cd=5 c")).toMatchObject({ response: "a  b -cd=5 c", options: {} });
  });

  test("options may come before the name (a forum guide's order)", () => {
    expect(ok("!commands add -cd=15 !x hi")).toMatchObject({ name: "x", options: { cooldownSeconds: 15 } });
  });

  test("an alias needs no response; its target must be a name", () => {
    expect(ok("!commands add !d -a=!discord")).toEqual({
      kind: "add",
      name: "d",
      options: { aliasTarget: "discord" },
      response: "$(query)",
    });
    expect(ok("!commands add !reset -ul=mod -a=!commands edit !deaths \\-c=0")).toMatchObject({
      options: { userLevel: "moderator", aliasTarget: "commands" },
      response: "edit !deaths -c=0",
    });
    expect(error("!commands add !d -a=discord")).toContain("-a= takes the command to run");
    expect(error("!commands add !d -a=!🔥 hi")).toContain(NAME_RULE);
  });

  test("edit keeps what it does not name: options alone, a response alone, or both", () => {
    expect(ok("!commands edit !x -cd=60")).toEqual({
      kind: "edit",
      name: "x",
      options: { cooldownSeconds: 60 },
      response: null,
    });
    expect(ok("!editcom !X new text")).toEqual({
      kind: "edit",
      name: "x",
      options: {},
      response: "new text",
    });
    expect(ok("!commands update !x -c=-1")).toEqual({
      kind: "edit",
      name: "x",
      options: { count: -1 },
      response: null,
    });
    expect(error("!commands edit !x")).toBe(USAGE.edit);
  });

  test("delete, with Nightbot's word and the other bots' short forms", () => {
    for (const line of [
      "!commands delete !x",
      "!commands remove !x",
      "!commands del !X",
      "!delcom !x",
      "!DELCOM x",
    ]) {
      expect(ok(line)).toEqual({ kind: "delete", name: "x" });
    }
    expect(error("!commands delete !x and more")).toBe(USAGE.delete);
    expect(error("!delcom")).toBe(USAGE.delete);
  });

  test("bare !commands is the list; other lines are not management lines", () => {
    expect(ok("!commands")).toEqual({ kind: "list" });
    expect(ok("  !COMMANDS  ")).toEqual({ kind: "list" });
    for (const line of [
      "!commandsfoo add !x y",
      "commands add !x y",
      "!discord",
      "hello",
      "",
      "!addcomx !a b",
    ]) {
      expect(parseManagementLine(line)).toBeNull();
    }
  });
});

describe("management lines: every mistake gets one usage line", () => {
  test("missing pieces", () => {
    expect(error("!commands add")).toBe(USAGE.add);
    expect(error("!addcom")).toBe(USAGE.add);
    expect(error("!commands edit")).toBe(USAGE.edit);
    expect(error("!commands frobnicate !x")).toBe(USAGE.any);
    expect(error("!commands add !x")).toBe(`A new command needs a response. ${USAGE.add}`);
    expect(error("!commands add !x -cd=10 -ul=mod")).toBe(`A new command needs a response. ${USAGE.add}`);
  });

  test("options without values, unknown options, options twice", () => {
    expect(error("!commands add !x -cd hello")).toBe("-cd needs a value, like -cd=30.");
    expect(error("!commands add !x -UL= hello")).toBe("-ul needs a value, like -ul=moderator.");
    expect(error("!commands add !x -a hello")).toBe("-a needs a value, like -a=!other.");
    expect(error("!commands add !x -zz=1 hello")).toBe(
      "Options are -ul=level, -cd=seconds, -a=!other and -c=count.",
    );
    expect(error("!commands add -cd=10 !x -cd=20 hello")).toBe("Each option may be given once.");
  });

  test("cooldowns are 5 to 300 whole seconds", () => {
    expect(ok("!addcom !x -cd=5 a")).toMatchObject({ options: { cooldownSeconds: 5 } });
    expect(ok("!addcom !x -cd=300 a")).toMatchObject({ options: { cooldownSeconds: 300 } });
    const rule = "A cooldown is a whole number of seconds from 5 to 300.";
    for (const cd of ["0", "4", "301", "abc", "-5", "5.5", "1e3", "99999999999", "５"]) {
      expect(error(`!addcom !x -cd=${cd} a`)).toBe(rule);
    }
  });

  test("levels must be Nightbot's", () => {
    expect(error("!addcom !x -ul=god a")).toBe(LEVEL_RULE);
    expect(error("!addcom !x -ul=admin a")).toBe(LEVEL_RULE);
  });

  test("counts are bounded whole numbers", () => {
    expect(ok("!editcom !x -c=0")).toMatchObject({ options: { count: 0 } });
    expect(ok("!editcom !x -c=-1000000000")).toMatchObject({ options: { count: -1_000_000_000 } });
    const rule = "-c= takes a whole number up to 1,000,000,000.";
    for (const bad of ["abc", "1000000001", "99999999999", "1.5", "+1"])
      expect(error(`!editcom !x -c=${bad}`)).toBe(rule);
  });

  test("responses are at most 500 characters, counted as a chatter sees them", () => {
    expect(ok(`!addcom !x ${"é".repeat(500)}`)).toMatchObject({ response: "é".repeat(500) });
    expect(ok(`!addcom !x ${"🔥".repeat(500)}`)).toMatchObject({ response: "🔥".repeat(500) });
    expect(error(`!addcom !x ${"a".repeat(501)}`)).toBe("A response is at most 500 characters.");
    expect(error(`!addcom !x ${"word ".repeat(200_000)}`)).toBe("A response is at most 500 characters.");
    const plain = "A response is one line of plain text (no control characters).";
    expect(error("!addcom !x one\ntwo")).toBe(plain);
    expect(error("!addcom !x a\u0000b")).toBe(plain);
    expect(error("!addcom !x broken \ud800 half")).toBe(plain);
  });

  test("bad names get the rule and the usage, never the typed name", () => {
    for (const name of [
      "!🔥",
      "!fire🔥",
      "!dé",
      `!${"a".repeat(40)}`,
      "!!x",
      ...FOLDING_LOOKALIKES.map((name) => `!${name}`),
      ...TROLL_TEXTS.filter((t) => !/\s/.test(t)).map((t) => `!${t}`),
    ]) {
      const message = error(`!commands add ${name} hello`);
      expect(message.startsWith("A command name is")).toBe(true);
      expectNoEcho(message);
    }
  });

  test("troll values in options get a fixed rule, never the value", () => {
    for (const troll of TROLL_TEXTS.filter((t) => !/\s/.test(t))) {
      expect(error(`!commands add !x -ul=${troll} hi`)).toBe(LEVEL_RULE);
      for (const key of ["cd", "a", "c"]) expectNoEcho(error(`!commands add !x -${key}=${troll} hi`));
    }
    // A value with spaces ends at the first one; the rest is the response, as Nightbot reads it.
    expect(error("!commands add !x -cd=free subs")).toBe(
      "A cooldown is a whole number of seconds from 5 to 300.",
    );
  });

  test("odd Unicode around the words", () => {
    expect(ok("!commands\u3000add\u3000!x\u3000hi")).toMatchObject({
      kind: "add",
      name: "x",
      response: "hi",
    });
    expect(error("!commands add\u200b !x hi")).toBe(USAGE.any);
    expect(error("!commands add !x\u200b hi").startsWith("A command name is")).toBe(true);
  });
});
