// Keeps package-lock.json installable with `npm ci` from a registry that serves only some platforms'
// binaries. npm records every optional platform package a dependency lists (biome, workerd, anvil),
// but writes no entry for those the registry cannot resolve, and `npm ci` then refuses the lockfile as
// out of sync. Those dangling optional edges are dropped here; with a registry that has every platform
// nothing is dangling and the file is left as it is. Runs after every `npm install` (postinstall).
import { readFileSync, writeFileSync } from "node:fs";

const path = new URL("../package-lock.json", import.meta.url);
const text = readFileSync(path, "utf8");
const lock = JSON.parse(text);
const installed = new Set(Object.keys(lock.packages).map((p) => p.slice(p.lastIndexOf("node_modules/") + 13)));
let dropped = 0;
for (const entry of Object.values(lock.packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    if (!installed.has(name)) {
      delete entry.optionalDependencies[name];
      dropped++;
    }
  }
}
if (dropped > 0) writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
