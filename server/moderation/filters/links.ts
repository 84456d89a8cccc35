// The links filter: a host name with a public top-level domain, however it is written.
//
// What counts as a link (found by linkify-it over the `tlds` list of IANA top-level domains):
// - `https://…`, `http://…`, `ftp://…` and `//…` links, whatever their host;
// - a host with a path or a port (`discord.gg/abc`, `evil.com:8080`) or `www.`, whose last label is
//   a real TLD;
// - a bare host (nothing but the host name) whose TLD is one of BARE_LINK_TLDS: `example.com`,
//   `bit.ly`, `spam.xyz`, `file.zip`; not `ok.so`, `oh.no`, `this.is`, `omg.lol`, `nice.one` (real
//   TLDs, but chat's words run together far more often than anyone types a bare Somali host);
// - e-mail addresses (`me@example.com`: their host is the one matched against `allow`);
// - the same written to dodge a filter, once folded (text-fold.ts): full-width or look-alike letters,
//   invisible characters, a right-to-left override; `(dot)`, `[dot]`, `{dot}`, `[.]`, `(.)`;
//   a dot with a space before it (`example . com`, `example .com`); a dot with spaces after it when a
//   path follows (`discord. gg/abc`) or before com, net, org, xyz, ru or gg (`evil. com`).
// Not links: `1.5 hours`, `node.js`, `kappa.png`, `i.e.`, `lol.ok` (no such TLD), a sentence's
// full stop followed by a space and a word (`good game. live now` is not `game.live`), and words
// joined by a dot or a spaced dot (`wait .no way`, `lol . no`): their last word is no bare-link TLD.
import { LinkifyIt } from "linkify-it";
import tlds from "tlds";
import { type FilterSettings, MODERATION_LIMITS } from "../../vocabulary.ts";
import type { FilterDefinition, LineTest } from "../filter.ts";
import { foldText, foldVisible, visibleText } from "../text-fold.ts";

const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false, urlAuth: true }).tlds(
  tlds,
  false,
);

/** `(dot)`, `[dot]`, `{dot}`, `<dot>`, `[.]`, `(.)`: a dot in disguise (spaced, so the next rule joins it). */
const BRACKETED_DOT = /[([{<] ?(?:dot|\.) ?[)\]}>]/g;
/** A dot with a space before it, between a letter or digit and another. */
const SPACED_DOT = /(?<=[\p{L}\p{N}])\s+\.\s*(?=[\p{L}\p{N}])/gu;
/** A dot with spaces only after it, when a path follows the next label (`discord. gg/abc`). */
const DOT_BEFORE_PATH = /(?<=[\p{L}\p{N}])\.\s+(?=[\p{L}\p{N}-]+\/)/gu;
/**
 * A dot with spaces only after it, before one of the TLDs spam uses most (`evil. com`); not before any
 * word (`good game. live now` stays a sentence).
 */
const DOT_BEFORE_SPAM_TLD = /(?<=[\p{L}\p{N}])\.\s+(?=(?:com|net|org|xyz|ru|gg)(?![\p{L}\p{N}-]))/gu;
/** A port after a host (`evil.com:8080`), which linkify-it misses: read as a path (`evil.com/`). */
const PORT = /(?<=[\p{L}\p{N}]):\d{1,5}(?=$|[\s/?#])/gu;
/**
 * The TLDs a bare host counts with: those spammers and people use for bare links (generic, and
 * the country codes used as brands or common in chat's countries), but none that is an ordinary
 * word chatters join to another with a dot (`so`, `no`, `is`, `do`, `me`, `to`, `in`, `it`, `us`,
 * `lol`, `one`, `how`, `now`, …). `zip` and `mov` stay: file-name look-alikes used for phishing.
 */
const BARE_LINK_TLDS = new Set([
  ..."com net org info biz xyz top icu vip win bid loan site online shop store live link click app dev".split(
    " ",
  ),
  ..."fun club pro zip mov io ai gg gl gd tv ly be co cc ws su tk ml ga cf gq".split(" "),
  ..."ru ua uk de fr nl pl es br eu ca au cn jp kr рф".split(" "),
  // Seen in follower, viewer and gambling spam.
  ..."cam bet casino buzz website tech stream monster".split(" "),
]);
/** What makes a found link more than a bare host: `www.` first, or a path, query or fragment. */
const NOT_BARE = /^www\.|[/?#]/;
/**
 * Seen text without any of these cannot hold a link, written plainly or disguised: a dot, colon or @
 * between letters or digits (spaces around it allowed), `://`, a bracketed dot, the word "dot", or
 * any non-ASCII character (a dot of another script is one once folded). A mention (` @name`) or a
 * sentence's end (`close.`) is none of them.
 */
const MAY_HOLD_LINK = /[a-z0-9]\s*[.:@]\s*[a-z0-9]|:\/\/|[([{<] ?\. ?[)\]}>]|dot|[^ -~]/;
/** Text without any of these cannot hold a link (a fast answer for most chat). */
const LINK_SIGNS = /[.:@]/;

/** A host pattern of the allow list: `example.com` or `*.example.com`, labels of letters, digits, `-`. */
const HOST_PATTERN =
  /^(?:\*\.)?(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;

/** `text` with disguised dots written as dots, and a port as a path. */
export function undisguisedDots(text: string): string {
  return text
    .replace(BRACKETED_DOT, " . ")
    .replace(SPACED_DOT, ".")
    .replace(DOT_BEFORE_PATH, ".")
    .replace(DOT_BEFORE_SPAM_TLD, ".")
    .replace(PORT, "/");
}

/** The host names of the links in `text` (folded: lower case, look-alikes folded), each once, in order. */
export function linkHosts(text: string): string[] {
  const visible = visibleText(text);
  // Most chat has no dot, colon or @ between words, disguised or not: no link, and no rewriting to find one.
  if (!MAY_HOLD_LINK.test(visible)) return [];
  const folded = foldVisible(visible);
  const hosts = hostsIn(undisguisedDots(folded));
  // A host in another script (`файл.рф`) is found before its letters are folded to Latin ones.
  if (folded !== visible) {
    for (const host of hostsIn(undisguisedDots(visible))) hosts.push(foldVisible(host));
  }
  return [...new Set(hosts)];
}

function hostsIn(text: string): string[] {
  if (!LINK_SIGNS.test(text)) return [];
  return (linkify.match(text) ?? []).flatMap((match) => {
    const host = hostOfUrl(match.url);
    return host !== "" && (match.schema !== "" || !isWordsNotLink(match.raw, host)) ? [host] : [];
  });
}

/** A host written alone (no scheme, `www.`, path or port) whose TLD is no bare link's: words. */
function isWordsNotLink(raw: string, host: string): boolean {
  return !NOT_BARE.test(raw) && !BARE_LINK_TLDS.has(host.slice(host.lastIndexOf(".") + 1));
}

/** The host of a URL linkify-it gives (`http://…`, `mailto:…`), without user, port or final dot. */
function hostOfUrl(url: string): string {
  const rest = url.replace(/^[a-z][a-z\d+.-]*:(?:\/\/)?|^\/\//, "");
  const authority = rest.split(/[/?#]/, 1)[0] ?? "";
  return authority
    .slice(authority.lastIndexOf("@") + 1)
    .replace(/:\d*$/, "")
    .replace(/\.$/, "");
}

/** A host compared with the allow list: folded, without a leading `www.`. */
function comparableHost(host: string): string {
  const folded = foldText(host.trim()).replace(/\.$/, "");
  return folded.startsWith("www.") ? folded.slice(4) : folded;
}

/**
 * Whether a host is allowed: `example.com` allows that host (and `www.example.com`), `*.example.com`
 * allows example.com and every host under it. Two Set lookups per label of the host, whatever the
 * list's size.
 */
export function allowTest(allow: readonly string[]): (host: string) => boolean {
  const exact = new Set<string>();
  const underneath = new Set<string>();
  for (const pattern of allow) {
    const host = comparableHost(pattern);
    if (host.startsWith("*.")) underneath.add(comparableHost(host.slice(2)));
    else exact.add(host);
  }
  return (host) => {
    let candidate = comparableHost(host);
    if (exact.has(candidate)) return true;
    for (;;) {
      if (underneath.has(candidate)) return true;
      const dot = candidate.indexOf(".");
      if (dot < 0) return false;
      candidate = candidate.slice(dot + 1);
    }
  };
}

function checkLinks(settings: FilterSettings["links"]): string | null {
  for (const [index, pattern] of settings.allow.entries()) {
    const problem = hostPatternProblem(pattern.trim());
    if (problem) return `allow[${index}]: ${problem}`;
  }
  return null;
}

function hostPatternProblem(pattern: string): string | null {
  if (pattern === "") return "empty";
  if (pattern.length > MODERATION_LIMITS.allowEntryLength) {
    return `longer than ${MODERATION_LIMITS.allowEntryLength} characters`;
  }
  if (!HOST_PATTERN.test(pattern)) return "not a host name (write example.com or *.example.com)";
  return null;
}

function compileLinks(settings: FilterSettings["links"]): LineTest {
  const allowed = allowTest(settings.allow);
  return (line) => linkHosts(line.text).some((host) => !allowed(host));
}

export const links: FilterDefinition<"links"> = { name: "links", check: checkLinks, compile: compileLinks };
