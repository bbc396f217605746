import type { ChainAdapter, Corridor } from "../chains";
import type { RelayConfig } from "../config";
import type { CorridorCosts } from "../costs";
import type { NodeSession } from "../nodes";
import type { RelayFrame } from "../protocol";
import type { Standing } from "../resolvers";
import type { Band } from "../schemas";
import type { AuctionStore } from "./store";

/** What the auction needs from its corridor object; built once per object. */
export interface CorridorPort {
  config: RelayConfig;
  corridor: Corridor;
  adapter: ChainAdapter;
  /** The corridor's latest oracle band, or null. */
  band(): Band | null;
  /** The band assets (e.g. USD, NGN) the corridor's tokens track, for the band guard. */
  assetOf(token: string): string | null;
  /** The corridor's authenticated nodes. */
  nodes(): NodeSession[];
  /** Sends a frame to the node with this address, if it is connected. */
  send(address: string, frame: RelayFrame): void;
  /** Sends one frame to each of these nodes that is connected, serialized once (an auction's rfq). */
  sendToEach(addresses: readonly string[], frame: RelayFrame): void;
  /**
   * Whether the relay's last on-chain read of the node shows `atLeast` of `token`
   * (docs/resolver-protocol.md, "Inventory checked on chain").
   */
  chainCovers(address: string, token: string, atLeast: bigint): boolean;
  /** Who is demoted now and each resolver's reliability, read at most every 10 s. */
  standing(): Promise<Standing>;
  store: AuctionStore;
  /** What the corridor's fills cost: the gas fee and the protocol fee's bps (src/costs/corridor-costs.ts). */
  costs: CorridorCosts;
  /** A strike for a node that failed its win (docs/reliability.md); `event` makes it count once. */
  strike(address: string, event: string, why: string, quoteId: string): Promise<void>;
  waitUntil(p: Promise<unknown>): void;
  /** What the node's fresh price ladder pays for `sellAmount`, or null (docs/resolver-protocol.md, "Price ladders"). */
  ladderAt(address: string, sellToken: string, buyToken: string, sellAmount: bigint, now: number): bigint | null;
  /** An auction's samples: each asked node whose ladder covered the amount, its bid against that ladder's value. */
  ladderBids(quoteId: string, bids: readonly LadderBid[]): void;
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
