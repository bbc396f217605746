/**
 * Validates the configuration `wrangler dev` will serve, before it starts, so a bad field stops
 * `npm start` with a message naming it instead of surfacing on the first request.
 * Sources, as wrangler applies them: .dev.vars over wrangler.toml [vars]; empty means the local default.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { unstable_readConfig } from "wrangler";
import { ConfigError, loadConfig } from "../src/config/load";

const vars = (unstable_readConfig({ config: "wrangler.toml" }).vars ?? {}) as Record<string, unknown>;
const devVars = existsSync(".dev.vars") ? parseEnv(readFileSync(".dev.vars", "utf8")) : {};
const raw = devVars.RELAY_CONFIG ?? (typeof vars.RELAY_CONFIG === "string" ? vars.RELAY_CONFIG : undefined);

try {
  const config = loadConfig(raw);
  const chains = config.chains.map((c) => `${c.name} (${c.kind} ${c.chainId})`).join(", ");
  console.log(`relay configuration ok: ${raw ? "RELAY_CONFIG" : "embedded local default"}; chains ${chains}`);
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  console.error(e.message);
  process.exit(1);
}
