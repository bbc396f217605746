/**
 * Validates a relay configuration before it is served, so a bad field stops with a message naming it
 * instead of surfacing on the first request. Without an argument: what `wrangler dev` will serve (`npm
 * start` runs the same check); with a file: that JSON, e.g. a production `RELAY_CONFIG` (docs/deploy.md).
 *
 *   npx tsx scripts/check-config.ts [relay.production.json]
 */
import { readFileSync } from "node:fs";
import { ConfigError, loadConfig } from "../src/config/load";
import { servedConfig } from "./lib/dev-config";

const file = process.argv[2];
try {
  const { config, source } = file ? { config: loadConfig(readFileSync(file, "utf8")), source: file } : servedConfig();
  const chains = config.chains.map((c) => `${c.name} (${c.kind} ${c.chainId})`).join(", ");
  console.log(`relay configuration ok: ${source}; chains ${chains}`);
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  console.error(e.message);
  process.exit(1);
}
