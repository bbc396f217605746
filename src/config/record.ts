import { chainRecord, firstPrimaryChain, primaryChainRecord } from "../chains";
import type { EvmChain, RelayConfig } from "./schema";

/** The first EVM chain: the one limit orders default to and record 2.6 gives inline. */
export function primaryEvmChain(config: RelayConfig): EvmChain {
  const chain = firstPrimaryChain(config.chains);
  // The schema refuses a configuration without one.
  if (!chain) throw new Error("no EVM chain configured");
  return chain;
}

/** Record 2.6: every chain, the first EVM chain's fields inline, and the relay-wide knobs. */
export function configRecord(config: RelayConfig) {
  const primary = primaryChainRecord(primaryEvmChain(config));
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
    retention: {
      unfilledHours: config.retention.unfilledHours,
      unfilledDays: config.retention.unfilledDays,
      filledDays: config.retention.filledDays,
    },
  };
}
