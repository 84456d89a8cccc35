// No two parts of the house import each other (ARCHITECTURE.md "Rooms"): a part is `db/`, `cli/`, a
// folder directly under `server/` or a file directly in `server/`. Two parts that import each other are
// one part in two places: neither can be read, moved or loaded without the other.
import { describe, expect, test } from "bun:test";
import {
  applicationModules,
  type ImportEdge,
  importsOf,
  type MutualPair,
  mutualPairs,
  partOf,
} from "./import-graph.ts";

/** Pairs of parts importing each other only through types that may stand (see ARCHITECTURE.md). */
const TYPE_PAIRS_ALLOWED = 1;

function describePair(pair: MutualPair): string {
  const imports = pair.edges.map((e) => `${e.from} → ${e.to}${e.typeOnly ? " (type)" : ""}`);
  return `${pair.parts.join(" ↔ ")} ${pair.byValue ? "by value" : "by type"}: ${imports.join(", ")}`;
}

/** What breaks the rule: any pair by value, more than TYPE_PAIRS_ALLOWED by type. */
function pairViolations(pairs: readonly MutualPair[]): string[] {
  const byType = pairs.filter((pair) => !pair.byValue);
  return [
    ...pairs.filter((pair) => pair.byValue).map(describePair),
    ...(byType.length > TYPE_PAIRS_ALLOWED ? byType.map(describePair) : []),
  ];
}

const pairs = mutualPairs(applicationModules().flatMap(importsOf));

describe("no two parts import each other (ARCHITECTURE.md)", () => {
  test("no pair by value, at most one by type", () => {
    expect(pairViolations(pairs)).toEqual([]);
  });

  test("a part is db/, cli/, a folder directly under server/ or a file directly in server/", () => {
    expect(partOf("db/pg/schema.ts")).toBe("db");
    expect(partOf("cli/actions/role.ts")).toBe("cli");
    expect(partOf("server/redis/limits/rate-limits.ts")).toBe("server/redis");
    expect(partOf("server/runtime.ts")).toBe("server/runtime.ts");
  });

  test("the rule catches two parts importing each other (limits and redis before issue 34)", () => {
    const limitsToRedis: ImportEdge = {
      from: "server/limits/rate-limits.ts",
      to: "server/redis/limits/ip-quotas.ts",
      isPackage: false,
      typeOnly: false,
      dynamic: false,
    };
    const redisToLimits = {
      ...limitsToRedis,
      from: "server/redis/limits/ip-quotas.ts",
      to: "server/limits/tables.ts",
    };
    const [pair] = mutualPairs([limitsToRedis, redisToLimits]);
    expect(pair).toMatchObject({ parts: ["server/limits", "server/redis"], byValue: true });
    expect(pairViolations([pair as MutualPair])).toHaveLength(1);
    expect(mutualPairs([limitsToRedis])).toEqual([]);
  });

  test("the rule allows one pair by type, not two", () => {
    const byType = (feature: string): ImportEdge[] => [
      {
        from: "server/runtime.ts",
        to: `server/${feature}/a.ts`,
        isPackage: false,
        typeOnly: false,
        dynamic: false,
      },
      {
        from: `server/${feature}/b.ts`,
        to: "server/runtime.ts",
        isPackage: false,
        typeOnly: true,
        dynamic: false,
      },
    ];
    const one = mutualPairs(byType("bot"));
    expect(one).toMatchObject([{ parts: ["server/bot", "server/runtime.ts"], byValue: false }]);
    expect(pairViolations(one)).toEqual([]);
    expect(pairViolations(mutualPairs([...byType("bot"), ...byType("game")]))).toHaveLength(2);
  });
});
