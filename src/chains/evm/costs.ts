import type { EvmChain } from "../../config";
import { log } from "../../log";
import type { ChainCosts } from "../costs";
import { KeptInput } from "../kept-input";
import { type Fetcher, jsonRpcBatch, type RpcAnswer } from "./call-batch";
import { feeBpsOf, feeBpsRequests } from "./fee-bps";
import { TakerAllowances } from "./taker-allowances";

/** Decimals of ether: its base unit is the wei. */
export const ETHER_DECIMALS = 18;

/**
 * How often the inputs are read again while the corridor is in use: well under a block time of 12 s, so
 * what a quote is priced with is at most about one block old (docs/api.md, "The gas fee").
 */
export const REFRESH_EVERY_MS = 4_000;

/**
 * What an EVM fill may cost in wei: `units × (2 × baseFee + priorityFee)`, the doubled base fee leaving
 * room for the quote's lifetime and one fee bump.
 */
export function evmGasCost(units: bigint, baseFee: bigint, priorityFee: bigint): bigint {
  return units * (2n * baseFee + priorityFee);
}

/** What one read of the chain showed. */
export interface EvmCostInputs {
  /** The latest block's base fee (its gas price on a chain without EIP-1559). */
  baseFee: bigint;
  priorityFee: bigint;
  /** The FeeController's bps for each token, by lower-case address. */
  feeBps: Map<string, number>;
}

const hexQuantity = (value: unknown): bigint | null =>
  typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value) ? BigInt(value) : null;

/** The requests of one read: the latest block, the tip, the gas price and the FeeController's bps per token. */
export function costRequests(chain: EvmChain) {
  return [
    { method: "eth_getBlockByNumber", params: ["latest", false] },
    { method: "eth_maxPriorityFeePerGas", params: [] },
    { method: "eth_gasPrice", params: [] },
    ...feeBpsRequests(chain),
  ];
}

/** What a read's answers show; throws when the block or the gas price is missing (the read then failed). */
export function costInputsOf(chain: EvmChain, answers: RpcAnswer[]): EvmCostInputs {
  const [block, tip, gasPrice, ...bps] = answers;
  const baseFee =
    (block?.ok ? hexQuantity((block.result as { baseFeePerGas?: unknown } | null)?.baseFeePerGas) : null) ??
    (gasPrice?.ok ? hexQuantity(gasPrice.result) : null);
  if (baseFee === null) throw new Error(`no base fee or gas price: ${block?.ok ? "" : block?.error}`);
  const feeBps = feeBpsOf(chain, bps);
  // A node without the tip method is a chain without tips.
  return { baseFee, priorityFee: (tip?.ok ? hexQuantity(tip.result) : null) ?? 0n, feeBps };
}

/**
 * An EVM chain's fill costs (src/chains/costs.ts): the base fee, the tip and the FeeController's bps,
 * read in one JSON-RPC batch at most every `REFRESH_EVERY_MS` while the corridor is in use (`KeptInput`),
 * never on a quote's path; and each taker's Permit2 allowance, read in the background as it asks for quotes
 * (`TakerAllowances`). One per chain in each isolate (`costsFor`), shared by the chain's corridors there.
 */
export function evmChainCosts(chain: EvmChain, fetcher?: Fetcher): ChainCosts {
  const inputs = new KeptInput(
    async () => costInputsOf(chain, await jsonRpcBatch(chain.rpcUrl, costRequests(chain), fetcher)),
    REFRESH_EVERY_MS,
    (e) => log.error("cost_read_failed", { chainId: chain.chainId, error: String(e) }),
  );
  const allowances = new TakerAllowances(
    chain,
    (e) => log.error("taker_allowance_read_failed", { chainId: chain.chainId, error: String(e) }),
    fetcher,
  );
  return {
    nativeDecimals: ETHER_DECIMALS,
    keepFresh: (now) => inputs.refresh(now),
    async fillCost(fill) {
      const held = inputs.current();
      if (!held || fill.units === null) return null;
      return { native: evmGasCost(fill.units, held.value.baseFee, held.value.priorityFee), at: held.at };
    },
    feeBps: (token) => inputs.current()?.value.feeBps.get(token.toLowerCase()) ?? null,
    keepTakerFresh: (taker, token, now) => allowances.keepFresh(taker, token, now),
    carriesPermit: (taker, token, takerPays, now) => allowances.carriesPermit(taker, token, takerPays, now),
  };
}
