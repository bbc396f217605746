/**
 * Text a taker signs to prove it asked for a quote (`requireTakerProof`); values exactly as sent, the
 * recipient being the taker when the request names none. It names the recipient, so a proof seen in transit
 * cannot buy a quote paying someone else (docs/security.md).
 */
export const takerProofMessage = (p: {
  chainId: number;
  taker: string;
  recipient: string;
  sellToken: string;
  buyToken: string;
  sellAmount: string;
  timestamp: number;
}) => `relay-quote|${p.chainId}|${p.taker}|${p.recipient}|${p.sellToken}|${p.buyToken}|${p.sellAmount}|${p.timestamp}`;

/** Text a taker signs to cancel an open quote. */
export const cancelQuoteMessage = (chainId: number, quoteId: string) => `relay-cancel-quote|${chainId}|${quoteId}`;

/** How far a taker proof's timestamp may be from now, either way. */
export const TAKER_PROOF_MAX_AGE_SECONDS = 60;
