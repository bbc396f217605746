import type { SolanaChain } from "./config";

/** The public view of a Solana chain (record 2.6): no RPC URLs or internal knobs. */
export function solanaChainRecord(c: SolanaChain) {
  return {
    kind: c.kind,
    chainId: c.chainId,
    name: c.name,
    cluster: c.cluster,
    program: c.program,
    executor: c.program,
    treasury: c.treasury,
    keeper: c.keeper,
    tokens: c.tokens.map((t) => ({
      symbol: t.symbol,
      address: t.address,
      tokenProgram: t.tokenProgram,
      decimals: t.decimals,
      minimum: t.minimum,
      minLegSellAmount: t.minLegSellAmount,
    })),
    maxLegs: c.maxLegs,
    fee: { token: c.fee.tokens[0] as string, tokens: [...c.fee.tokens], bps: c.fee.bps },
    computeUnitLimit: c.computeUnitLimit,
    computeUnitPrice: c.computeUnitPrice,
    gasFee: { fixed: c.gasFee.fixed, token: c.gasFee.token },
    pairs: c.pairs.map(([a, b]) => [a, b]),
  };
}
