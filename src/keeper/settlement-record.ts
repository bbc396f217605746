import type { TxReceipt } from "../chains";
import { legResolvers, type SettledReceipt } from "../db";

/** What `settledStatements` record, but for what the receipt itself says (`settledReceipt`). */
type SettledFill = Omit<SettledReceipt, "txHash" | "block" | "gasUsed" | "keeperSpent" | "carriedPermit">;

/**
 * What a successful receipt says about one quote: its settlement record (still unconfirmed: `confirmed`
 * turns true with `final`), its fills, and what actually moved. Null when the receipt holds no fill of
 * the quote. Addresses are compared as the chain compares them (`sameAddress`). The taker paid its sale
 * plus each fee charged in the sell token (docs/api.md, "Amounts"); a quote's `feeToken` left out is the
 * buy token. A fill of several legs has an event per leg, whose amounts sum to the swap's (docs/contracts.md,
 * "Events").
 */
export function settledFill(
  receipt: TxReceipt,
  quote: { quoteId: string; gasFeeToken: string; feeToken?: string | undefined },
  sameAddress: (a: string, b: string) => boolean,
): SettledFill | null {
  const events = receipt.fills.filter((f) => f.quoteId === quote.quoteId);
  const event = events[0];
  if (!event) return null;
  const sum = (of: (f: (typeof events)[number]) => bigint) => events.reduce((total, f) => total + of(f), 0n);
  const [sold, fee, gasFee] = [sum((f) => f.sellAmount), sum((f) => f.fee), sum((f) => f.gasFee)];
  const gasInSellToken = sameAddress(event.sellToken, quote.gasFeeToken);
  const feeInSellToken = quote.feeToken !== undefined && sameAddress(event.sellToken, quote.feeToken);
  const takerPays = (sold + (feeInSellToken ? fee : 0n) + (gasInSellToken ? gasFee : 0n)).toString();
  const proceeds = sold.toString();
  return {
    settlement: {
      txHash: receipt.hash,
      block: receipt.block,
      blockTime: receipt.blockTime,
      confirmed: false,
      confirmedAt: null,
      takerPays,
      proceeds,
      gasFee: { token: quote.gasFeeToken, amount: gasFee.toString() },
      submitter: receipt.from,
    },
    fills: events.map((f) => ({
      orderHash: f.orderHash,
      resolver: f.resolver,
      filler: f.filler,
      logIndex: f.logIndex,
    })),
    proceeds,
    takerPays,
  };
}

/** What `settledStatements` record of a landed fill: `settledFill`'s, and the receipt's hash, block and gas. */
export function settledReceipt(receipt: TxReceipt, fill: SettledFill, carriedPermit: boolean): SettledReceipt {
  return {
    ...fill,
    txHash: receipt.hash,
    block: receipt.block,
    gasUsed: receipt.gasUsed === null ? null : receipt.gasUsed.toString(),
    keeperSpent: receipt.keeperSpent.toString(),
    carriedPermit,
  };
}

/**
 * Each leg's resolver of a landed fill, by the chain's events, the quote's among them: a Solana maker's fill
 * names its key, and the relay's resolver that signed with it (`node`; docs/legs.md).
 */
export function fillResolvers(receipt: TxReceipt, quote: { quoteId: string; resolver: string | null }): string[] {
  return legResolvers(
    quote.resolver,
    receipt.fills.filter((f) => f.quoteId === quote.quoteId),
  );
}
