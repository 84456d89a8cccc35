// Names that tell the truth: every file a comment, the README, a page of docs/ or ARCHITECTURE.md names
// exists, so a newcomer following a pointer finds what it points at (a moved or split file updates its
// mentions); and the README stays short, with every guide in docs/ one link away and no dead link.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { Glob } from "bun";
import { REPO_ROOT } from "./import-graph.ts";

const SHARED_ROOT = join(REPO_ROOT, "..", "shared");

function filesUnder(root: string, pattern: string): string[] {
  return [...new Glob(pattern).scanSync({ cwd: root, dot: true })].filter(
    (path) => !path.includes("node_modules/") && !path.startsWith(".git/"),
  );
}

/**
 * The owner's shared documents (CONTRACT.md, DESIGN.md, reference/…) sit beside the repository here;
 * a clone elsewhere (CI) has no such folder, and then only the repository's own files are checked.
 */
const HAVE_SHARED = existsSync(SHARED_ROOT);

/** Every file a mention may point at: the repository's and the owner's shared documents. */
const KNOWN_FILES = [
  ...filesUnder(REPO_ROOT, "**/*").filter(
    (path) => !path.startsWith("dist/") && !path.startsWith("test-artifacts/"),
  ),
  ...(HAVE_SHARED ? filesUnder(SHARED_ROOT, "**/*") : []),
];

/** The README and the guides it links to, one page each under docs/. */
const DOCUMENTS = ["README.md", ...filesUnder(REPO_ROOT, "docs/**/*.md").sort()];

/** The README is the first hour (set up, demo, Twitch, chat, alerts, OBS, bots); the rest is in docs/. */
const README_MAX_LINES = 250;

/** Where mentions are read: the documents and every source and test file. */
const READ = [
  ...DOCUMENTS,
  "ARCHITECTURE.md",
  ...filesUnder(REPO_ROOT, "{cli,db,server,scripts,bench,tests}/**/*.ts").filter(
    // This file's own examples name files that do not exist on purpose.
    (path) => !path.startsWith("tests/fixtures/") && path !== "tests/architecture/names.test.ts",
  ),
];

/** A path-like name of a source or document file: `chat/manager.ts`, `server/core/log.ts`, `README.md`. */
const MENTION = /(?<![\w.@/:-])((?:[\w-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:ts|md))(?![\w/-])/g;

/** A mention exists when some known file is it or ends with it (comments often drop `server/`). */
function exists(mention: string): boolean {
  if (KNOWN_FILES.some((path) => path === mention || path.endsWith(`/${mention}`))) return true;
  // Without the shared folder a document may be one of the owner's, which cannot be checked here.
  return !HAVE_SHARED && mention.endsWith(".md");
}

function read(path: string): string {
  try {
    return readFileSync(join(REPO_ROOT, path), "utf8");
  } catch {
    return "";
  }
}

function mentionsIn(path: string): { path: string; line: number; mention: string }[] {
  return mentionsInText(path, read(path));
}

/** Markdown without its fenced blocks (a `# comment` in a shell block is no heading, a link there none). */
function withoutFences(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "");
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

/** Every heading's anchor in a Markdown text; a repeated heading gets -1, -2, … as on GitHub. */
function anchorsIn(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of withoutFences(text).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = slug(match[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

/** The relative link targets of a Markdown document, outside code: `docs/tunnel.md#then-in-cuebot`. */
function relativeLinks(text: string): string[] {
  const prose = withoutFences(text).replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

/** Why a link of the document at `from` leads nowhere, or null when its file and #anchor exist. */
function deadEnd(from: string, target: string): string | null {
  const [file = "", anchor] = target.split("#");
  const path = file === "" ? from : normalize(join(dirname(from), file));
  if (!existsSync(join(REPO_ROOT, path))) return `${from} links to ${target}: no file ${path}`;
  if (anchor === undefined || !path.endsWith(".md")) return null;
  return anchorsIn(read(path)).has(anchor)
    ? null
    : `${from} links to ${target}: no heading #${anchor} in ${path}`;
}

function mentionsInText(path: string, text: string): { path: string; line: number; mention: string }[] {
  const found: { path: string; line: number; mention: string }[] = [];
  text.split("\n").forEach((line, index) => {
    for (const match of line.matchAll(MENTION)) {
      const mention = match[1] as string;
      // A glob or a placeholder (`*.test.ts`, `<name>.ts`) is not a file name.
      if (
        /[*<>]/.test(line.slice(Math.max(0, (match.index ?? 0) - 1), (match.index ?? 0) + mention.length + 1))
      )
        continue;
      found.push({ path, line: index + 1, mention });
    }
  });
  return found;
}

describe("names that tell the truth", () => {
  test("every file named in a comment, the README, docs/ or ARCHITECTURE.md exists", () => {
    const stale = READ.flatMap(mentionsIn)
      .filter(({ mention }) => !exists(mention))
      .map(({ path, line, mention }) => `${path}:${line} names ${mention}`);
    expect(stale).toEqual([]);
  });

  test(`the README is at most ${README_MAX_LINES} lines and links every page of docs/`, () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
    const linked = new Set(
      relativeLinks(read("README.md")).map((target) => normalize(target.split("#")[0] ?? "")),
    );
    expect(DOCUMENTS.filter((path) => path !== "README.md" && !linked.has(path))).toEqual([]);
  });

  test("the README's first command is the set-up on a machine with only Node.js (CONTRACT §1)", () => {
    const firstBlock = /^```\w*\n([\s\S]*?)^```/m.exec(read("README.md"))?.[1];
    expect(firstBlock?.trim()).toBe("npm install && npm start");
  });

  test("no relative link or #anchor in the README or docs/ leads nowhere", () => {
    const dead = DOCUMENTS.flatMap((path) =>
      relativeLinks(read(path)).map((target) => deadEnd(path, target)),
    );
    expect(dead.filter((why) => why !== null)).toEqual([]);
  });

  test("anchors are GitHub's; links in code are not links; a missing file or heading is caught", () => {
    expect([
      ...anchorsIn(
        "## Measured (`npm run bench`)\n## Timers & quotes\n```sh\n# no\n```\n## Limits\n## Limits",
      ),
    ]).toEqual(["measured-npm-run-bench", "timers--quotes", "limits", "limits-1"]);
    expect(relativeLinks("[a](docs/x.md#y) `[b](c.md)` [web](https://example.com)")).toEqual(["docs/x.md#y"]);
    expect(deadEnd("README.md", "docs/nowhere.md")).toContain("no file docs/nowhere.md");
    expect(deadEnd("docs/tunnel.md", "#no-such-heading")).toContain("no heading #no-such-heading");
    expect(deadEnd("docs/tunnel.md", "../README.md#connect-twitch")).toBeNull();
  });

  test("a moved file's old name in a comment is caught; globs and placeholders are not names", () => {
    const text = "// see server/context.ts and chat/manager.ts\n// each *.test.ts, or <name>.ts";
    const mentions = mentionsInText("x.ts", text).map(({ mention }) => mention);
    expect(mentions).toEqual(["server/context.ts", "chat/manager.ts"]);
    expect(mentions.filter((mention) => !exists(mention))).toEqual(["server/context.ts"]);
  });
});
