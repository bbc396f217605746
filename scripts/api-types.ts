/**
 * Writes the TypeScript types of the relay's OpenAPI document with openapi-typescript
 * (docs/api.md, "A typed client"), from the app built in this process. Run it, and commit the result,
 * whenever a route's schemas change: test/unit/api-types.test.ts fails until then.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { API_TYPES_PATH, apiTypes } from "./lib/api-types";

const text = await apiTypes();
let before = "";
try {
  before = readFileSync(API_TYPES_PATH, "utf8");
} catch {
  // Not generated yet.
}
writeFileSync(API_TYPES_PATH, text);
const path = relative(process.cwd(), API_TYPES_PATH);
console.log(before === text ? `api:types: ${path} was up to date` : `api:types: wrote ${path}`);
