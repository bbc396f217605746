import { canonicalAddress } from "../chains";
import type { LimitOrder, LimitOrderRow } from "../schemas";
import { cancelLimitMessage } from "./messages";

/** Record 2.8 of a stored order (docs/limit-orders.md, "The record"). */
export function limitOrderRecord(row: LimitOrderRow): LimitOrder {
  return {
    limitOrderId: row.limitOrderId,
    chainId: row.chainId,
    status: row.status,
    gasFee: { token: row.gasFeeToken, max: row.maxGasFee },
    permit: { token: row.permitToken, amount: row.permitAmount, nonce: row.nonce, deadline: row.deadline },
    expiresAt: row.expiresAt,
    quoteId: row.quoteId,
    attempts: row.attempts,
    lastError: row.lastError,
    lastCheckedAt: row.lastCheckedAt,
    bestReceived: row.bestReceived,
    cancelMessage: cancelLimitMessage(row.chainId, row.limitOrderId),
    revoke: row.revoke,
    // Stored in lower case, the key it is counted and found by; answered in EIP-55 (limit orders are EVM's).
    taker: canonicalAddress("evm", row.taker),
    recipient: row.recipient,
    sellToken: row.sellToken,
    buyToken: row.buyToken,
    sellAmount: row.sellAmount,
    limitAmount: row.limitAmount,
    minOut: row.minOut,
    fee: { token: row.feeToken, bps: row.feeBps, atLimit: row.feeAtLimit },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
