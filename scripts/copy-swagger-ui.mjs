// Copies Swagger UI's script and styles from the swagger-ui-dist package into the static assets, so the
// API reference page (/reference, docs/explorer.md) loads them from the relay itself and needs no CDN.
// Runs after every `npm install` (postinstall); the copies are not tracked.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const from = dirname(require.resolve("swagger-ui-dist/package.json"));
const to = new URL("../public/vendor/swagger-ui-dist/", import.meta.url).pathname;
mkdirSync(to, { recursive: true });
for (const file of ["swagger-ui.css", "swagger-ui-bundle.js"]) copyFileSync(join(from, file), join(to, file));
