import type { RfqTerms } from "../chains";
import { resolverKey } from "../ids";
import type { Clock } from "./clock";
import type { AuctionNodes, CorridorPort } from "./corridor-port";
import { type HoldStore, InventoryHolds } from "./holds";

export type { HoldStore, InventoryHolds } from "./holds";

/**
 * The auction's port with its nodes' inventory net of holds (docs/resolver-protocol.md, "Inventory held
 * for open quotes"): `covers` asks the last chain read for what the node's open quotes hold of the token
 * on top of the amount, so a node is asked (`eligibleNodes`), its bid accepted (`receiveBid`) and its win
 * held (`holdWin`) only up to what is free.
 */
export function withHolds(
  port: CorridorPort,
  store: HoldStore,
  clock: Clock,
): { port: CorridorPort; holds: InventoryHolds } {
  const holds = new InventoryHolds(store, port.adapter.sameAddress);
  const { nodes } = port;
  const free: AuctionNodes = {
    list: () => nodes.list(),
    send: (address, frame) => nodes.send(address, frame),
    sendToEach: (addresses, frame) => nodes.sendToEach(addresses, frame),
    readAt: (address) => nodes.readAt(address),
    covers: (address, token, atLeast) =>
      nodes.covers(address, token, atLeast + holds.held(address, token, clock.now(), nodes.readAt(address))),
  };
  const ladders: CorridorPort["ladders"] = {
    // A ladder's value that the node holds but its open quotes hold for others is no promise it could keep
    // now: not sampled against its bid (docs/reliability.md, "Honest levels"). One above what it holds is.
    ladderAt: (address, sellToken, buyToken, sellAmount, now) => {
      const out = port.ladders.ladderAt(address, sellToken, buyToken, sellAmount, now);
      const heldForOthers =
        out !== null && nodes.covers(address, buyToken, out) && !free.covers(address, buyToken, out);
      return heldForOthers ? null : out;
    },
    sampled: (bids, now) => port.ladders.sampled(bids, now),
  };
  return { port: { ...port, nodes: free, ladders }, holds };
}

/**
 * Deciding an auction's hold (src/auction/decide.ts, `DecideContext.hold`): the offer about to win holds
 * its output against what its resolver has free, if that covers it, checked and held in one turn, so two
 * auctions deciding at once cannot both count on the same balance; an offer whose resolver then does not
 * sign lets go. A hold lasts until the quote's on-chain deadline at the latest. Null: not covered.
 */
export function holdWin(
  port: Pick<CorridorPort, "nodes">,
  holds: InventoryHolds,
  terms: RfqTerms,
  resolver: string,
  amount: bigint,
  clock: Clock,
): (() => void) | null {
  if (!port.nodes.covers(resolver, terms.buyToken, amount)) return null;
  const { quoteId, buyToken: token, deadline } = terms;
  holds.hold({ quoteId, resolver: resolverKey(resolver), token, amount, until: deadline * 1000 }, clock.now());
  return () => holds.end(quoteId);
}
