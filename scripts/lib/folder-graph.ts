/**
 * The folders of src/ as units (docs/architecture.md, "Folders"): each module collapsed to its unit (a
 * folder of src/, a file at the top of src/, or the Durable Objects), the imports between units, and what
 * breaks the three rules on them: another unit is reached only through a folder's face (its index.ts); a
 * unit imports only units of its rank or below; and no runtime cycle joins units. The last two leave out
 * type-only imports: the compiler erases them (dependency-cruiser marks them `type-only`, as the file rule
 * `no-runtime-cycle` reads them); a folder's private file is private to its types too.
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
    "src/objects",
    "src/archive",
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

/**
 * Each import, type-only ones included, of another folder's private file: anything in a folder of src/
 * but its index.ts, reached from another unit; and anything in src/clients/, which has no face: its
 * programs are not the Worker.
 */
export function deepImports(modules: readonly ModuleImports[]): string[] {
  const found: string[] = [];
  for (const { source, dependencies } of modules) {
    const from = unitOf(source);
    if (!from) continue;
    for (const { resolved } of dependencies) {
      if (resolved.startsWith("src/clients/")) {
        found.push(`${source} imports ${resolved}: src/clients/ is not the Worker`);
        continue;
      }
      const to = unitOf(resolved);
      // A folder of src/, not a file at its top nor the Durable Objects: only these have a face.
      if (to?.startsWith("src/") && !to.endsWith(".ts") && to !== from && resolved !== `${to}/index.ts`)
        found.push(`${source} imports ${resolved}, private to ${to}: import its index.ts`);
    }
  }
  return found;
}

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

/** What dependency-cruiser's cruise (`--output-type json`) gives the folder rules. */
export interface Cruise {
  modules: readonly ModuleImports[];
  summary: {
    violations: readonly {
      from: string;
      to: string;
      rule: { name: string; severity: string };
      cycle?: { name: string }[];
    }[];
  };
}

/**
 * Every violation `npm run deps` reports, one line each: dependency-cruiser's file rules
 * (.dependency-cruiser.cjs) as it found them, then the folder rules above on the same cruise.
 */
export function dependencyProblems(cruise: Cruise): string[] {
  const problems = cruise.summary.violations.map(
    (v) =>
      `${v.rule.severity} ${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" → ")})` : ""}`,
  );
  for (const deep of deepImports(cruise.modules)) problems.push(`error folder-face-only: ${deep}`);
  const graph = runtimeUnitGraph(cruise.modules);
  for (const upward of upwardImports(graph)) problems.push(`error folders-import-downward: ${upward}`);
  for (const cycle of unitCycles(graph)) {
    const examples = cycle.flatMap((from) =>
      [...(graph.get(from) ?? [])].filter(([to]) => cycle.includes(to)).map(([, example]) => `    ${example}`),
    );
    problems.push(`error no-folder-cycle: ${cycle.join(", ")}\n${examples.join("\n")}`);
  }
  return problems;
}
