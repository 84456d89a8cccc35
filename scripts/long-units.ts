// Lists functions longer than ~150 lines and files longer than ~500 (ARCHITECTURE.md "Small units").
// usage: bun scripts/long-units.ts [maxFunctionLines] [maxFileLines]

import { readFileSync } from "node:fs";
import { Glob } from "bun";
import ts from "typescript";

const MAX_FUNCTION = Number(process.argv[2] ?? 150);
const MAX_FILE = Number(process.argv[3] ?? 500);
const root = new URL("..", import.meta.url).pathname;

function functionName(node: ts.Node): string {
  const parent = node.parent;
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name)
    return node.name.getText();
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return "(anonymous)";
}

for (const file of new Glob("{cli,db,server,scripts,bench}/**/*.ts").scanSync(root)) {
  const text = readFileSync(root + file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = source.getLineAndCharacterOfPosition(text.length).line + 1;
  if (lines > MAX_FILE) console.log(`file ${file}: ${lines} lines`);
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > MAX_FUNCTION)
        console.log(`function ${file}:${start + 1} ${functionName(node)}: ${end - start + 1} lines`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
