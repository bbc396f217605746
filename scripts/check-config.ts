/**
 * Validates the configuration `wrangler dev` will serve, before it starts, so a bad field stops with a
 * message naming it instead of surfacing on the first request. `npm start` runs the same check.
 */
import { ConfigError } from "../src/config/load";
import { servedConfig } from "./lib/dev-config";

try {
  const { config, source } = servedConfig();
  const chains = config.chains.map((c) => `${c.name} (${c.kind} ${c.chainId})`).join(", ");
  console.log(`relay configuration ok: ${source}; chains ${chains}`);
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  console.error(e.message);
  process.exit(1);
}
