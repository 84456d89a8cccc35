// Lists functions longer than ~150 lines and files longer than ~500 (ARCHITECTURE.md, "Rooms"):
// `bun scripts/long-units.ts [maxFunctionLines] [maxFileLines]`; tests/architecture/units.test.ts
// holds the tree to the defaults.

import { readFileSync } from "node:fs";
import { Glob } from "bun";
import ts from "typescript";

export const MAX_FUNCTION_LINES = 150;
export const MAX_FILE_LINES = 500;
const ROOT = new URL("..", import.meta.url).pathname;

function functionName(node: ts.Node): string {
  const parent = node.parent;
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name)
    return node.name.getText();
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return "(anonymous)";
}

/** One line per offender: `file <path>: <n> lines` or `function <path>:<line> <name>: <n> lines`. */
export function longUnits(maxFunction = MAX_FUNCTION_LINES, maxFile = MAX_FILE_LINES): string[] {
  const found: string[] = [];
  for (const file of new Glob("{cli,db,server,scripts,bench}/**/*.ts").scanSync(ROOT)) {
    const text = readFileSync(ROOT + file, "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const lines = source.getLineAndCharacterOfPosition(text.length).line + 1;
    if (lines > maxFile) found.push(`file ${file}: ${lines} lines`);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const length = source.getLineAndCharacterOfPosition(node.getEnd()).line - start + 1;
        if (length > maxFunction)
          found.push(`function ${file}:${start + 1} ${functionName(node)}: ${length} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort();
}

if (import.meta.main) {
  const [maxFunction, maxFile] = process.argv.slice(2).map(Number);
  for (const line of longUnits(maxFunction, maxFile)) console.log(line);
}
