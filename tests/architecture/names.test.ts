// Names that tell the truth: every file a comment, the README or ARCHITECTURE.md names exists, so a
// newcomer following a pointer finds what it points at (a moved or split file updates its mentions).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
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

/** Where mentions are read: the documents and every source and test file. */
const READ = [
  "README.md",
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

function mentionsIn(path: string): { path: string; line: number; mention: string }[] {
  let text: string;
  try {
    text = readFileSync(join(REPO_ROOT, path), "utf8");
  } catch {
    return [];
  }
  return mentionsInText(path, text);
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
  test("every file named in a comment, the README or ARCHITECTURE.md exists", () => {
    const stale = READ.flatMap(mentionsIn)
      .filter(({ mention }) => !exists(mention))
      .map(({ path, line, mention }) => `${path}:${line} names ${mention}`);
    expect(stale).toEqual([]);
  });

  test("a moved file's old name in a comment is caught; globs and placeholders are not names", () => {
    const text = "// see server/context.ts and chat/manager.ts\n// each *.test.ts, or <name>.ts";
    const mentions = mentionsInText("x.ts", text).map(({ mention }) => mention);
    expect(mentions).toEqual(["server/context.ts", "chat/manager.ts"]);
    expect(mentions.filter((mention) => !exists(mention))).toEqual(["server/context.ts"]);
  });
});
