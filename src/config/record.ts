import type { ChainConfig, EvmChain, RelayConfig, SolanaChain } from "./schema";

/** The public view of one chain (record 2.6): no RPC URLs or internal knobs. */
export function chainRecord(chain: ChainConfig) {
  return chain.kind === "evm" ? evmChainRecord(chain) : solanaChainRecord(chain);
}

function evmChainRecord(c: EvmChain) {
  return {
    kind: c.kind,
    chainId: c.chainId,
    name: c.name,
    executor: c.executor,
    reactor: c.reactor,
    validation: c.validation,
    permit2: c.permit2,
    feeController: c.feeController,
    tokens: c.tokens.map((t) => ({ symbol: t.symbol, address: t.address, decimals: t.decimals, minimum: t.minimum })),
    gasFee: { fixed: c.gasFee.fixed, token: c.gasFee.token },
  };
}

function solanaChainRecord(c: SolanaChain) {
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
    })),
    fee: { token: c.fee.tokens[0] as string, tokens: [...c.fee.tokens], bps: c.fee.bps },
    computeUnitLimit: c.computeUnitLimit,
    computeUnitPrice: c.computeUnitPrice,
    gasFee: { fixed: c.gasFee.fixed, token: c.gasFee.token },
    pairs: c.pairs.map(([a, b]) => [a, b]),
  };
}

export function primaryEvmChain(config: RelayConfig): EvmChain {
  const chain = config.chains.find((c): c is EvmChain => c.kind === "evm");
  // The schema refuses a configuration without one.
  if (!chain) throw new Error("no EVM chain configured");
  return chain;
}

/** Record 2.6: every chain, the first EVM chain's fields inline, and the relay-wide knobs. */
export function configRecord(config: RelayConfig) {
  const primary = evmChainRecord(primaryEvmChain(config));
  return {
    chains: config.chains.map(chainRecord),
    chainId: primary.chainId,
    executor: primary.executor,
    reactor: primary.reactor,
    validation: primary.validation,
    permit2: primary.permit2,
    feeController: primary.feeController,
    tokens: primary.tokens,
    gasFee: primary.gasFee,
    rfqWindowMs: config.rfqWindowMs,
    bandGuardBps: config.bandGuardBps,
    requireTakerProof: config.requireTakerProof,
    requireRegistration: config.requireRegistration,
    maxOutstandingRfqs: config.maxOutstandingRfqs,
    limits: config.limits,
    limitOrders: config.limitOrders
      ? {
          minExpirySeconds: config.limitOrders.minExpirySeconds,
          maxExpirySeconds: config.limitOrders.maxExpirySeconds,
          maxOpenPerTaker: config.limitOrders.maxOpenPerTaker,
        }
      : null,
    retention: { unfilledDays: config.retention.unfilledDays, filledDays: config.retention.filledDays },
  };
}
