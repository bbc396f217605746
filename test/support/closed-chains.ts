import { localConfig } from "../../src/config/local";

/** The RPCs of the local configuration's chains: `npm start`'s anvil (8545) and Solana harness (8899). */
export const LOCAL_STACK_RPC_URLS: readonly string[] = localConfig.chains.map((c) => c.rpcUrl);

/**
 * A workers test project's RELAY_CONFIG (JSON; unset means the local default) with every chain still at
 * the local stack's RPC moved to `closedRpcUrl` (closed-port.global.ts); a chain the project's global
 * setup started keeps its own. So no test reads a chain it did not name, even with `npm start` running.
 */
export function withClosedChains(relayConfig: string | undefined, closedRpcUrl: string): string {
  const config = relayConfig ? (JSON.parse(relayConfig) as typeof localConfig) : localConfig;
  return JSON.stringify({
    ...config,
    chains: config.chains.map((c) => (LOCAL_STACK_RPC_URLS.includes(c.rpcUrl) ? { ...c, rpcUrl: closedRpcUrl } : c)),
  });
}
