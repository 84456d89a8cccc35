// The repository's import graph, read with TypeScript's parser: which module imports which, and
// whether an import is a value (evaluated when the importer is) or a type only (erased at build).

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { Glob } from "bun";
import ts from "typescript";

export const REPO_ROOT = normalize(join(import.meta.dir, "..", ".."));

export interface ImportEdge {
  /** Repo-relative path of the importing module. */
  from: string;
  /** Repo-relative path of the imported module, or the package name (`elysia`, `node:fs`). */
  to: string;
  /** A package rather than a module of this repository. */
  isPackage: boolean;
  /** Erased at build (`import type`, or every named import marked `type`). */
  typeOnly: boolean;
  /** `import()` inside a function: evaluated only when that code runs. */
  dynamic: boolean;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    clause.name === undefined &&
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function resolveTarget(from: string, specifier: string): { to: string; isPackage: boolean } {
  if (!specifier.startsWith(".")) return { to: specifier, isPackage: true };
  const target = normalize(join(dirname(from), specifier));
  return { to: target, isPackage: false };
}

/** Every import of one module (static, re-export and dynamic `import("…")` with a literal path). */
export function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(join(REPO_ROOT, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean, dynamic: boolean) =>
    edges.push({ from: file, ...resolveTarget(file, specifier), typeOnly, dynamic });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, isTypeOnlyImport(node), false);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node.isTypeOnly, false);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node.arguments[0].text, false, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The TypeScript modules of the application (what the binary is built from), repo-relative. */
export function applicationModules(): string[] {
  return [...new Glob("{cli,db,server}/**/*.ts").scanSync(REPO_ROOT)].sort();
}

/**
 * Import cycles among the repository's modules, type-only imports counted (a circle of types still
 * ties its modules together: none can be read, moved or tested without the others): each cycle as the
 * list of its modules.
 */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.isPackage) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  // Tarjan's strongly connected components: every component of more than one module is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (module: string): void => {
    index.set(module, index.size);
    low.set(module, index.get(module) as number);
    stack.push(module);
    onStack.add(module);
    for (const target of next.get(module) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(module, Math.min(low.get(module) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(module, Math.min(low.get(module) as number, index.get(target) as number));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || (next.get(module) ?? []).includes(module)) cycles.push(component.sort());
  };
  for (const module of next.keys()) if (!index.has(module)) connect(module);
  return cycles;
}

/**
 * The part of the house a module is in, for "no two parts import each other": `db`, `cli`, a folder
 * directly under `server/` (`server/chat`), or a file directly in `server/` (`server/runtime.ts`).
 */
export function partOf(path: string): string {
  const top = path.split("/")[0] as string;
  if (top !== "server") return top;
  const second = path.split("/")[1] as string;
  return `server/${second}`;
}

/** Two parts that import each other, named in order; by value when both ways hold a value import. */
export interface MutualPair {
  parts: readonly [string, string];
  byValue: boolean;
  /** The imports between them, both ways (for the failure message). */
  edges: readonly ImportEdge[];
}

/** Every pair of parts that import each other (data files the build inlines, package.json, left out). */
export function mutualPairs(edges: readonly ImportEdge[]): MutualPair[] {
  const between = new Map<string, ImportEdge[]>();
  for (const edge of edges) {
    if (edge.isPackage || !edge.to.endsWith(".ts")) continue;
    const from = partOf(edge.from);
    const to = partOf(edge.to);
    if (from !== to) between.set(`${from} ${to}`, [...(between.get(`${from} ${to}`) ?? []), edge]);
  }
  const pairs: MutualPair[] = [];
  for (const [key, there] of between) {
    const [from, to] = key.split(" ") as [string, string];
    const back = between.get(`${to} ${from}`);
    if (!back || from > to) continue;
    const byValue = there.some((e) => !e.typeOnly) && back.some((e) => !e.typeOnly);
    pairs.push({ parts: [from, to], byValue, edges: [...there, ...back] });
  }
  return pairs.sort((x, y) => x.parts.join(" ").localeCompare(y.parts.join(" ")));
}

/** Whether a repo-relative module path exists (imports name files with their extension). */
export function moduleExists(path: string): boolean {
  return existsSync(join(REPO_ROOT, path));
}

export function repoRelative(absolute: string): string {
  return relative(REPO_ROOT, absolute);
}
