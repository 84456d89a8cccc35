// One vocabulary (ARCHITECTURE.md "Rooms"): cuebot's words are listed once, in server/vocabulary.ts.
// A module that spells one of its lists out again (an array of the same words, or a union type of them)
// is a hand copy that will drift: it takes the list, or the type, from the vocabulary instead. The
// simulators are left out: they share nothing with cuebot on purpose.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import * as vocabulary from "../../server/vocabulary.ts";
import { applicationModules, REPO_ROOT } from "./import-graph.ts";

const VOCABULARY_MODULE = "server/vocabulary.ts";

/** Every list of words the vocabulary exports, by name. */
const LISTS = Object.entries(vocabulary as Record<string, unknown>).filter(
  (entry): entry is [string, readonly string[]] =>
    Array.isArray(entry[1]) && entry[1].length > 1 && entry[1].every((word) => typeof word === "string"),
);

const sameWords = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set(a).size === new Set(b).size && a.every((word) => b.includes(word));

const isNullish = (t: ts.TypeNode) =>
  t.kind === ts.SyntaxKind.UndefinedKeyword ||
  (ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword);

/** The words an array literal or a union type spells out, when it is made of string literals only. */
function spelledWords(node: ts.Node): string[] | null {
  if (ts.isArrayLiteralExpression(node)) {
    const words = node.elements.filter(ts.isStringLiteral).map((e) => e.text);
    return words.length === node.elements.length ? words : null;
  }
  if (ts.isUnionTypeNode(node)) {
    // `"1" | "2" | "3" | null` copies the tiers as much as the union without null does.
    const members = node.types.filter((t) => !isNullish(t));
    const words = members
      .filter((t): t is ts.LiteralTypeNode => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal))
      .map((t) => (t.literal as ts.StringLiteral).text);
    return words.length === members.length ? words : null;
  }
  return null;
}

/** Each place in `source` that spells out one of `lists`, as "file:line: NAME". */
export function handCopies(
  file: string,
  text: string,
  lists: readonly [string, readonly string[]][],
): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const words = spelledWords(node);
    const list = words && lists.find(([, vocabularyWords]) => sameWords(words, vocabularyWords));
    if (list) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${file}:${line}: spells out ${list[0]} (import it from ${VOCABULARY_MODULE})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("one vocabulary", () => {
  test("the vocabulary imports nothing and lists its words", () => {
    const text = readFileSync(join(REPO_ROOT, VOCABULARY_MODULE), "utf8");
    expect(text).not.toMatch(/^\s*(import|export .* from)\b/m);
    expect(LISTS.map(([name]) => name)).toEqual(
      expect.arrayContaining(["ROLES", "CONNECTION_STATES", "ALERT_TYPES", "COMMAND_NAMES", "USER_LEVELS"]),
    );
  });

  test("no module spells out one of its lists again (the store, the server, the dashboard, the overlay)", () => {
    const modules = applicationModules().filter(
      (m) => m !== VOCABULARY_MODULE && !m.startsWith("server/sim/"),
    );
    const copies = modules.flatMap((m) => handCopies(m, readFileSync(join(REPO_ROOT, m), "utf8"), LISTS));
    expect(copies).toEqual([]);
  }, 20_000);

  test("the check finds a copied array and a copied union, in any order, and not a part of a list", () => {
    const copied = [
      'export const TYPES = ["raid", "follow", "subscribe", "resub", "gift", "cheer", "redemption"] as const;',
      'type State = "off" | "needs_consent" | "connecting" | "connected" | "error";',
      'const some = ["follow", "raid"];',
      'type Few = "off" | "error";',
      'let tier: "3" | "1" | "2" | null = null;',
    ].join("\n");
    expect(handCopies("a page", copied, LISTS)).toEqual([
      "a page:1: spells out ALERT_TYPES (import it from server/vocabulary.ts)",
      "a page:2: spells out CONNECTION_STATES (import it from server/vocabulary.ts)",
      "a page:5: spells out SUB_TIERS (import it from server/vocabulary.ts)",
    ]);
  });
});
