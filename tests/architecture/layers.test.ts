// The house rules of ARCHITECTURE.md, checked on every import: lower rooms never import higher ones,
// the HTTP framework stays in the HTTP rooms, each storage library in its wing, and no import circle.
import { describe, expect, test } from "bun:test";
import { applicationModules, type ImportEdge, importsOf, moduleExists, valueCycles } from "./import-graph.ts";

/** The rooms of the house, lowest first (ARCHITECTURE.md "Rooms"). */
type Room = "db" | "core" | "feature" | "sim" | "runtime" | "http" | "browser" | "start" | "cli";

const FEATURE_FOLDERS = [
  "identity",
  "bot",
  "chat",
  "alerts",
  "game",
  "overlay",
  "limits",
  "cache",
  "twitch",
  "redis",
  "health",
  "custom",
  "live",
];

/**
 * The HTTP side of the house: the cross-cutting plugins (server/http/), the request path and listening
 * (server/app.ts, server/listen.ts), the dashboard's API (server/panel/) and pages (server/web/), and a
 * feature's own routes (`server/<feature>/routes.ts` and `routes-*.ts`) beside its framework-free service.
 */
function isHttpSide(path: string): boolean {
  return (
    path.startsWith("server/http/") ||
    path.startsWith("server/panel/") ||
    path.startsWith("server/web/") ||
    path === "server/app.ts" ||
    path === "server/listen.ts" ||
    /^server\/[^/]+\/routes(-[^/]+)?\.ts$/.test(path)
  );
}

export function roomOf(path: string): Room {
  if (path.startsWith("db/")) return "db";
  if (path.startsWith("cli/")) return "cli";
  if (path.startsWith("server/core/")) return "core";
  if (path.startsWith("server/sim/")) return "sim";
  if (path.startsWith("server/web/app/")) return "browser";
  if (isHttpSide(path)) return "http";
  if (path === "server/start.ts") return "start";
  if (FEATURE_FOLDERS.some((folder) => path.startsWith(`server/${folder}/`))) return "feature";
  if (/^server\/[^/]+\.ts$/.test(path)) return "runtime";
  throw new Error(`${path} is in no room of ARCHITECTURE.md: put it in one, or add the room`);
}

/** What each room may import (value imports). */
const MAY_IMPORT: Record<Room, readonly Room[]> = {
  db: ["db"],
  core: ["db", "core"],
  feature: ["db", "core", "feature"],
  // The simulators stand in for Twitch and the game provider: they share nothing with cuebot but the
  // clock (checked below), so they cannot drift into agreeing with our own code.
  sim: ["sim", "core"],
  runtime: ["db", "core", "feature", "sim", "runtime"],
  http: ["db", "core", "feature", "runtime", "http"],
  // The dashboard's browser code is bundled for the page and imports nothing from the server.
  browser: ["browser"],
  start: ["db", "core", "feature", "sim", "runtime", "http", "start"],
  cli: ["db", "core", "feature", "sim", "runtime", "http", "start", "cli"],
};

/** Packages that only some rooms may use: one wing per library. */
const PACKAGE_ROOMS: readonly { pattern: RegExp; rooms: readonly Room[]; why: string }[] = [
  {
    pattern: /^(elysia|@elysiajs\/)/,
    rooms: ["http"],
    why: "the HTTP framework stays in server/http and server/web",
  },
  { pattern: /^(drizzle-orm|bun:sqlite)/, rooms: ["db"], why: "the database libraries stay in db/" },
  { pattern: /^(redis|@redis\/)/, rooms: [], why: "node-redis stays in server/redis/" },
];

const modules = applicationModules();
const edges: ImportEdge[] = modules.flatMap(importsOf);

function describeEdge(edge: ImportEdge): string {
  return `${edge.from} imports ${edge.to}${edge.typeOnly ? " (type)" : ""}${edge.dynamic ? " (dynamic)" : ""}`;
}

/** An import that goes up the house (or sideways into a room it may not enter). */
export function upwardImport(edge: ImportEdge): string | null {
  // Data the build inlines (package.json for the version) belongs to no room.
  if (edge.isPackage || !edge.to.endsWith(".ts")) return null;
  const from = roomOf(edge.from);
  const to = roomOf(edge.to);
  if (MAY_IMPORT[from].includes(to)) {
    if (from === "sim" && to === "core" && edge.to !== "server/core/clock.ts") {
      return `${describeEdge(edge)}: the simulators import only the clock from cuebot`;
    }
    return null;
  }
  // A feature may name the runtime's type (its functions take the Context), never evaluate it.
  if (edge.typeOnly && from === "feature" && edge.to === "server/runtime.ts") return null;
  return `${describeEdge(edge)}: ${from} may import only ${MAY_IMPORT[from].join(", ")}`;
}

function misplacedPackage(edge: ImportEdge): string | null {
  if (!edge.isPackage || edge.typeOnly) return null;
  const rule = PACKAGE_ROOMS.find((r) => r.pattern.test(edge.to));
  if (!rule) return null;
  const room = roomOf(edge.from);
  const allowed =
    rule.rooms.includes(room) ||
    (rule.why.includes("server/redis/") && edge.from.startsWith("server/redis/"));
  return allowed ? null : `${describeEdge(edge)}: ${rule.why}`;
}

describe("the house rules (ARCHITECTURE.md)", () => {
  test("every application module is in a room, and every import names a file that exists", () => {
    expect(modules.length).toBeGreaterThan(100);
    const missing = edges.filter((e) => !e.isPackage && !moduleExists(e.to)).map(describeEdge);
    expect(missing).toEqual([]);
    for (const module of modules) roomOf(module);
  });

  test("no room imports a higher one", () => {
    expect(edges.map(upwardImport).filter((v) => v !== null)).toEqual([]);
  });

  test("the HTTP framework, the database libraries and node-redis each stay in their wing", () => {
    expect(edges.map(misplacedPackage).filter((v) => v !== null)).toEqual([]);
  });

  test("no import circle", () => {
    expect(valueCycles(edges)).toEqual([]);
  });

  test("the rule catches an upward import (a feature reaching for the HTTP layer)", () => {
    const edge: ImportEdge = {
      from: "server/bot/commands.ts",
      to: "server/http/errors.ts",
      isPackage: false,
      typeOnly: false,
      dynamic: false,
    };
    expect(upwardImport(edge)).toContain("feature may import only");
    expect(upwardImport({ ...edge, from: "db/accounts.ts", to: "server/core/secrets.ts" })).toContain(
      "db may import only db",
    );
    expect(misplacedPackage({ ...edge, to: "elysia", isPackage: true })).toContain("HTTP framework");
    expect(valueCycles([edge, { ...edge, from: edge.to, to: edge.from }])).toHaveLength(1);
  });
});
