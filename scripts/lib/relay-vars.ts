/**
 * The variables `npm start` hands `wrangler dev` in its env file (`startRelay`'s `vars`; docs/local-stack.md,
 * "What npm start does", step 5).
 */
import type { RelayConfig } from "../../src/config/schema";
import { exampleDevVars, ownDevVars } from "./dev-config";
import { localKeeperVars } from "./local-stack";
import { unreachableLine, withoutSources } from "./source-reach";

const say = (line = "") => console.log(line);

/**
 * What `startRelay` hands wrangler in its env file: the keepers' keys (`keeperVars`), and when some oracle
 * sources cannot be reached, the configuration without them (`RELAY_CONFIG`), beside the developer's own
 * .dev.vars if there is one, since an env file given to wrangler stands in for it. One line says which.
 */
export function relayVars(config: RelayConfig, unreachable: Map<string, string>): Record<string, string> {
  const vars = keeperVars();
  if (unreachable.size === 0) return vars;
  const reduced = withoutSources(config, new Set(unreachable.keys()));
  say(unreachableLine(unreachable, reduced ? reduced.oracle.sources.map((s) => s.name) : null));
  if (!reduced) return vars;
  return { ...(Object.keys(vars).length > 0 ? vars : ownDevVars()), RELAY_CONFIG: JSON.stringify(reduced) };
}

/**
 * The keepers' keys (EVM and Solana) and the other local secrets of .dev.vars.example, in the env file
 * `startRelay` hands to wrangler. A developer's own .dev.vars wins, and then it is theirs to complete.
 */
function keeperVars(): Record<string, string> {
  const vars = exampleDevVars();
  if (Object.keys(vars).length === 0) {
    say(
      "using .dev.vars (it must set KEEPER_PRIVATE_KEY and KEEPER_SOLANA_KEY for executions; see docs/local-stack.md)",
    );
    return {};
  }
  return localKeeperVars(vars);
}
