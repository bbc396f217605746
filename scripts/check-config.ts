/**
 * Validates a relay configuration before it is served, so a bad field stops with a message naming it
 * instead of surfacing on the first request. Without an argument: what `wrangler dev` will serve (`npm
 * start` runs the same check); with a file: that JSON, e.g. a production `RELAY_CONFIG` (docs/deploy.md).
 * Then asks each EVM chain's FeeController its bps: a `fee.bps` that differs is refused; a chain whose
 * RPC does not answer is reported unchecked, which does not refuse (docs/configuration.md, "Checking a
 * configuration").
 *
 *   npx tsx scripts/check-config.ts [relay.production.json]
 */
import { readFileSync } from "node:fs";
import { ConfigError, loadConfig } from "../src/config/load";
import { type ServedConfig, servedConfig } from "./lib/dev-config";
import { checkFeeBps } from "./lib/fee-check";

async function main(): Promise<number> {
  const file = process.argv[2];
  let loaded: ServedConfig;
  try {
    loaded = file ? { config: loadConfig(readFileSync(file, "utf8")), source: file } : servedConfig();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(e.message);
    return 1;
  }
  const { config, source } = loaded;
  const fees = await checkFeeBps(config);
  for (const line of fees.unchecked) console.warn(`${line}; not checked`);
  if (fees.refused.length > 0) {
    console.error(`relay configuration refused: ${source}; the protocol fee's truth is on chain`);
    for (const line of fees.refused) console.error(`  ${line}`);
    return 1;
  }
  const chains = config.chains.map((c) => `${c.name} (${c.kind} ${c.chainId})`).join(", ");
  const agreed = fees.agreed.length > 0 ? `; fee.bps agrees with the FeeController on ${fees.agreed.join(", ")}` : "";
  console.log(`relay configuration ok: ${source}; chains ${chains}${agreed}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
