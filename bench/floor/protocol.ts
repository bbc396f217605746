/**
 * What the floor's Worker, its resolvers and the bench exchange (bench/README.md, "The floor"):
 * plain JSON, amounts as decimal strings read as bigint.
 */

/** Sent once, serialized once, to every connected resolver socket of the corridor. */
export interface FloorRfq {
  type: "rfq";
  id: string;
  /** The taker's request as it came, untouched. */
  request: unknown;
}

/** A resolver's reply to an rfq. */
export interface FloorBid {
  type: "bid";
  id: string;
  outputAmount: string;
}

/** `POST /quote`'s answer: the best reply and, per reply, how long after its rfq it came (the DO's clock). */
export interface FloorQuote {
  outputAmount: string | null;
  offers: { latencyMs: number }[];
}

/** `POST /execute`'s body: the simulation's call and the signed transaction, both made by the bench. */
export interface FloorSubmission {
  call: { from: string; to: string; data: string };
  raw: string;
}

/** `POST /execute`'s answer. */
export interface FloorSubmitted {
  txHash: string;
}

/**
 * The required-work floor's rfq (bench/floor/required-auction.ts): the taker's request and what a bid
 * signs, the relay's own EIP-712 commitment with `outputAmount` left for the resolver to fill.
 */
export interface RequiredRfq {
  type: "rfq";
  id: string;
  request: unknown;
  toSign: { domain: unknown; types: unknown; primaryType: string; message: Record<string, unknown> };
}

/** A bid to the required-work floor: signed over the rfq's `toSign` with its `outputAmount`. */
export interface RequiredBid extends FloorBid {
  signature: string;
}
