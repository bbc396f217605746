import type { RfqTerms } from "../chains";
import type { Clock } from "./clock";
import type { AuctionNodes, CorridorPort } from "./corridor-port";
import type { TakerHolds } from "./taker-holds";

/**
 * The auction's port as one taker's auction sees its nodes (docs/resolver-protocol.md, "Inventory held
 * for a taker's open quotes"): `covers` asks the last chain read for what that taker's own open quotes
 * hold on the node on top of the amount, so the node is asked (`eligibleNodes`), its bid accepted
 * (`receiveBid`) and its win held (`holdWin`) for the taker only up to what is free of them. Other
 * takers' quotes hold nothing here: a flood of quotes that are never submitted leaves every other
 * taker's share of the node's inventory whole (docs/security.md, "Two quotes drain one balance").
 */
export function forTaker(port: CorridorPort, holds: TakerHolds, taker: string, clock: Clock): CorridorPort {
  const { nodes } = port;
  const held = (address: string, token: string) =>
    holds.held(taker, address, token, clock.now(), nodes.readAt(address));
  const free: AuctionNodes = {
    list: () => nodes.list(),
    send: (address, frame) => nodes.send(address, frame),
    sendToEach: (addresses, frame) => nodes.sendToEach(addresses, frame),
    readAt: (address) => nodes.readAt(address),
    covers: (address, token, atLeast) => nodes.covers(address, token, atLeast + held(address, token)),
  };
  const ladders: CorridorPort["ladders"] = {
    // A ladder's value the node holds but this taker's open quotes hold already is no promise it could keep
    // for this taker: not sampled against its bid (docs/reliability.md, "Honest levels"). One above what it holds is.
    ladderAt: (address, sellToken, buyToken, sellAmount, now) => {
      const out = port.ladders.ladderAt(address, sellToken, buyToken, sellAmount, now);
      const heldForTaker = out !== null && nodes.covers(address, buyToken, out) && !free.covers(address, buyToken, out);
      return heldForTaker ? null : out;
    },
    sampled: (bids, now) => port.ladders.sampled(bids, now),
  };
  return { ...port, nodes: free, ladders };
}

/**
 * Deciding an auction's hold (src/auction/decide.ts, `DecideContext.hold`): the offer about to win holds
 * its output for the quote's taker against what its resolver has free of that taker's other open quotes,
 * if that covers it, checked and held in one turn, so two auctions of one taker deciding at once cannot
 * both count on the same balance; an offer whose resolver then does not sign lets go. A hold lasts until
 * the quote's on-chain deadline at the latest. Null: not covered.
 */
export function holdWin(
  port: Pick<CorridorPort, "nodes">,
  holds: TakerHolds,
  terms: RfqTerms,
  resolver: string,
  amount: bigint,
  clock: Clock,
): (() => void) | null {
  const { quoteId, taker, buyToken: token, deadline } = terms;
  const now = clock.now();
  const held = holds.held(taker, resolver, token, now, port.nodes.readAt(resolver));
  if (!port.nodes.covers(resolver, token, amount + held)) return null;
  holds.hold({ quoteId, taker, resolver, token, amount, until: deadline * 1000 }, now);
  return () => holds.end(quoteId);
}
