// The layers point one way (docs/architecture.md, "Layers" and "Folders"); `npm run deps` runs this check and
// then the folder rules of scripts/folder-deps.ts on the same cruise, and `npm test` runs `npm run deps`.
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
          "^src/(ids|errors|log|types|blame)\\.ts$",
        ],
      },
    },
    {
      name: "chains-import-no-domain",
      comment:
        "src/chains/ adapts the chains for the domain: it imports schemas, configuration, protocol frames and leaves, never a domain folder.",
      severity: "error",
      from: { path: "^src/chains/" },
      to: {
        path: "^src/",
        pathNot: [
          "^src/chains/",
          "^src/schemas/",
          "^src/config/",
          "^src/protocol/",
          "^src/(ids|errors|log|types|blame)\\.ts$",
          // The gas fee's pricing maths: pure, imports nothing; a chain's costs (src/chains/costs.ts) use it.
          "^src/costs/gas-fee\\.ts$",
        ],
      },
    },
    {
      name: "folder-face-only",
      comment:
        'A folder of src/ is a unit: another folder imports only its index.ts (docs/architecture.md, "Folders"). src/clients/ is not the Worker: its programs import the modules they need by file, so each bundle takes only those.',
      severity: "error",
      from: { path: "^src/([^/]+)/", pathNot: "^src/clients/" },
      to: { path: "^src/[^/]+/", pathNot: ["^src/$1/", "^src/[^/]+/index\\.ts$"] },
    },
    {
      name: "face-only-from-the-top",
      comment: "The Durable Objects and the files at the top of src/ import a folder through its index.ts too.",
      severity: "error",
      from: { path: ["^durable-objects/", "^src/[^/]+\\.ts$"] },
      to: { path: "^src/[^/]+/", pathNot: "^src/[^/]+/index\\.ts$" },
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
