import type { TestProject } from "vitest/node";
import {
  anvilPrivateKey,
  LOCAL_ACCOUNTS,
  offlineRelayConfig,
  prepareLocalChain,
  startAnvil,
  startIntervalMining,
} from "../../scripts/lib/local-stack";
import { anvilAccount } from "../../src/clients/resolver/keys";
import { startRelay } from "./harness";

declare module "vitest" {
  export interface ProvidedContext {
    relayUrl: string;
    /** The e2e chain: anvil with the local contracts, takers 5–8 and resolvers 1–4 funded. */
    rpcUrl: string;
  }
}

/**
 * One chain and one relay for the whole e2e project, started fresh and stopped at the end: anvil on a
 * free port with the contracts deployed and funded and a block a second, and `wrangler dev` settling on
 * it with the local keeper key. The oracle polls nothing public (`offlineRelayConfig`).
 */
export default async function setup(project: TestProject) {
  const anvil = await startAnvil();
  try {
    await prepareLocalChain(anvil.rpcUrl, {
      takers: LOCAL_ACCOUNTS.takers.map((i) => anvilAccount(i).address),
      resolvers: LOCAL_ACCOUNTS.resolvers.map((i) => anvilAccount(i)),
    });
    await startIntervalMining(anvil.rpcUrl, 1);
    const relay = await startRelay({
      vars: {
        RELAY_CONFIG: JSON.stringify(offlineRelayConfig(anvil.rpcUrl)),
        KEEPER_PRIVATE_KEY: anvilPrivateKey(LOCAL_ACCOUNTS.keeper),
      },
    });
    project.provide("relayUrl", relay.url);
    project.provide("rpcUrl", anvil.rpcUrl);
    return async () => {
      await relay.stop();
      await anvil.stop();
    };
  } catch (e) {
    await anvil.stop();
    throw e;
  }
}
