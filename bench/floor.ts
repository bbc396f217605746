/**
 * `npm run bench:floor`: the relay beside the floor, the runtime's own cost of the same work, in one run
 * (bench/README.md, "The floor"): quotes (bench/floor-rfq.ts), then submissions
 * (bench/floor-execute.ts); a table of every figure, the relay's against the floor's, its target and
 * whether it is met. `BENCH_FLOOR_PARTS=rfq` or `=execute` runs one part.
 */

import { compareSubmissions } from "./floor-execute";
import { compareQuotes } from "./floor-rfq";
import { type Comparison, comparisonTable } from "./floor-table";
import { machineLoad } from "./stats";

const PARTS = (process.env.BENCH_FLOOR_PARTS ?? "rfq,execute").split(",");

async function main() {
  const rows: Comparison[] = [];
  const loads: string[] = [];
  if (PARTS.includes("rfq")) {
    rows.push(...(await compareQuotes()));
    loads.push(`after the quotes: ${machineLoad()}`);
  }
  if (PARTS.includes("execute")) {
    console.log("");
    rows.push(...(await compareSubmissions()));
    loads.push(`after the submissions: ${machineLoad()}`);
  }
  console.log(`\n${comparisonTable(rows)}\n${loads.join("\n")}`);
}

await main();
