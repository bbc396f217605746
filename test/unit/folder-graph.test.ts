import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type Cruise,
  deepImports,
  dependencyProblems,
  type ModuleImports,
  RANKS,
  rankOf,
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

  it("finds an import of another folder's private file or of a client, type-only too, and lets faces, own files and clients' own imports pass", () => {
    expect(
      deepImports([
        imports("src/quotes/as-of-now.ts", ["src/db/quote-status.ts", RUNTIME], ["src/db/index.ts", RUNTIME]),
        imports("durable-objects/keeper.ts", ["src/keeper/keeper.ts", TYPE_ONLY], ["src/keeper/index.ts", RUNTIME]),
        imports("src/chains/evm/adapter.ts", ["src/chains/adapter.ts", RUNTIME], ["src/errors.ts", RUNTIME]),
        imports("src/clients/taker/swap.ts", ["src/chains/evm/adapter.ts", RUNTIME]),
        imports("src/routes/quotes.ts", ["src/clients/taker/api.ts", TYPE_ONLY]),
      ]),
    ).toEqual([
      "src/quotes/as-of-now.ts imports src/db/quote-status.ts, private to src/db: import its index.ts",
      "durable-objects/keeper.ts imports src/keeper/keeper.ts, private to src/keeper: import its index.ts",
      "src/routes/quotes.ts imports src/clients/taker/api.ts: src/clients/ is not the Worker",
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

  let real: Cruise | undefined;
  const relayCruise = () => {
    real ??= cruiseAsNpmRunDeps();
    return real;
  };

  it("finds nothing on the relay's own graph", () => {
    expect(relayCruise().modules.length).toBeGreaterThan(100);
    expect(dependencyProblems(relayCruise())).toEqual([]);
  }, 60_000);

  it("is what docs/architecture.md's Folders table says: its ranks, its order within a rank, a face per folder", () => {
    const section = readFileSync("docs/architecture.md", "utf8").split("## Folders")[1] ?? "";
    const rankNames = ["top", "domain", "chains and db", "schemas, leaves"];
    const rows = [...section.matchAll(/^\| ([a-z ,]+?) +\| `([a-z-]+(?:\/[a-z-]+)?)\/` +\|/gm)].map(
      ([, rank, unit]) => ({
        rank: rankNames.indexOf(rank as string),
        unit: unit as string,
      }),
    );
    const folders = readdirSync("src", { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== "clients")
      .map((e) => `src/${e.name}`);
    expect(rows.map((r) => r.unit).sort()).toEqual(["durable-objects", ...folders].sort());
    for (const { rank, unit } of rows) expect(rankOf(unit), unit).toBe(rank);
    for (const units of RANKS)
      for (const unit of units) if (!unit.endsWith(".ts")) expect(folders.concat("durable-objects")).toContain(unit);
    for (const folder of folders) expect(existsSync(`${folder}/index.ts`), `${folder}/index.ts`).toBe(true);
    // Within a rank a folder imports only folders the table lists below it.
    const order = rows.map((r) => r.unit);
    const graph = runtimeUnitGraph(relayCruise().modules);
    for (const [from, edges] of graph)
      for (const [to, example] of edges)
        if (order.includes(from) && order.includes(to) && rankOf(from) === rankOf(to))
          expect(order.indexOf(to), `${from} imports ${to}, listed above it: ${example}`).toBeGreaterThan(
            order.indexOf(from),
          );
  }, 60_000);
});
