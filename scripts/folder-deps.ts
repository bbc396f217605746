/**
 * `npm run deps`: dependency-cruiser's file rules (.dependency-cruiser.cjs), then the folder rules on the
 * same cruise (docs/architecture.md, "Folders"): another folder is imported only through its index.ts,
 * runtime imports point down the ranks and join no folders in a cycle. Reads dependency-cruiser's JSON on
 * stdin; exits 1 on any violation.
 */
import { readFileSync } from "node:fs";
import type { ICruiseResult } from "dependency-cruiser";
import { dependencyProblems, runtimeUnitGraph } from "./lib/folder-graph";

const result = JSON.parse(readFileSync(0, "utf8")) as ICruiseResult;
const problems = dependencyProblems(result);
const cruised = `${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} dependencies, ${runtimeUnitGraph(result.modules).size} importing units`;
if (problems.length > 0) {
  console.error(`${problems.join("\n")}\n\n✘ ${problems.length} dependency violations (${cruised})`);
  process.exit(1);
}
console.log(`✔ no dependency violations (${cruised})`);
