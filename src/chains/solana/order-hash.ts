import { sha256 } from "viem";
import { messageBytes, readWireBase64 } from "./wire";

/**
 * The order a Solana swap settles, as a fill's `orderHash` names it (docs/settlement.md, "What a Solana
 * fill records"): SHA-256 of the swap transaction's message bytes, which are the quote's signed terms
 * (what the resolver, the taker and the keeper each sign: every leg, the memo with the quote id, the
 * blockhash), as 0x-prefixed hex like the EVM executor's bytes32. It is the same whether read from the
 * quote's `transaction` or from the landed transaction, and it names the order where the transaction's
 * signature (the keeper's) names one sending of it.
 */
export function swapOrderHash(message: Uint8Array): string {
  return sha256(message);
}

/** `swapOrderHash` of a serialized transaction in base64 (a quote's `transaction`); null when it is none. */
export function transactionOrderHash(transaction: string): string | null {
  const wire = readWireBase64(transaction);
  return wire ? swapOrderHash(messageBytes(wire)) : null;
}
