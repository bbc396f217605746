/**
 * Quotes outside the auction (docs/api.md): the corridor's admission of a request, read-through, lists,
 * a quote or execution as of now, what a taker signs to prove or cancel.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { QuoteAdmission, type QuoteAsk } from "./admission";
export { executionAsOfNow, quoteAsOfNow } from "./as-of-now";
export { CorridorDesk, type GasFeeNow } from "./corridor-desk";
export { quotePage } from "./list";
export { cancelQuoteMessage, TAKER_PROOF_MAX_AGE_SECONDS, takerProofMessage } from "./messages";
export { StoredProofBook, type TakerProofSeen } from "./proof-memory";
export { executionThrough, type ObjectReadGate, quoteThrough, readThrough, writeThrough } from "./read-through";
export { verifySignedCancel } from "./signed-cancel";
export { addressIssues, checkSwapTerms, refuseBelowMinimum, type SwapTerms, slippageOf } from "./swap-terms";
