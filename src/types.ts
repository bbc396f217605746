/**
 * The types every layer shares: what the Worker hands a corridor (a quote request, a limit order's
 * round) and a quote's amounts, which the auction computes and the chains build settlements from. A
 * leaf: it imports nothing.
 */

/** A quote's amounts in base units (docs/api.md, "Amounts"). */
export interface QuoteAmounts {
  /** What the winning resolver gives. */
  outputAmount: bigint;
  /** The protocol fee: taken from the output in the buy token, paid by the taker on top in the sell token. */
  fee: bigint;
  gasFee: bigint;
  /** What the recipient gets. */
  received: bigint;
  /** What the taker pays: the sell amount, plus each fee charged in the sell token. */
  takerPays: bigint;
  /** What the resolver receives of the sell token. */
  proceeds: bigint;
}

/**
 * A limit order's round (docs/limit-orders.md, "The keeper's job"): the order the taker signed, as JSON,
 * with its Permit2 nonce and the least the recipient must receive.
 */
export interface LimitRound {
  limitOrderId: string;
  /** The signed `LimitAuth` (src/chains/evm/limit-typed-data.ts), amounts as decimal strings. */
  order: Record<string, string>;
  nonce: string;
  minOut: string;
  /** The taker's price, before fees: a bid below it never wins the round (docs/limit-orders.md, "The keeper's job"). */
  limitAmount: string;
}

/** A quote request as the Worker hands it to the corridor, already validated. */
export interface QuoteInput {
  chainId: number;
  sellToken: string;
  buyToken: string;
  sellAmount: string;
  taker: string;
  recipient: string;
  /** The taker's tolerance below `received`, in basis points (docs/settlement.md, "When the winner fades"); 0 when absent. */
  slippageBps?: number;
  /** When the request reached the relay (ms), for the quote's latency. */
  requestedAt: number;
  /** Present when the keeper auctions a limit order: the winner signs a fill of the order. */
  limit?: LimitRound;
  /** The HTTP request's id, for the corridor's log lines (docs/operations.md, "Logs"). */
  requestId?: string;
}

/** The two kinds of fill, whose gas differs: an RFQ fill through the executor, a limit fill through the reactor. */
export type FillKind = "rfq" | "limit";
