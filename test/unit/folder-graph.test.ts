import { describe, expect, it } from "vitest";
import { runtimeUnitGraph, unitCycles, unitOf, upwardImports } from "../../scripts/lib/folder-graph";

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
});
