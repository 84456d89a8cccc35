// The house rules of ARCHITECTURE.md, checked on every import: lower rooms never import higher ones,
// the HTTP framework stays in the HTTP rooms, each storage library in its wing, and no import circle
// (type-only imports counted).
import { describe, expect, test } from "bun:test";
import {
  applicationModules,
  type ImportEdge,
  importCycles,
  importsOf,
  moduleExists,
} from "./import-graph.ts";

/** The rooms of the house, lowest first (ARCHITECTURE.md "Rooms"). */
type Room =
  | "vocabulary"
  | "db"
  | "core"
  | "feature"
  | "sim"
  | "runtime"
  | "http"
  | "browser"
  | "start"
  | "cli";

const FEATURE_FOLDERS = [
  "identity",
  "bot",
  "chat",
  "alerts",
  "obs",
  "game",
  "overlay",
  "limits",
  "cache",
  "twitch",
  "redis",
  "health",
  "custom",
  "live",
  "moderation",
  "actions",
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

/** The browser's code: the dashboard (server/web/app/) and the overlay page's script (server/web/overlay/). */
const BROWSER_FOLDERS = ["server/web/app/", "server/web/overlay/"];

export function roomOf(path: string): Room {
  if (path === "server/vocabulary.ts") return "vocabulary";
  if (path.startsWith("db/")) return "db";
  if (path.startsWith("cli/")) return "cli";
  if (path.startsWith("server/core/")) return "core";
  if (path.startsWith("server/sim/")) return "sim";
  if (BROWSER_FOLDERS.some((folder) => path.startsWith(folder))) return "browser";
  if (isHttpSide(path)) return "http";
  if (path === "server/start.ts") return "start";
  if (FEATURE_FOLDERS.some((folder) => path.startsWith(`server/${folder}/`))) return "feature";
  if (/^server\/[^/]+\.ts$/.test(path)) return "runtime";
  throw new Error(`${path} is in no room of ARCHITECTURE.md: put it in one, or add the room`);
}

/** What each room may import (value imports). */
const MAY_IMPORT: Record<Room, readonly Room[]> = {
  // cuebot's words (roles, states, alert types, command names), defined once for every room below.
  vocabulary: [],
  db: ["vocabulary", "db"],
  core: ["vocabulary", "db", "core"],
  feature: ["vocabulary", "db", "core", "feature"],
  // The simulators stand in for Twitch and the game provider: they share nothing with cuebot but the
  // clock (checked below), so they cannot drift into agreeing with our own code.
  sim: ["sim", "core"],
  runtime: ["vocabulary", "db", "core", "feature", "sim", "runtime"],
  http: ["vocabulary", "db", "core", "feature", "runtime", "http"],
  // The browser's code is bundled for the page and takes nothing from the server but its words.
  browser: ["vocabulary", "browser"],
  start: ["vocabulary", "db", "core", "feature", "sim", "runtime", "http", "start"],
  cli: ["vocabulary", "db", "core", "feature", "sim", "runtime", "http", "start", "cli"],
};

/**
 * Pure modules a page bundles as the server runs them (issue 37: the OBS steps and the overlay relay's
 * messages, so a step reads the same on either side): the browser may import them, and they import
 * nothing but the vocabulary and each other, so a page takes no server code along.
 */
const SHARED_WITH_PAGES: readonly string[] = [
  "server/obs/steps.ts",
  "server/obs/relay-protocol.ts",
  "server/actions/model.ts",
];

function sharedWithPagesRule(edge: ImportEdge): string | null | undefined {
  if (SHARED_WITH_PAGES.includes(edge.from)) {
    const pure =
      !edge.isPackage && (edge.to === "server/vocabulary.ts" || SHARED_WITH_PAGES.includes(edge.to));
    return pure
      ? null
      : `${describeEdge(edge)}: a module shared with the pages imports only the vocabulary and its kind`;
  }
  if (roomOf(edge.from) === "browser" && SHARED_WITH_PAGES.includes(edge.to)) return null;
  return undefined;
}

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
  const shared = sharedWithPagesRule(edge);
  if (shared !== undefined) return shared;
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

  test("no import circle, type-only imports counted", () => {
    expect(importCycles(edges)).toEqual([]);
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
      "db may import only vocabulary, db",
    );
    expect(misplacedPackage({ ...edge, to: "elysia", isPackage: true })).toContain("HTTP framework");
    expect(importCycles([edge, { ...edge, from: edge.to, to: edge.from }])).toHaveLength(1);
    // The vocabulary is the lowest room: it imports nothing of cuebot's; the browser imports only it.
    expect(upwardImport({ ...edge, from: "server/vocabulary.ts", to: "db/schema-enums.ts" })).toContain(
      "vocabulary may import only",
    );
    expect(
      upwardImport({ ...edge, from: "server/web/overlay/main.ts", to: "server/vocabulary.ts" }),
    ).toBeNull();
    expect(upwardImport({ ...edge, from: "server/web/app/main.ts", to: "db/schema-enums.ts" })).toContain(
      "browser may import only vocabulary, browser",
    );
    // The page bundles the OBS steps as the server runs them; they take nothing else of the server along.
    expect(
      upwardImport({ ...edge, from: "server/web/overlay/main.ts", to: "server/obs/steps.ts" }),
    ).toBeNull();
    expect(
      upwardImport({ ...edge, from: "server/web/overlay/main.ts", to: "server/obs/relay.ts" }),
    ).toContain("browser may import only");
    expect(upwardImport({ ...edge, from: "server/obs/steps.ts", to: "server/obs/connection.ts" })).toContain(
      "shared with the pages",
    );
  });

  test("the rule catches a circle of types (game/budget.ts and game/client.ts before issue 34)", () => {
    const budgetToClient: ImportEdge = {
      from: "server/game/budget.ts",
      to: "server/game/client.ts",
      isPackage: false,
      typeOnly: false,
      dynamic: false,
    };
    const clientToBudget = {
      ...budgetToClient,
      from: budgetToClient.to,
      to: budgetToClient.from,
      typeOnly: true,
    };
    expect(importCycles([budgetToClient, clientToBudget])).toEqual([
      ["server/game/budget.ts", "server/game/client.ts"],
    ]);
    expect(importCycles([budgetToClient])).toEqual([]);
  });
});
