/** One row of a benchmark table, as `npm run bench` prints it (and docs/benchmarks.md shows it). */
export interface TableRow {
  bench: string;
  measure: string;
  value: string;
  note: string;
}

export function formatTable(rows: readonly TableRow[]): string {
  const header: TableRow = { bench: "bench", measure: "measure", value: "value", note: "note" };
  const keys = ["bench", "measure", "value", "note"] as const;
  const widths = keys.map((k) => Math.max(...[header, ...rows].map((r) => r[k].length)));
  const line = (r: TableRow) =>
    keys
      .map((k, i) => (k === "value" ? r[k].padStart(widths[i]!) : r[k].padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const rule: TableRow = {
    bench: "-".repeat(widths[0]!),
    measure: "-".repeat(widths[1]!),
    value: "-".repeat(widths[2]!),
    note: "-".repeat(widths[3]!),
  };
  return [line(header), line(rule), ...rows.map(line)].join("\n");
}
