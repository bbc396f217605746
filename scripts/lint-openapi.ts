/**
 * `npm run lint:api`: the OpenAPI document as `npm start` serves it, linted with Redocly's recommended
 * rules (redocly.yaml; the one exception, in .redocly.lint-ignore.yaml, is explained there). Part of
 * `npm test` (docs/api.md, "The OpenAPI document").
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { openApiDocument } from "./lib/api-types";

const DOCUMENT = ".wrangler/openapi/openapi.json";

mkdirSync(".wrangler/openapi", { recursive: true });
writeFileSync(DOCUMENT, JSON.stringify(await openApiDocument()));
const redocly = (...flags: string[]) =>
  spawnSync("redocly", ["lint", DOCUMENT, "--config", "redocly.yaml", ...flags], { encoding: "utf8" });
// Redocly fails on errors only; a warning fails this check too.
const { totals } = JSON.parse(redocly("--format=json").stdout) as { totals: { errors: number; warnings: number } };
if (totals.errors + totals.warnings > 0) {
  process.stdout.write(redocly("--max-problems", "200").stdout);
  process.exit(1);
}
console.log(`lint:api: the OpenAPI document passes Redocly's recommended rules (0 errors, 0 warnings)`);
