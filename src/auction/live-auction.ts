import type { RfqTerms } from "../chains";
import { resolverKey } from "../ids";
import type { NodeSession } from "../nodes";
import type { AuctionCounts } from "../resolvers";
import type { Band } from "../schemas";
import type { QuoteAmounts } from "../types";
import type { QuoteGasCharge } from "./amounts";
import { Auction } from "./auction";
import type { ValidBid } from "./rank";

/**
 * A bid that passed the checks made on arrival, with the amounts of its output (docs/api.md, "Amounts"):
 * computed there once, to check that it covers the fees, and what the winner's quote is built from.
 */
export interface AcceptedBid extends ValidBid {
  amounts: QuoteAmounts;
}

/** An auction open or recently closed: its reply book, and what its replies are checked against. */
export class LiveAuction {
  readonly auction: Auction<AcceptedBid>;
  readonly quoteId: string;
  /** The asked nodes, by lower-case address. */
  readonly nodes: ReadonlyMap<string, NodeSession>;
  /** Settles once the quote is stored (true) or there is none (false), so late replies update a row that exists. */
  readonly stored: Promise<boolean>;
  private settleStored: (ok: boolean) => void = () => {};

  /**
   * An auction of the `eligible` nodes, asked now (their rfqs go out next), open for `windowMs` or until
   * the `awaited` of them have answered (all of them when none is).
   */
  constructor(
    readonly terms: RfqTerms,
    readonly gas: QuoteGasCharge,
    /** The oracle band the rfq carries, if fresh. */
    readonly band: Band | null,
    /** When the quote expires (ms). */
    readonly expiresAt: number,
    /** Settles when the chain-state read started with the auction (if one was due) does. */
    readonly fresh: Promise<void>,
    eligible: readonly NodeSession[],
    windowMs: number,
    awaited: ReadonlySet<string>,
    /** When the rfqs go out (ms). */
    sentAt: number,
  ) {
    const asked = new Map(eligible.map((n) => [resolverKey(n.address), sentAt]));
    this.auction = new Auction<AcceptedBid>(terms.rfqId, asked, windowMs, awaited);
    this.quoteId = terms.quoteId;
    this.nodes = new Map(eligible.map((n) => [resolverKey(n.address), n]));
    this.stored = new Promise((resolve) => {
      this.settleStored = resolve;
    });
  }

  /**
   * What the auction tells the resolvers' reliability (src/resolvers/reliability.ts): its winner, the
   * quote's resolver, and of a fill of several makers every leg's resolver, each of whom won.
   */
  counts(
    winner: { offer: { resolver: string }; legs?: readonly { resolver: string }[] | undefined } | null,
    now: number,
  ): AuctionCounts {
    const { auction } = this;
    const legs = winner?.legs?.map((l) => l.resolver);
    return {
      asked: [...auction.asked.keys()],
      answered: new Set(auction.answered),
      winner: winner?.offer.resolver ?? null,
      ...(legs ? { legs } : {}),
      replyMs: auction.replyMs,
      at: new Date(now).toISOString(),
    };
  }

  markStored(ok: boolean): void {
    this.settleStored(ok);
  }
}
