import type { NodeSession } from "../nodes";
import { swapCharges } from "./amounts";
import { freshBand, type OutputBounds, outputBounds } from "./band-guard";
import type { AuctionNodes, CorridorPort } from "./corridor-port";
import { eligibleNodes, hasInventory, onlineNodes } from "./rfq";

/** The parts of the auction's port that its eligibility, inventory and fee checks read. */
export type CheckedPort = Pick<CorridorPort, "corridor" | "adapter" | "costs" | "config" | "band" | "assetOf"> & {
  nodes: Pick<AuctionNodes, "list" | "covers">;
};

/**
 * The auction's checks, for an indicative price (`GET /v1/prices`) to apply as an auction would: plain
 * functions of the corridor's parts, built before the prices, which the auction house is then given.
 */
export interface AuctionChecks {
  /** The nodes an rfq buying `buyToken` would go to now (docs/resolver-protocol.md, "Auctions"). */
  eligible(buyToken: string, now: number): NodeSession[];
  /** Whether the node's heartbeat and the relay's last on-chain read both show `amount` of `token`. */
  canDeliver(node: NodeSession, token: string, amount: bigint): boolean;
  /** The fees a quote of the pair would charge now. */
  charges(sellToken: string, buyToken: string, now: number): ReturnType<typeof swapCharges>;
  /** The outputs a bid for `sellAmount` may win within by the fresh band's guard now; null when none steers. */
  bounds(sellToken: string, buyToken: string, sellAmount: bigint, now: number): OutputBounds | null;
}

export function auctionChecksOf(port: CheckedPort): AuctionChecks {
  return {
    eligible: (buyToken, now) => eligibleNodes(port, onlineNodes(port.nodes.list(), now), buyToken),
    canDeliver: (node, token, amount) => hasInventory(port, node, token, amount),
    charges: (sellToken, buyToken, now) =>
      swapCharges(port, { kind: "rfq", sellToken, buyToken, recipient: null }, now),
    bounds: (sellToken, buyToken, sellAmount, now) =>
      outputBounds({
        band: freshBand(port.band.current(), now),
        sellAsset: port.assetOf(sellToken),
        buyAsset: port.assetOf(buyToken),
        sellAmount,
        sellDecimals: port.adapter.token(sellToken)?.decimals ?? 0,
        buyDecimals: port.adapter.token(buyToken)?.decimals ?? 0,
        bandGuardBps: port.config.bandGuardBps,
      }),
  };
}
