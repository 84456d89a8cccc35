// The terms filter: blocked words, phrases and `~/regex/flags`.
// - A word or phrase matches whole words of the line (`ass` does not catch `class`), case aside, both
//   folded the same way (text-fold.ts: look-alikes, full-width letters, invisible characters and
//   accents); a phrase's words may be separated by any white space. `*` matches any letters, digits or
//   `_` within a word, and any other non-ASCII character but white space (`free*` catches `free`,
//   `freebies`; `*coin` catches `bitcoin`).
// - A term written only in scripts without spaces between words (Han, Hiragana, Katakana, Hangul,
//   Thai) matches anywhere in the folded line: `死ね` catches `お前死ねよ`.
// - Plain words and phrases (letters, digits, `_` and spaces) are looked up in Sets, one per phrase
//   length: no regex at all. Other terms (`*`, punctuation such as `c++`) become at most four
//   alternations in one RE2Set.
// - `~/pattern/flags` is the streamer's regex (JavaScript syntax, flags `i`, `m`, `s`, `u`; `g` is
//   accepted and means nothing here), run by re2js on the line as typed: linear time, no
//   backreferences or lookarounds (rejected when saved, with re2js's reason). A regex that matches an
//   empty line is rejected: it would catch every line.
// - A line's cost is bounded when the list is saved: at most MODERATION_LIMITS.regexTerms regexes, each
//   compiling to at most `regexSize` re2js instructions, `regexTotalSize` together, and at most
//   `wildcardTails` characters after a `*` in all (re2js's automaton may fall back to its NFA, whose
//   cost is the threads alive × characters); `check` builds exactly what `compile` builds, so a saved
//   list compiles.
// - `compile` never throws: the terms past those limits (a list saved under other limits) are left
//   out, and a set that does not compile is left out too (that part of the filter catches nothing)
//   rather than break every chat line.
// Every line is matched on its first MAX_MATCHED_UNITS units (text-fold.ts): no line costs more.
import { RE2JS, RE2Set } from "re2js";
import { type FilterSettings, MODERATION_LIMITS } from "../../vocabulary.ts";
import type { FilterDefinition, LineTest } from "../filter.ts";
import { codePointCount } from "../line-text.ts";
import { boundedText, foldText } from "../text-fold.ts";

/** A term as it is matched. */
type Term =
  | { kind: "words"; words: string }
  /** Text of scripts written without spaces, found anywhere in the folded line. */
  | { kind: "inside"; text: string }
  /** `body` between word boundaries where it starts or ends with a word character. */
  /** `tail`: its characters after its first `*` (what a line's cost grows with: wildcardTail). */
  | { kind: "pattern"; body: string; before: boolean; after: boolean; tail: number }
  /** `size`: its compiled program's instructions. */
  | { kind: "regex"; source: string; size: number };

/**
 * What `*` matches: letters, digits and `_` in ASCII, anything but white space beyond it (a short class
 * where `\p{L}` is hundreds of ranges: 1,000 terms compile in milliseconds, not a second).
 */
const WITHIN_WORD = "[^\\s\\x00-\\x2f\\x3a-\\x40\\x5b-\\x5e\\x60\\x7b-\\x7f]*";
const BOUNDARY_BEFORE = "(?:^|[^\\p{L}\\p{N}_])";
const BOUNDARY_AFTER = "(?:$|[^\\p{L}\\p{N}_])";
const WORD = /[\p{L}\p{N}_]+/gu;
const PLAIN_WORDS = /^[\p{L}\p{N}_]+(?: [\p{L}\p{N}_]+)*$/u;
/** A term as typed in scripts whose words are not separated by spaces (and their marks). */
const SPACELESS_SCRIPTS =
  /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\p{sc=Thai}\u30fc\p{M}\s]+$/u;
const STARTS_WITH_WORD = /^[\p{L}\p{N}_*]/u;
const ENDS_WITH_WORD = /[\p{L}\p{N}_*]$/u;
const REGEX_TERM = /^~\/(.*)\/([a-z]*)$/s;
/** JavaScript flags and what they become in RE2 (`u`: RE2 is always Unicode; `g`: one test, no use). */
const REGEX_FLAGS: Record<string, string> = { i: "i", m: "m", s: "s", u: "", g: "" };
/** Memory for one RE2Set's DFA cache (re2js falls back to its NFA past it, still linear). */
const SET_MEMORY = 1 << 20;

/** What is wrong with one term, or the term ready to match. */
export function parseTerm(entry: string): Term | string {
  const term = entry.trim();
  if (term === "") return "empty";
  if (codePointCount(term) > MODERATION_LIMITS.termLength) {
    return `longer than ${MODERATION_LIMITS.termLength} characters`;
  }
  return term.startsWith("~/") ? parseRegexTerm(term) : parseWordTerm(term);
}

function parseWordTerm(term: string): Term | string {
  const folded = foldText(term).replace(/\s+/g, " ").trim();
  if (!/[\p{L}\p{N}]/u.test(folded)) return "needs a letter or digit";
  if (SPACELESS_SCRIPTS.test(term.normalize("NFKC"))) return { kind: "inside", text: folded };
  if (PLAIN_WORDS.test(folded)) return { kind: "words", words: folded };
  return {
    kind: "pattern",
    body: wordPatternBody(folded),
    tail: wildcardTail(folded),
    before: STARTS_WITH_WORD.test(folded),
    after: ENDS_WITH_WORD.test(folded),
  };
}

/**
 * The characters after a term's first `*` but other `*`s (`*coin`: 4, `free*`: 0). Across a word, the
 * `*` keeps the term alive and each such character may start one more thread of re2js's automaton,
 * so a line's cost grows with their sum over the list (MODERATION_LIMITS.wildcardTails).
 */
function wildcardTail(folded: string): number {
  const star = folded.indexOf("*");
  return star < 0 ? 0 : codePointCount(folded.slice(star + 1).replaceAll("*", ""));
}

/** A term with `*` or punctuation as an RE2 pattern over folded text. */
function wordPatternBody(folded: string): string {
  return folded
    .split(/(\*| )/)
    .map((part) => (part === "*" ? WITHIN_WORD : part === " " ? "\\s+" : RE2JS.quote(part)))
    .join("");
}

/** The pattern terms as at most four sources, one per pair of boundaries, each an alternation. */
function patternSources(terms: readonly Term[]): string[] {
  const groups = new Map<string, string[]>();
  for (const term of terms) {
    if (term.kind !== "pattern") continue;
    const boundaries = `${term.before ? BOUNDARY_BEFORE : ""}(?:)${term.after ? BOUNDARY_AFTER : ""}`;
    const bodies = groups.get(boundaries) ?? [];
    bodies.push(term.body);
    groups.set(boundaries, bodies);
  }
  return [...groups].map(([boundaries, bodies]) => boundaries.replace("(?:)", `(?:${bodies.join("|")})`));
}

function parseRegexTerm(term: string): Term | string {
  const parts = REGEX_TERM.exec(term);
  if (!parts) return "a regex is written ~/pattern/flags";
  const [, pattern = "", flags = ""] = parts;
  const unknown = [...flags].find((flag) => !(flag in REGEX_FLAGS));
  if (unknown) return `unknown regex flag "${unknown}" (i, m, s or u)`;
  const inline = [...new Set(flags)].map((flag) => REGEX_FLAGS[flag]).join("");
  let source: string;
  let size: number;
  try {
    source = `${inline ? `(?${inline})` : ""}${RE2JS.translateRegExp(pattern)}`;
    const regex = RE2JS.compile(source);
    if (regex.test("")) return "matches an empty line, so every line";
    size = regex.programSize();
  } catch (error) {
    return `not a regex this bot can run (${errorText(error)})`;
  }
  const most = MODERATION_LIMITS.regexSize;
  if (size > most) return `regex too big to run on every chat line (${size} steps, at most ${most})`;
  return { kind: "regex", source, size };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A list's terms ready to match (the entries rejected aside), and the first problem (a path named). */
interface ParsedList {
  terms: Term[];
  problem: string | null;
}

/**
 * The list's valid terms, but for the regexes from the first one past the list's regex limits on;
 * `problem` names the first entry rejected or past the limits.
 */
function parseList(list: readonly string[]): ParsedList {
  const terms: Term[] = [];
  let problem: string | null = null;
  const spent: Spent = { regexes: 0, regexSize: 0, wildcardTails: 0 };
  for (const [index, entry] of list.entries()) {
    const term = parseTerm(entry);
    const overLimits = typeof term === "string" ? term : spend(spent, term);
    if (overLimits) problem ??= `list[${index}]: ${overLimits}`;
    else if (typeof term !== "string") terms.push(term);
  }
  return { terms, problem };
}

/** What the list's terms spent so far of the limits on a line's cost. */
interface Spent {
  regexes: number;
  regexSize: number;
  wildcardTails: number;
}

/** The limit `term` would go over, or null (and then it is counted in `spent`). */
function spend(spent: Spent, term: Term): string | null {
  const { regexTerms, regexTotalSize, wildcardTails } = MODERATION_LIMITS;
  if (term.kind === "regex") {
    if (spent.regexes + 1 > regexTerms) return `more than ${regexTerms} regexes in the list`;
    if (spent.regexSize + term.size > regexTotalSize) {
      return `the list's regexes together are too big to run on every chat line (${spent.regexSize + term.size} steps, at most ${regexTotalSize})`;
    }
    spent.regexes += 1;
    spent.regexSize += term.size;
  } else if (term.kind === "pattern") {
    if (spent.wildcardTails + term.tail > wildcardTails) {
      return `the list's terms have more than ${wildcardTails} characters after a * in all`;
    }
    spent.wildcardTails += term.tail;
  }
  return null;
}

/** A line's matchers built from the terms, and what failed to build (the part that failed left out). */
interface Matchers {
  phrases: ((words: readonly string[]) => boolean) | null;
  inside: ((folded: string) => boolean) | null;
  patterns: ((text: string) => boolean) | null;
  regexes: ((text: string) => boolean) | null;
  failure: string | null;
}

function buildMatchers(terms: readonly Term[]): Matchers {
  const patterns = anyOf(patternSources(terms));
  const regexes = anyOf(terms.flatMap((term) => (term.kind === "regex" ? [term.source] : [])));
  return {
    phrases: phraseTest(terms.flatMap((term) => (term.kind === "words" ? [term.words] : []))),
    inside: insideTest(terms.flatMap((term) => (term.kind === "inside" ? [term.text] : []))),
    patterns: patterns.test,
    regexes: regexes.test,
    failure: patterns.failure ?? regexes.failure,
  };
}

function checkTerms(settings: FilterSettings["terms"]): string | null {
  const { terms, problem } = parseList(settings.list);
  if (problem) return problem;
  const { failure } = buildMatchers(terms);
  return failure ? `list: the list does not compile (${failure})` : null;
}

/** The sources as one RE2Set's test (whether any matches): null when there are none or it fails. */
function anyOf(sources: readonly string[]): {
  test: ((text: string) => boolean) | null;
  failure: string | null;
} {
  if (sources.length === 0) return { test: null, failure: null };
  const set = new RE2Set(RE2Set.UNANCHORED, 0, SET_MEMORY);
  try {
    for (const source of sources) set.add(source);
    set.compile();
  } catch (error) {
    return { test: null, failure: errorText(error) };
  }
  return { test: (text) => set.match(text).length > 0, failure: null };
}

/** Plain words and phrases: a Set of the folded phrases for each phrase length (in words). */
function phraseTest(phrases: readonly string[]): ((words: readonly string[]) => boolean) | null {
  if (phrases.length === 0) return null;
  const byLength = new Map<number, Set<string>>();
  for (const phrase of phrases) {
    const count = phrase.split(" ").length;
    const known = byLength.get(count) ?? new Set<string>();
    known.add(phrase);
    byLength.set(count, known);
  }
  return (words) => {
    for (const [count, known] of byLength) {
      for (let start = 0; start + count <= words.length; start++) {
        const phrase = count === 1 ? words[start]! : words.slice(start, start + count).join(" ");
        if (known.has(phrase)) return true;
      }
    }
    return false;
  };
}

/** Texts found anywhere in the folded line (its white space runs read as one space). */
function insideTest(texts: readonly string[]): ((folded: string) => boolean) | null {
  if (texts.length === 0) return null;
  const unique = [...new Set(texts)];
  return (folded) => {
    const spaced = folded.replace(/\s+/g, " ");
    return unique.some((text) => spaced.includes(text));
  };
}

function compileTerms(settings: FilterSettings["terms"]): LineTest {
  const { phrases, inside, patterns, regexes } = buildMatchers(parseList(settings.list).terms);
  return (line) => {
    if (phrases || inside || patterns) {
      const folded = foldText(line.text);
      if (phrases?.(folded.match(WORD) ?? [])) return true;
      if (inside?.(folded)) return true;
      if (patterns?.(folded)) return true;
    }
    return regexes?.(boundedText(line.text)) ?? false;
  };
}

export const terms: FilterDefinition<"terms"> = { name: "terms", check: checkTerms, compile: compileTerms };
