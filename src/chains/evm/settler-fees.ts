import type { TransactionSerializable } from "viem";
import type { GasPricing } from "./settler-client";

/** A transaction's fees, in its type. */
export type TxFees =
  | { type: "legacy"; gasPrice: bigint }
  | { type: "eip1559"; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * The fees of a stuck transaction's replacement (docs/settlement.md, "Stuck transactions"): each at
 * least `bumpPercent` over what it replaces (nodes refuse a replacement that is not), and never under
 * what the chain asks now. The replacement keeps the transaction's type.
 */
export function raisedFees(
  before: Pick<TransactionSerializable, "type" | "gasPrice" | "maxFeePerGas" | "maxPriorityFeePerGas">,
  pricing: GasPricing,
  bumpPercent: number,
): TxFees {
  const now =
    "gasPrice" in pricing
      ? { fee: pricing.gasPrice, tip: pricing.gasPrice }
      : { fee: pricing.maxFeePerGas, tip: pricing.maxPriorityFeePerGas };
  const raised = (was: bigint | undefined, current: bigint) =>
    maxBig((was ?? 0n) + ((was ?? 0n) * BigInt(bumpPercent) + 99n) / 100n, current);
  return before.type === "legacy"
    ? { type: "legacy", gasPrice: raised(before.gasPrice, now.fee) }
    : {
        type: "eip1559",
        maxFeePerGas: raised(before.maxFeePerGas, now.fee),
        maxPriorityFeePerGas: raised(before.maxPriorityFeePerGas, now.tip),
      };
}
