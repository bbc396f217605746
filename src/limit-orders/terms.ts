import { protocolFee } from "../auction";
import type { GasCharge } from "../chains";

/**
 * The amounts a limit order is signed with (docs/limit-orders.md, "Amounts"), all bigint base units:
 * - `feeAtLimit`: the protocol fee at the limit, `floor(limitAmount × feeBps / 10000)`, in the buy token;
 * - `gasFeeNow`: the chain's gas fee of a fill now; `maxGasFee` = 3 × it, the most a fill may charge;
 * - `minOut`: the least the recipient gets, `limitAmount − feeAtLimit − maxGasFee` when the gas fee is in
 *   the buy token, else `limitAmount − feeAtLimit`;
 * - `permitAmount`: what Permit2 may pull, `sellAmount`, plus `maxGasFee` when the gas fee is in the sell token.
 */

/** How many of today's gas fees a fill of the order may charge at most. */
export const MAX_GAS_FEE_MULTIPLE = 3n;

export interface LimitAmounts {
  feeAtLimit: bigint;
  gasFeeNow: bigint;
  maxGasFee: bigint;
  minOut: bigint;
  permitAmount: bigint;
}

/** The amounts of an order; null when the limit does not cover the fees (`limit_below_fees`). */
export function limitAmounts(args: {
  sellAmount: bigint;
  limitAmount: bigint;
  feeBps: number;
  gas: GasCharge;
}): LimitAmounts | null {
  const feeAtLimit = protocolFee(args.limitAmount, args.feeBps);
  const maxGasFee = MAX_GAS_FEE_MULTIPLE * args.gas.amount;
  const minOut = args.limitAmount - feeAtLimit - (args.gas.side === "buy" ? maxGasFee : 0n);
  if (minOut <= 0n) return null;
  return {
    feeAtLimit,
    gasFeeNow: args.gas.amount,
    maxGasFee,
    minOut,
    permitAmount: args.sellAmount + (args.gas.side === "sell" ? maxGasFee : 0n),
  };
}

/**
 * The limit amount a signed order was derived from: the inverse of `limitAmounts` for `minOut`. The
 * typed data carries `minOut`, not the limit, so placing reads the limit back from it and the draft's
 * `fee.atLimit`, then derives every amount again from that limit.
 */
export function limitAmountOf(args: { minOut: bigint; feeAtLimit: bigint; maxGasFee: bigint; gas: GasCharge }): bigint {
  return args.minOut + args.feeAtLimit + (args.gas.side === "buy" ? args.maxGasFee : 0n);
}

/**
 * The smallest limit whose order leaves the recipient something (`minOut` ≥ 1) at `feeBps` and the most
 * gas fee taken from the output (`maxGasFeeInBuy`, 0 when the gas fee is in the sell token): what a
 * `limit_below_fees` refusal tells the taker to ask for.
 */
export function smallestLimit(feeBps: number, maxGasFeeInBuy: bigint): bigint {
  const keeps = 10_000n - BigInt(feeBps);
  const minOut = (limit: bigint) => limit - protocolFee(limit, feeBps) - maxGasFeeInBuy;
  let limit = ((maxGasFeeInBuy + 1n) * 10_000n + keeps - 1n) / keeps;
  while (minOut(limit) < 1n) limit += 1n;
  while (limit > 1n && minOut(limit - 1n) >= 1n) limit -= 1n;
  return limit;
}
