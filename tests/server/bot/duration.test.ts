import { describe, expect, test } from "bun:test";
import { addMonthsUtc, calendarDuration, durationText } from "../../../server/bot/duration.ts";

const d = (iso: string) => new Date(iso);

describe("calendar durations", () => {
  test("years, months, weeks, days, hours, minutes and seconds by the calendar", () => {
    expect(calendarDuration(d("2024-01-15T10:00:00Z"), d("2026-11-21T12:00:00Z"))).toEqual({
      years: 2,
      months: 10,
      weeks: 0,
      days: 6,
      hours: 2,
      minutes: 0,
      seconds: 0,
    });
  });

  test("a month after Jan 31 ends on the last day of February (no overflow into March)", () => {
    expect(addMonthsUtc(d("2025-01-31T00:00:00Z"), 1).toISOString()).toBe("2025-02-28T00:00:00.000Z");
    expect(addMonthsUtc(d("2024-01-31T00:00:00Z"), 1).toISOString()).toBe("2024-02-29T00:00:00.000Z");
    expect(calendarDuration(d("2025-01-31T00:00:00Z"), d("2025-02-28T00:00:00Z")).months).toBe(1);
  });

  test("a leap-day follow counts whole years on Feb 28 of common years", () => {
    expect(calendarDuration(d("2024-02-29T12:00:00Z"), d("2025-02-28T12:00:00Z"))).toMatchObject({
      years: 1,
      months: 0,
      days: 0,
    });
  });

  test("weeks are split out of the days", () => {
    expect(calendarDuration(d("2026-11-01T00:00:00Z"), d("2026-11-18T03:04:05Z"))).toEqual({
      years: 0,
      months: 0,
      weeks: 2,
      days: 3,
      hours: 3,
      minutes: 4,
      seconds: 5,
    });
  });

  test("a future or equal date is zero", () => {
    expect(durationText(calendarDuration(d("2026-01-02T00:00:00Z"), d("2026-01-01T00:00:00Z")))).toBe(
      "0 seconds",
    );
  });
});

describe("DecAPI-style duration text", () => {
  const duration = { years: 1, months: 2, weeks: 0, days: 3, hours: 1, minutes: 0, seconds: 9 };

  test("the first `precision` non-zero units, zero units skipped, singular and plural", () => {
    expect(durationText(duration)).toBe("1 year, 2 months");
    expect(durationText(duration, 1)).toBe("1 year");
    expect(durationText(duration, 3)).toBe("1 year, 2 months, 3 days");
    expect(durationText(duration, 7)).toBe("1 year, 2 months, 3 days, 1 hour, 9 seconds");
  });
});
