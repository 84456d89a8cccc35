// The terms filter: blocked words, phrases and `~/regex/flags`.
// - A word or phrase matches whole words of the line (`ass` does not catch `class`), case aside, both
//   folded the same way (text-fold.ts: look-alikes, full-width letters, invisible characters and
//   accents); a phrase's words may be separated by any white space. `*` matches any letters, digits or
//   `_` within a word, and any other non-ASCII character but white space (`free*` catches `free`,
//   `freebies`; `*coin` catches `bitcoin`).
// - Plain words and phrases (letters, digits, `_` and spaces) are looked up in Sets, one per phrase
//   length: no regex at all. Other terms (`*`, punctuation such as `c++`) become at most four
//   alternations in one RE2Set.
// - `~/pattern/flags` is the streamer's regex (JavaScript syntax, flags `i`, `m`, `s`, `u`; `g` is
//   accepted and means nothing here), run by re2js on the line as typed: linear time, no
//   backreferences or lookarounds (rejected when saved, with re2js's reason). A regex that matches an
//   empty line is rejected: it would catch every line.
// Every line is matched on its first MAX_MATCHED_UNITS units (text-fold.ts): no line costs more.
import { RE2JS, RE2Set } from "re2js";
import { type FilterSettings, MODERATION_LIMITS } from "../../vocabulary.ts";
import type { FilterDefinition, LineTest } from "../filter.ts";
import { codePointCount } from "../line-text.ts";
import { boundedText, foldText } from "../text-fold.ts";

/** A term as it is matched. */
type Term =
  | { kind: "words"; words: string }
  /** `body` between word boundaries where it starts or ends with a word character. */
  | { kind: "pattern"; body: string; before: boolean; after: boolean }
  | { kind: "regex"; source: string };

/**
 * What `*` matches: letters, digits and `_` in ASCII, anything but white space beyond it (a short class
 * where `\p{L}` is hundreds of ranges: 1,000 terms compile in milliseconds, not a second).
 */
const WITHIN_WORD = "[^\\s\\x00-\\x2f\\x3a-\\x40\\x5b-\\x5e\\x60\\x7b-\\x7f]*";
const BOUNDARY_BEFORE = "(?:^|[^\\p{L}\\p{N}_])";
const BOUNDARY_AFTER = "(?:$|[^\\p{L}\\p{N}_])";
const WORD = /[\p{L}\p{N}_]+/gu;
const PLAIN_WORDS = /^[\p{L}\p{N}_]+(?: [\p{L}\p{N}_]+)*$/u;
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
  if (PLAIN_WORDS.test(folded)) return { kind: "words", words: folded };
  return {
    kind: "pattern",
    body: wordPatternBody(folded),
    before: STARTS_WITH_WORD.test(folded),
    after: ENDS_WITH_WORD.test(folded),
  };
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
  try {
    source = `${inline ? `(?${inline})` : ""}${RE2JS.translateRegExp(pattern)}`;
    if (RE2JS.compile(source).test("")) return "matches an empty line, so every line";
  } catch (error) {
    return `not a regex this bot can run (${error instanceof Error ? error.message : String(error)})`;
  }
  return { kind: "regex", source };
}

function checkTerms(settings: FilterSettings["terms"]): string | null {
  for (const [index, entry] of settings.list.entries()) {
    const term = parseTerm(entry);
    if (typeof term === "string") return `list[${index}]: ${term}`;
  }
  return null;
}

/** The sources as one RE2Set's test (whether any matches), or null when there are none. */
function anyOf(sources: readonly string[]): ((text: string) => boolean) | null {
  if (sources.length === 0) return null;
  const set = new RE2Set(RE2Set.UNANCHORED, 0, SET_MEMORY);
  for (const source of sources) set.add(source);
  set.compile();
  return (text) => set.match(text).length > 0;
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

function compileTerms(settings: FilterSettings["terms"]): LineTest {
  const terms = settings.list.map(parseTerm).filter((term) => typeof term !== "string");
  const phrases = phraseTest(terms.flatMap((term) => (term.kind === "words" ? [term.words] : [])));
  const patterns = anyOf(patternSources(terms));
  const regexes = anyOf(terms.flatMap((term) => (term.kind === "regex" ? [term.source] : [])));
  return (line) => {
    if (phrases || patterns) {
      const folded = foldText(line.text);
      if (phrases?.(folded.match(WORD) ?? [])) return true;
      if (patterns?.(folded)) return true;
    }
    return regexes?.(boundedText(line.text)) ?? false;
  };
}

export const terms: FilterDefinition<"terms"> = { name: "terms", check: checkTerms, compile: compileTerms };
