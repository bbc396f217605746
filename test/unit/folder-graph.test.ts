import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type Cruise,
  deepImports,
  dependencyProblems,
  type ModuleImports,
  runtimeUnitGraph,
  unitCycles,
  unitOf,
  upwardImports,
} from "../../scripts/lib/folder-graph";

const imports = (source: string, ...targets: [string, string[]][]) => ({
  source,
  dependencies: targets.map(([resolved, dependencyTypes]) => ({ resolved, dependencyTypes })),
});
const RUNTIME = ["local", "import"];
const TYPE_ONLY = ["local", "type-only", "import"];

describe("the folder rules of npm run deps", () => {
  it("collapses a module to its folder, a top file to itself, and leaves out the clients", () => {
    expect(unitOf("src/chains/evm/adapter.ts")).toBe("src/chains");
    expect(unitOf("src/errors.ts")).toBe("src/errors.ts");
    expect(unitOf("durable-objects/keeper.ts")).toBe("durable-objects");
    expect(unitOf("src/clients/resolver/cli.ts")).toBeNull();
    expect(unitOf("node_modules/viem/index.js")).toBeNull();
  });

  it("finds a runtime import up the ranks, and lets a type-only one pass", () => {
    const graph = runtimeUnitGraph([
      imports("src/chains/adapter.ts", ["src/config/index.ts", TYPE_ONLY]),
      imports("src/db/quotes.ts", ["src/auction/index.ts", RUNTIME], ["src/errors.ts", RUNTIME]),
    ]);
    expect(upwardImports(graph)).toEqual([
      "src/db (rank 2) imports src/auction (rank 1): src/db/quotes.ts → src/auction/index.ts",
    ]);
  });

  it("finds folders joined in a cycle by runtime imports, and none when one link is type-only", () => {
    const modules = (last: string[]) => [
      imports("src/auction/rfq.ts", ["src/nodes/index.ts", RUNTIME]),
      imports("src/nodes/live.ts", ["src/resolvers/index.ts", RUNTIME]),
      imports("src/resolvers/standing.ts", ["src/auction/index.ts", last]),
    ];
    expect(unitCycles(runtimeUnitGraph(modules(RUNTIME)))).toEqual([["src/auction", "src/nodes", "src/resolvers"]]);
    expect(unitCycles(runtimeUnitGraph(modules(TYPE_ONLY)))).toEqual([]);
  });

  it("finds an import of another folder's private file, type-only too, and lets faces, own files and clients pass", () => {
    expect(
      deepImports([
        imports("src/quotes/as-of-now.ts", ["src/db/quote-status.ts", RUNTIME], ["src/db/index.ts", RUNTIME]),
        imports("durable-objects/keeper.ts", ["src/keeper/keeper.ts", TYPE_ONLY], ["src/keeper/index.ts", RUNTIME]),
        imports("src/chains/evm/adapter.ts", ["src/chains/adapter.ts", RUNTIME], ["src/errors.ts", RUNTIME]),
        imports("src/clients/taker/swap.ts", ["src/chains/evm/adapter.ts", RUNTIME]),
      ]),
    ).toEqual([
      "src/quotes/as-of-now.ts imports src/db/quote-status.ts, private to src/db: import its index.ts",
      "durable-objects/keeper.ts imports src/keeper/keeper.ts, private to src/keeper: import its index.ts",
    ]);
  });
});

/** The cruise `npm run deps` makes: the command of its script before the pipe, run the same way. */
function cruiseAsNpmRunDeps(): Cruise {
  const scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts as Record<string, string>;
  const [command, ...args] = (scripts.deps?.split("|")[0] ?? "").trim().split(/\s+/);
  expect(command).toBe("depcruise");
  const bin = "node_modules/dependency-cruiser/bin/dependency-cruise.mjs";
  return JSON.parse(execFileSync(process.execPath, [bin, ...args], { encoding: "utf8", maxBuffer: 1 << 28 }));
}

describe("npm run deps", () => {
  const cruise = (modules: ModuleImports[]): Cruise => ({ modules, summary: { violations: [] } });

  it("fails on a deep import of another folder's file", () => {
    const problems = dependencyProblems(
      cruise([imports("src/routes/quotes.ts", ["src/auction/house.ts", RUNTIME], ["src/db/index.ts", RUNTIME])]),
    );
    expect(problems).toEqual([
      "error folder-face-only: src/routes/quotes.ts imports src/auction/house.ts, private to src/auction: import its index.ts",
    ]);
  });

  it("fails on folders joined in a cycle, naming the imports that make it", () => {
    const problems = dependencyProblems(
      cruise([
        imports("src/nodes/live.ts", ["src/resolvers/index.ts", RUNTIME]),
        imports("src/resolvers/standing.ts", ["src/nodes/index.ts", RUNTIME]),
      ]),
    );
    expect(problems).toEqual([
      "error no-folder-cycle: src/nodes, src/resolvers\n" +
        "    src/nodes/live.ts → src/resolvers/index.ts\n" +
        "    src/resolvers/standing.ts → src/nodes/index.ts",
    ]);
  });

  it("finds nothing on the relay's own graph", () => {
    const real = cruiseAsNpmRunDeps();
    expect(real.modules.length).toBeGreaterThan(100);
    expect(dependencyProblems(real)).toEqual([]);
  }, 60_000);
});
