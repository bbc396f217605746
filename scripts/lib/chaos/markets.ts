/**
 * What the chaos takers trade, read from the relay's configuration record (`GET /v1/config`): cNGN sold
 * for USDC on the EVM chain and on the Solana chain, and the chains' contracts and tokens the audit reads.
 */
import type { Address, PublicClient } from "viem";
import type { RelayConfigRecord } from "../../../src/clients/resolver/relay-config";
import type { ChainsUnderTest } from "./chain-audit";
import type { Pair } from "./takers";

/** 1,580 cNGN: a dollar at the local rate, small beside the million each taker holds. */
export const SWAP_CNGN = 1_580_000_000n;

type ChainRecord = RelayConfigRecord["chains"][number];

function token<C extends ChainRecord>(chain: C, symbol: string): C["tokens"][number] {
  const found = chain.tokens.find((t) => t.symbol === symbol);
  if (!found) throw new Error(`the relay's chain ${chain.chainId} has no ${symbol}`);
  return found;
}

export interface ChaosMarkets {
  evm: Pair;
  solana: Pair | null;
  chains: ChainsUnderTest;
}

/** cNGN → USDC on the first EVM chain, and on the Solana chain when `solanaRpcUrl` serves it. */
export function chaosMarkets(
  record: RelayConfigRecord,
  client: PublicClient,
  solanaRpcUrl: string | null,
): ChaosMarkets {
  const evm = record.chains.find((c) => c.kind === "evm");
  if (evm?.kind !== "evm") throw new Error("the relay serves no EVM chain");
  const solana = solanaRpcUrl ? record.chains.find((c) => c.kind === "solana") : undefined;
  const pair = (chain: ChainRecord): Pair => ({
    chainId: chain.chainId,
    sellToken: token(chain, "cNGN").address,
    buyToken: token(chain, "USDC").address,
    sellAmount: SWAP_CNGN,
  });
  return {
    evm: pair(evm),
    solana: solana ? pair(solana) : null,
    chains: {
      evm: {
        client,
        executor: evm.executor as Address,
        reactor: evm.reactor as Address,
        tokens: [token(evm, "cNGN").address as Address, token(evm, "USDC").address as Address],
      },
      solana:
        solana?.kind === "solana" && solanaRpcUrl
          ? { rpcUrl: solanaRpcUrl, tokens: [token(solana, "cNGN"), token(solana, "USDC")] }
          : null,
    },
  };
}
