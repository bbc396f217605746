/**
 * The RFQ auction (docs/resolver-protocol.md): `AuctionHouse` runs a corridor's auctions behind its
 * `CorridorPort`; the quote's answer, its log fields and the write-behind entries it leaves for D1.
 * The folder's face: other folders import only what this file names (docs/architecture.md, "Folders").
 */

export { protocolFee, type QuoteGasCharge, quoteAmounts } from "./amounts";
export { BAND_FRESH_MS } from "./band-guard";
export { type Clock, realClock } from "./clock";
export { composeLegs } from "./compose-legs";
export type { AuctionLadders, AuctionNodes, AuctionStanding, CorridorPort, LadderBid } from "./corridor-port";
export { AuctionHouse } from "./house";
export { LiveBook } from "./live-book";
export { type AuctionChecks, auctionChecksOf, type CheckedPort } from "./pricing-checks";
export { auctionLogFields, type QuoteAnswer, type QuoteOutcome, quoteAnswer } from "./quote-outcome";
export type { AuctionReply, LiveAuctions } from "./replies";
export { type AuctionWrite, auctionStore, auctionWrites } from "./store";
