import { keccak256, stringToBytes } from "viem";
import { minReceivedOf } from "../chains";
import type { QuoteRow } from "../db";
import { legsOf, type Steering } from "../schemas";
import type { QuoteInput } from "../types";
import type { DecidedWinner } from "./decide";
import type { LiveAuction } from "./live-auction";
import type { QuotedRecord } from "./quote-outcome";
import type { RankedOffer } from "./rank";
import type { StoredOffer } from "./store";

/**
 * The quote as stored, won by `winner` at `quotedAt` (ms), with the auction's valid `offers` as stored;
 * `solanaAddress` is the Solana key that signed for the winner (null on EVM: `ChainAdapter.quotedWinnerKey`).
 */
export function quoteRow(
  live: LiveAuction,
  input: QuoteInput,
  winner: DecidedWinner & { solanaAddress: string | null },
  offers: readonly StoredOffer[],
  steering: Steering | null,
  quotedAt: number,
): QuoteRow {
  const { terms, gas } = live;
  const { offer, amounts, signing, winnerSignature, solanaAddress, legs } = winner;
  return {
    quoteId: live.quoteId,
    rfqId: terms.rfqId,
    chainId: terms.chain.chainId,
    status: "quoted",
    final: false,
    taker: input.taker,
    recipient: input.recipient,
    sellToken: input.sellToken,
    buyToken: input.buyToken,
    sellAmount: input.sellAmount,
    received: amounts.received.toString(),
    minReceived: minReceivedOf(amounts.received, terms.slippageBps ?? 0).toString(),
    slippageBps: terms.slippageBps ?? 0,
    fee: { token: terms.fee.token, amount: amounts.fee.toString() },
    // A fill of several legs pays each leg's share of the gas (docs/legs.md): the decided amount, not one leg's.
    gasFee: { token: gas.token, amount: amounts.gasFee.toString(), source: gas.source },
    takerPays: amounts.takerPays.toString(),
    proceeds: amounts.proceeds.toString(),
    offersHash: offersHash(offers),
    band: live.band,
    quotedAt: new Date(quotedAt).toISOString(),
    expiresAt: new Date(live.expiresAt).toISOString(),
    resolver: { address: offer.resolver, name: offer.name, solanaAddress },
    replies: live.auction.replies(),
    steering,
    settlement: null,
    signing: {
      ...signing,
      // The filling bid, which a fade replaces with the next offer's (docs/settlement.md, "When the winner fades").
      resolver: offer.resolver,
      outputAmount: amounts.outputAmount.toString(),
      resolverSignature: offer.bid.signature,
      // A fill of several makers: every leg, each with its part and its signature (docs/legs.md).
      ...(legs ? { legs } : {}),
      deadline: terms.deadline,
      ...(winnerSignature === null ? {} : { winnerSignature }),
    },
    fillKind: terms.limit ? "limit" : "rfq",
    nativePrice: gas.nativePrice,
  };
}

/** A new quote's first timeline events: requested, and quoted `quotedAt` (ms) with its latency. */
export function firstEvents(input: QuoteInput, quote: QuoteRow, quotedAt: number): QuotedRecord["timeline"] {
  return [
    { at: new Date(input.requestedAt).toISOString(), event: "requested", detail: null },
    { at: quote.quotedAt, event: "quoted", detail: { latencyMs: quotedAt - input.requestedAt } },
  ];
}

/** The quote as the taker gets it: the stored row without what the taker signs, offers without signatures. */
export function quotedRecord(
  quote: QuoteRow,
  offers: readonly StoredOffer[],
  timeline: QuotedRecord["timeline"],
): QuotedRecord {
  const { signing: _signing, fillKind: _kind, nativePrice: _price, ...record } = quote;
  const shown = offers.map(({ signature: _s, received: _r, ...o }) => o);
  return {
    ...record,
    offers: shown,
    legs: legsOf({ sellAmount: quote.sellAmount, offers: shown }),
    executions: [],
    fills: [],
    timeline,
  };
}

/** Offers as stored: the bid's signature and what it leaves the recipient kept for settlement. */
export function storedOffers(offers: readonly RankedOffer[]): StoredOffer[] {
  return offers.map(({ bid, ...offer }) => ({ ...offer, signature: bid.signature, received: bid.received.toString() }));
}

/** Commits to the auction's valid offers: who bid what, with which signature, in rank order. */
export function offersHash(offers: readonly StoredOffer[]): string {
  // A part's amount is committed to beside its output; a whole bid's entry is as it always was.
  const entry = (o: StoredOffer) => [o.resolver, o.outputAmount, o.signature, ...(o.sellAmount ? [o.sellAmount] : [])];
  return keccak256(stringToBytes(JSON.stringify(offers.map(entry))));
}
