/**
 * Follow duration with calendar arithmetic, DecAPI style (reference/twitch.md §5.2): whole years,
 * then whole months (a month after Jan 31 is the last day of February), then weeks, days, hours,
 * minutes and seconds; the text shows the first `precision` non-zero units.
 */

export const DURATION_UNITS = ["years", "months", "weeks", "days", "hours", "minutes", "seconds"] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];
export type CalendarDuration = Record<DurationUnit, number>;

const SINGULAR: Record<DurationUnit, string> = {
  years: "year",
  months: "month",
  weeks: "week",
  days: "day",
  hours: "hour",
  minutes: "minute",
  seconds: "second",
};

/** `date` plus `months` calendar months in UTC, clamped to the target month's last day. */
export function addMonthsUtc(date: Date, months: number): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const targetYear = year + Math.floor(month / 12);
  const targetMonth = ((month % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      targetYear,
      targetMonth,
      Math.min(date.getUTCDate(), lastDay),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    ),
  );
}

export function calendarDuration(from: Date, to: Date): CalendarDuration {
  const zero: CalendarDuration = { years: 0, months: 0, weeks: 0, days: 0, hours: 0, minutes: 0, seconds: 0 };
  if (to.getTime() <= from.getTime()) return zero;
  // Whole months first (years are 12 of them), always measured from the original date so clamping
  // to a short month never drifts.
  let months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
  while (months > 0 && addMonthsUtc(from, months).getTime() > to.getTime()) months -= 1;
  const anchor = addMonthsUtc(from, months);
  let rest = Math.floor((to.getTime() - anchor.getTime()) / 1000);
  const days = Math.floor(rest / 86_400);
  rest -= days * 86_400;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  return {
    years: Math.floor(months / 12),
    months: months % 12,
    weeks: Math.floor(days / 7),
    days: days % 7,
    hours,
    minutes,
    seconds: rest - minutes * 60,
  };
}

export const DEFAULT_PRECISION = 2;

/** `1 year, 2 months`: the first `precision` non-zero units, zero units skipped (not counted). */
export function durationText(duration: CalendarDuration, precision = DEFAULT_PRECISION): string {
  const parts = DURATION_UNITS.filter((unit) => duration[unit] > 0)
    .slice(0, precision)
    .map((unit) => `${duration[unit]} ${duration[unit] === 1 ? SINGULAR[unit] : unit}`);
  return parts.length > 0 ? parts.join(", ") : "0 seconds";
}
