import { gameTableRows, runGameBench } from "./game.ts";
import { limitsTableRows, runLimitsBench } from "./limits.ts";
import { formatTable } from "./table.ts";

/**
 * `npm run bench`: every benchmark, one table. Ratios are measured in the same run against a bare
 * Bun.serve on this machine, so they compare like with like; absolute figures depend on the machine.
 */
const started = performance.now();
const rows = [...limitsTableRows(await runLimitsBench()), ...gameTableRows(await runGameBench())];
console.log(formatTable(rows));
console.log(
  `\n${rows.length} measures in ${((performance.now() - started) / 1000).toFixed(1)} s (bun ${Bun.version}, ${navigator.hardwareConcurrency} cores)`,
);
