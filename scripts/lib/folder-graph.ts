/**
 * The folders of src/ as units (docs/architecture.md, "Folders"): each module collapsed to its unit (a
 * folder of src/, a file at the top of src/, or the Durable Objects), the runtime imports between units,
 * and what breaks the two rules on them: a unit imports only units of its rank or below, and no runtime
 * cycle joins units. Type-only imports are left out: the compiler erases them (dependency-cruiser marks
 * them `type-only`, as the file rule `no-runtime-cycle` reads them).
 */

/** The ranks, top first (docs/architecture.md, "Folders"); a unit not named here is a leaf. */
export const RANKS: readonly (readonly string[])[] = [
  ["durable-objects", "src/routes", "src/app.ts", "src/index.ts", "src/entry.ts"],
  [
    "src/levels",
    "src/auction",
    "src/nodes",
    "src/resolvers",
    "src/quotes",
    "src/limit-orders",
    "src/keeper",
    "src/streams",
    "src/ops",
    "src/costs",
    "src/limits",
    "src/oracle",
    "src/http",
    "src/config",
  ],
  ["src/chains", "src/db"],
];
const LEAF_RANK = RANKS.length;

export interface ModuleImports {
  source: string;
  dependencies: { resolved: string; dependencyTypes: string[] }[];
}

/** The unit a path belongs to, or null for what is not the relay's Worker (node_modules, src/clients). */
export function unitOf(path: string): string | null {
  if (path.startsWith("durable-objects/")) return "durable-objects";
  const folder = /^src\/([^/]+)\//.exec(path);
  if (folder) return folder[1] === "clients" ? null : `src/${folder[1]}`;
  return /^src\/[^/]+$/.test(path) ? path : null;
}

export const rankOf = (unit: string): number => {
  const rank = RANKS.findIndex((units) => units.includes(unit));
  return rank === -1 ? LEAF_RANK : rank;
};

/** Unit → unit → one module import that makes the edge (the example a violation names). */
export type UnitGraph = Map<string, Map<string, string>>;

export function runtimeUnitGraph(modules: readonly ModuleImports[]): UnitGraph {
  const graph: UnitGraph = new Map();
  for (const { source, dependencies } of modules) {
    const from = unitOf(source);
    if (!from) continue;
    for (const { resolved, dependencyTypes } of dependencies) {
      const to = unitOf(resolved);
      if (!to || to === from || dependencyTypes.includes("type-only")) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${source} → ${resolved}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Each runtime import that points up the ranks. */
export function upwardImports(graph: UnitGraph): string[] {
  const found: string[] = [];
  for (const [from, edges] of graph)
    for (const [to, example] of edges)
      if (rankOf(to) < rankOf(from))
        found.push(`${from} (rank ${rankOf(from)}) imports ${to} (rank ${rankOf(to)}): ${example}`);
  return found;
}

/** The strongly connected sets of two or more units (Tarjan), each a cycle of runtime imports. */
export function unitCycles(graph: UnitGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (unit: string): void => {
    index.set(unit, index.size);
    low.set(unit, index.get(unit) as number);
    stack.push(unit);
    onStack.add(unit);
    for (const next of graph.get(unit)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(unit, Math.min(low.get(unit) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(unit, Math.min(low.get(unit) as number, index.get(next) as number));
    }
    if (low.get(unit) !== index.get(unit)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      members.push(member);
    } while (member !== unit);
    if (members.length > 1) cycles.push(members.sort());
  };
  for (const unit of graph.keys()) if (!index.has(unit)) visit(unit);
  return cycles;
}
