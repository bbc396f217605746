// The layers point one way (docs/architecture.md, "Layers" and "Folders"); `npm run deps` runs this check and
// then the folder rules of scripts/lib/folder-graph.ts on the same cruise (a folder reached only through its
// index.ts, imports down the ranks, no folder cycle), and `npm test` runs `npm run deps`.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-runtime-cycle",
      comment: "A module may not reach itself through runtime imports (type-only imports are erased).",
      severity: "error",
      from: { path: "^(src|durable-objects)/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "db-imports-no-domain",
      comment:
        "src/db/ holds SQL: it imports schemas, state tables and leaf modules (ids, errors, log), never a domain folder.",
      severity: "error",
      from: { path: "^src/db/" },
      to: {
        path: "^src/",
        pathNot: [
          "^src/db/",
          "^src/schemas/",
          "^src/protocol/index\\.ts$",
          "^src/states/",
          "^src/(ids|errors|log|types|lru-cache)\\.ts$",
        ],
      },
    },
    {
      name: "chains-import-no-domain",
      comment:
        "src/chains/ adapts the chains for the domain: it imports schemas, state tables, configuration, protocol frames and leaves, never a domain folder.",
      severity: "error",
      from: { path: "^src/chains/" },
      to: {
        path: "^src/",
        pathNot: [
          "^src/chains/",
          "^src/schemas/",
          "^src/config/",
          "^src/protocol/",
          // The state tables and the failure reasons' parties: a chain's evidence names whom a failure blames.
          "^src/states/",
          "^src/(ids|errors|log|types|lru-cache)\\.ts$",
          // The gas fee's pricing maths: pure, imports nothing; a chain's costs (src/chains/costs.ts) use it.
          "^src/costs/gas-fee\\.ts$",
        ],
      },
    },
    {
      name: "src-imports-no-object",
      comment:
        "Domain code never imports a Durable Object class; objects wire src/, not the other way round. The Worker's entry exports them and its Env names their bindings.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(index|env)\\.ts$" },
      to: { path: "^durable-objects/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/clients/explorer" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs"] },
  },
};
