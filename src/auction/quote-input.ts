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
}
