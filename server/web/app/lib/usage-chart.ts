// The command-usage chart: calls per UTC day, stacked per command, as plain SVG (no library, no inline
// styles: colours are classes in style.css, so light and dark themes and the CSP both hold). The same
// numbers are offered as a table for screen readers and for anyone who prefers numbers.
import { fill, h, svg, whenResized } from "./dom.ts";
import type { Analytics } from "./types.ts";

const DAY_MS = 86_400_000;
/** Colour classes (style.css .c0…c7), given to commands in a stable order. */
const COLOURS = 8;
/** The narrowest the chart is drawn, in CSS pixels (a narrower box shrinks it a little). */
const MIN_WIDTH = 280;

export interface UsageSeries {
  days: string[];
  commands: string[];
  /** calls[dayIndex][commandIndex] */
  calls: number[][];
  max: number;
}

/** Every UTC day of the period (empty days included), with each command's calls. Pure. */
export function usageSeries(analytics: Analytics, now: number): UsageSeries {
  const days: string[] = [];
  for (let i = analytics.days - 1; i >= 0; i--)
    days.push(new Date(now - i * DAY_MS).toISOString().slice(0, 10));
  for (const row of analytics.by_day_command) if (!days.includes(row.day)) days.push(row.day);
  days.sort();
  const commands = [...new Set(analytics.by_day_command.map((r) => r.command))].sort();
  const calls = days.map(() => commands.map(() => 0));
  for (const row of analytics.by_day_command) {
    const d = days.indexOf(row.day);
    const c = commands.indexOf(row.command);
    calls[d]![c] = row.calls;
  }
  const max = Math.max(0, ...calls.map((perDay) => perDay.reduce((a, b) => a + b, 0)));
  return { days, commands, calls, max };
}

/** A round axis maximum at or above `max` (1, 2, 5 × 10ⁿ). */
export function niceMax(max: number): number {
  if (max <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

function label(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return date.toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
}

export function colourClass(commands: string[], command: string): string {
  return `c${commands.indexOf(command) % COLOURS}`;
}

/**
 * The chart in a box that draws it again whenever the box's width changes (a window resized, a
 * phone turned, a view shown that was hidden): an SVG shown at another width than it was drawn for
 * scales its text with it, to three times its size on a phone's chart in a desktop window.
 */
export function usageChartToWidth(series: UsageSeries): HTMLElement {
  const box = h("div", {});
  let drawnFor = 0;
  whenResized(box, () => {
    const width = Math.max(MIN_WIDTH, Math.round(box.clientWidth));
    if (width === drawnFor) return;
    drawnFor = width;
    fill(box, usageChart(series, width));
  });
  return box;
}

/** `width` is the space it gets in CSS pixels, so its text is drawn at its own size (1:1). */
export function usageChart(series: UsageSeries, width = 640): HTMLElement {
  const height = 240;
  const pad = { left: 36, right: 8, top: 10, bottom: 28 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const top = niceMax(series.max);
  const slot = plotW / series.days.length;
  const barW = Math.max(2, Math.min(40, slot * 0.7));
  const y = (v: number) => pad.top + plotH - (v / top) * plotH;

  const grid = [0, top / 2, top].map((v) =>
    svg(
      "g",
      { class: "tick" },
      svg("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v) }),
      svg("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end" }, document.createTextNode(fmt(v))),
    ),
  );
  // Day labels need about 56 px each.
  const every = Math.ceil(series.days.length / Math.max(1, Math.floor(plotW / 56)));
  const bars = series.days.map((day, d) => {
    const x = pad.left + d * slot + (slot - barW) / 2;
    let base = 0;
    const group = svg("g", {});
    series.commands.forEach((command, c) => {
      const value = series.calls[d]![c]!;
      if (value === 0) return;
      const rect = svg("rect", {
        class: `bar ${colourClass(series.commands, command)}`,
        x,
        y: y(base + value),
        width: barW,
        height: Math.max(0, y(base) - y(base + value)),
      });
      rect.appendChild(svg("title", {}, document.createTextNode(`${label(day)}: ${command} ${value}`)));
      group.appendChild(rect);
      base += value;
    });
    if (d % every === 0 || d === series.days.length - 1) {
      group.appendChild(
        svg(
          "text",
          { class: "day", x: x + barW / 2, y: height - 8, "text-anchor": "middle" },
          document.createTextNode(label(day)),
        ),
      );
    }
    return group;
  });
  const total = series.calls.flat().reduce((a, b) => a + b, 0);
  const chart = svg(
    "svg",
    {
      viewBox: `0 0 ${width} ${height}`,
      class: "chart",
      role: "img",
      "aria-label": `Command calls per day over ${series.days.length} days, ${total} in all; the numbers are in the table below.`,
    },
    ...grid,
    ...bars,
  );
  const legend = h(
    "ul",
    { class: "legend", "aria-hidden": "true" },
    series.commands.map((command) =>
      h("li", {}, h("span", { class: `swatch ${colourClass(series.commands, command)}` }), command),
    ),
  );
  return h("figure", { class: "usage" }, chart, legend);
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

/** The chart's numbers: one row per day, one column per command. */
export function usageTable(series: UsageSeries): HTMLElement {
  return h(
    "div",
    { class: "scroll-x", tabindex: "0", role: "region", "aria-label": "Calls per day and command" },
    h(
      "table",
      { class: "grid" },
      h("caption", { class: "sr-only" }, "Command calls per day (UTC)"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, "Day"),
          series.commands.map((c) => h("th", { scope: "col" }, c)),
          h("th", { scope: "col" }, "All"),
        ),
      ),
      h(
        "tbody",
        {},
        series.days.map((day, d) =>
          h(
            "tr",
            {},
            h("th", { scope: "row" }, label(day)),
            series.calls[d]!.map((v) => h("td", {}, String(v))),
            h("td", {}, String(series.calls[d]!.reduce((a, b) => a + b, 0))),
          ),
        ),
      ),
    ),
  );
}
