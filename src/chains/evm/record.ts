import type { EvmChain } from "./config";

/** The public view of an EVM chain (record 2.6): no RPC URLs or internal knobs. */
export function evmChainRecord(c: EvmChain) {
  return {
    kind: c.kind,
    chainId: c.chainId,
    name: c.name,
    executor: c.executor,
    reactor: c.reactor,
    validation: c.validation,
    permit2: c.permit2,
    feeController: c.feeController,
    tokens: c.tokens.map((t) => ({
      symbol: t.symbol,
      address: t.address,
      decimals: t.decimals,
      minimum: t.minimum,
      minLegSellAmount: t.minLegSellAmount,
    })),
    maxLegs: c.maxLegs,
    gasFee: { fixed: c.gasFee.fixed, token: c.gasFee.token },
  };
}
