import { describe, expect, test } from "bun:test";
import type { Analytics } from "../../../../../server/web/app/lib/types.ts";
import { niceMax, usageSeries } from "../../../../../server/web/app/lib/usage-chart.ts";

const NOW = Date.UTC(2026, 10, 24, 12);

function analytics(days: number, rows: Analytics["by_day_command"]): Analytics {
  return {
    days,
    total_calls: 0,
    ok_calls: 0,
    distinct_callers: 0,
    by_command: [],
    by_day: [],
    by_day_command: rows,
    top_callers: [],
  };
}

describe("the usage chart's numbers", () => {
  test("every day of the period is there, empty days as zeros, one column per command", () => {
    const series = usageSeries(
      analytics(3, [
        { day: "2026-11-22", command: "dice", calls: 2 },
        { day: "2026-11-24", command: "coinflip", calls: 5 },
        { day: "2026-11-24", command: "dice", calls: 1 },
      ]),
      NOW,
    );
    expect(series.days).toEqual(["2026-11-22", "2026-11-23", "2026-11-24"]);
    expect(series.commands).toEqual(["coinflip", "dice"]);
    expect(series.calls).toEqual([
      [0, 2],
      [0, 0],
      [5, 1],
    ]);
    expect(series.max).toBe(6);
  });

  test("one day still shows the day before when the period reaches into it", () => {
    const series = usageSeries(analytics(1, [{ day: "2026-11-23", command: "pick", calls: 1 }]), NOW);
    expect(series.days).toEqual(["2026-11-23", "2026-11-24"]);
  });

  test("the axis ends on a round number", () => {
    expect([0, 1, 3, 6, 17, 101].map(niceMax)).toEqual([1, 1, 5, 10, 20, 200]);
  });
});
