/**
 * `npm run bench:floor`: the relay beside the floor, the runtime's own cost of the same work, in one run
 * (bench/README.md, "The floor"): quotes (bench/floor-rfq.ts), then submissions
 * (bench/floor-execute.ts); a table of every figure, the relay's against the floor's, its target and
 * whether it is met. `BENCH_FLOOR_PARTS=rfq` or `=execute` runs one part. With `BENCH_PART_BIDDERS` (or
 * `BENCH_FLOOR_PARTS=legs`), quotes with parts beside whole bids only, on one relay, between the two
 * (bench/floor-parts.ts, "Parts beside whole bids").
 */

import { compareSubmissions } from "./floor-execute";
import { compareParts, partsRunOptions } from "./floor-parts";
import { compareQuotes, quoteRunOptions } from "./floor-rfq";
import { type Comparison, comparisonTable } from "./floor-table";
import { machineLoad } from "./stats";

const PARTS = (
  process.env.BENCH_FLOOR_PARTS ?? (process.env.BENCH_PART_BIDDERS ? "rfq,legs,execute" : "rfq,execute")
).split(",");

async function main() {
  const rows: Comparison[] = [];
  const loads: string[] = [];
  let legs = "";
  if (PARTS.includes("rfq")) {
    rows.push(...(await compareQuotes()));
    loads.push(`after the quotes: ${machineLoad()}`);
  }
  if (PARTS.includes("legs")) {
    console.log("");
    // A table of its own: its two sides are the relay with and without parts, not the relay and a floor.
    await compareParts(partsRunOptions(quoteRunOptions()));
    loads.push(`after the quotes with parts: ${machineLoad()}`);
    legs = " (the quotes with parts: their own table above)";
  }
  if (PARTS.includes("execute")) {
    console.log("");
    rows.push(...(await compareSubmissions()));
    loads.push(`after the submissions: ${machineLoad()}`);
  }
  if (rows.length) console.log(`\n${comparisonTable(rows)}${legs}`);
  console.log(loads.join("\n"));
}

await main();
