import type { ChainAdapter, Corridor } from "../chains";
import type { RelayConfig } from "../config";
import type { CorridorCosts } from "../costs";
import type { NodeSession } from "../nodes";
import type { RelayFrame } from "../protocol";
import type { Standing } from "../resolvers";
import type { Band } from "../schemas";
import type { AuctionStore } from "./store";

/** The corridor's nodes as its auctions reach them (src/nodes/corridor-nodes.ts, `CorridorNodes`). */
export interface AuctionNodes {
  /** The corridor's authenticated nodes. */
  list(): NodeSession[];
  /** Sends a frame to the node with this address, if it is connected. */
  send(address: string, frame: RelayFrame): void;
  /** Sends one frame to each of these nodes that is connected, serialized once (an auction's rfq). */
  sendToEach(addresses: readonly string[], frame: RelayFrame): void;
  /**
   * Whether the relay's last on-chain read of the node shows `atLeast` of `token`
   * (docs/resolver-protocol.md, "Inventory checked on chain").
   */
  covers(address: string, token: string, atLeast: bigint): boolean;
  /** When the relay's last successful on-chain read of the node started (ms), or null before one. */
  readAt(address: string): number | null;
}

/** The resolvers' standing as auctions read and change it (src/resolvers/standing.ts, `CorridorStanding`). */
export interface AuctionStanding {
  /** Who is demoted now and each resolver's reliability, read at most every 10 s. */
  get(): Promise<Standing>;
  /** A strike for a node that failed its win (docs/reliability.md); `event` makes it count once. */
  strike(address: string, event: string, why: string, quoteId: string): Promise<void>;
}

/** The nodes' price ladders as auctions measure bids against them (src/levels/corridor-prices.ts, `CorridorPrices`). */
export interface AuctionLadders {
  /** What the node's fresh price ladder pays for `sellAmount`, or null (docs/resolver-protocol.md, "Price ladders"). */
  ladderAt(address: string, sellToken: string, buyToken: string, sellAmount: bigint, now: number): bigint | null;
  /** An auction's samples: each asked node whose ladder covered the amount, its bid against that ladder's value. */
  sampled(bids: readonly LadderBid[], now: number): void;
}

/** What the auction needs from its corridor object: the corridor's facts and its parts, each as the auction uses it. */
export interface CorridorPort {
  config: RelayConfig;
  corridor: Corridor;
  adapter: ChainAdapter;
  /** The corridor's latest oracle band (src/oracle/band-subscription.ts). */
  band: { current(): Band | null };
  /** The band assets (e.g. USD, NGN) the corridor's tokens track, for the band guard. */
  assetOf(token: string): string | null;
  nodes: AuctionNodes;
  standing: AuctionStanding;
  ladders: AuctionLadders;
  store: AuctionStore;
  /** What the corridor's fills cost: the gas fee and the protocol fee's bps (src/costs/corridor-costs.ts). */
  costs: CorridorCosts;
  waitUntil(p: Promise<unknown>): void;
}

/**
 * One node's bid against the ladder it streamed when the rfq went out (docs/reliability.md, "Honest levels");
 * `outputAmount` 0 when it honoured nothing (src/auction/ladder-samples.ts).
 */
export interface LadderBid {
  resolver: string;
  ladderOutput: bigint;
  outputAmount: bigint;
}
