/**
 * `npm run deps`: dependency-cruiser's file rules (.dependency-cruiser.cjs), then the folder rules on the
 * same cruise (docs/architecture.md, "Folders"): runtime imports point down the ranks and join no folders
 * in a cycle. Reads dependency-cruiser's JSON on stdin; exits 1 on any violation.
 */
import { readFileSync } from "node:fs";
import type { ICruiseResult } from "dependency-cruiser";
import { runtimeUnitGraph, unitCycles, upwardImports } from "./lib/folder-graph";

const result = JSON.parse(readFileSync(0, "utf8")) as ICruiseResult;
const problems: string[] = [];

for (const v of result.summary.violations)
  problems.push(
    `${v.rule.severity} ${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" → ")})` : ""}`,
  );

const graph = runtimeUnitGraph(result.modules);
for (const upward of upwardImports(graph)) problems.push(`error folders-import-downward: ${upward}`);
for (const cycle of unitCycles(graph)) {
  const examples = cycle.flatMap((from) =>
    [...(graph.get(from) ?? [])].filter(([to]) => cycle.includes(to)).map(([, example]) => `    ${example}`),
  );
  problems.push(`error no-folder-cycle: ${cycle.join(", ")}\n${examples.join("\n")}`);
}

const cruised = `${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} dependencies, ${graph.size} importing units`;
if (problems.length > 0) {
  console.error(`${problems.join("\n")}\n\n✘ ${problems.length} dependency violations (${cruised})`);
  process.exit(1);
}
console.log(`✔ no dependency violations (${cruised})`);
