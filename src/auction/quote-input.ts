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
}

/** A quote request as the Worker hands it to the corridor, already validated. */
export interface QuoteInput {
  chainId: number;
  sellToken: string;
  buyToken: string;
  sellAmount: string;
  taker: string;
  recipient: string;
  /** When the request reached the relay (ms), for the quote's latency. */
  requestedAt: number;
  /** Present when the keeper auctions a limit order: the winner signs a fill of the order. */
  limit?: LimitRound;
  /** The HTTP request's id, for the corridor's log lines (docs/operations.md, "Logs"). */
  requestId?: string;
}
