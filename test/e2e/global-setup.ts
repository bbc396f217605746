import { base58 } from "@scure/base";
import type { TestProject } from "vitest/node";
import { DEFAULT_LOCAL_RATE, parseRate, startLocalRateSource } from "../../scripts/lib/local-rates";
import {
  anvilPrivateKey,
  LOCAL_ACCOUNTS,
  localHolders,
  offlineRelayConfig,
  prepareLocalChain,
  startAnvil,
  startIntervalMining,
} from "../../scripts/lib/local-stack";
import { startSolanaHarness } from "../../scripts/lib/solana-harness/server";
import { startRelay } from "./harness";

declare module "vitest" {
  export interface ProvidedContext {
    relayUrl: string;
    /** The e2e chain: anvil with the local contracts, takers 5–8 and resolvers 1–4 funded. */
    rpcUrl: string;
    /** The e2e Solana chain: the LiteSVM harness with its seeded accounts funded. */
    solanaRpcUrl: string;
  }
}

/**
 * The chains and one relay for the whole e2e project, started fresh and stopped at the end: anvil on a
 * free port with the contracts deployed and funded and a block a second, the LiteSVM harness on a free
 * port with slots of 100 ms (a swap is `finalized` about 3 s after it lands), and `wrangler dev`
 * settling on both with the local keeper keys. The oracle polls nothing public: its one source is the
 * local rate source on a free port at 1,580 NGN per USD, as under `npm start` offline, so every corridor
 * has a band (the resolvers price at its mid, and limit orders have a market).
 */
export default async function setup(project: TestProject) {
  const solana = await startSolanaHarness({ port: 0, slotMs: 100 });
  const anvil = await startAnvil();
  const rates = await startLocalRateSource(parseRate(DEFAULT_LOCAL_RATE), 0);
  const stopChains = () => Promise.all([anvil.stop(), solana.stop(), rates.stop()]);
  try {
    await prepareLocalChain(anvil.rpcUrl, localHolders());
    await startIntervalMining(anvil.rpcUrl, 1);
    const config = offlineRelayConfig(anvil.rpcUrl, rates.url);
    const relay = await startRelay({
      vars: {
        RELAY_CONFIG: JSON.stringify({
          ...config,
          chains: config.chains.map((c) => (c.kind === "solana" ? { ...c, rpcUrl: solana.url } : c)),
        }),
        KEEPER_PRIVATE_KEY: anvilPrivateKey(LOCAL_ACCOUNTS.keeper),
        KEEPER_SOLANA_KEY: base58.encode(solana.accounts.keeper.secretKey),
      },
    });
    project.provide("relayUrl", relay.url);
    project.provide("rpcUrl", anvil.rpcUrl);
    project.provide("solanaRpcUrl", solana.url);
    return async () => {
      await relay.stop();
      await stopChains();
    };
  } catch (e) {
    await stopChains();
    throw e;
  }
}
