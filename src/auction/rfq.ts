import type { ChainAdapter, Corridor, FeeCharge, GasCharge, RfqTerms } from "../chains";
import { isFresh, type NodeSession } from "../nodes";
import type { RelayFrame } from "../protocol";
import type { Band } from "../schemas";
import type { QuoteInput } from "../types";
import { type OutputBounds, outputBounds } from "./band-guard";
import type { AuctionNodes, CorridorPort } from "./corridor-port";

/** Grace between a quote's expiry and the on-chain deadline, so a fill broadcast just before expiry still lands. */
const DEADLINE_GRACE_SECONDS = 60;

/** What an rfq asks for, and what its bids sign and are checked against. `expiresAt` is the quote's (ms). */
export function rfqTerms(
  corridor: Corridor,
  input: QuoteInput,
  rfqId: string,
  quoteId: string,
  expiresAt: number,
  gas: GasCharge,
  fee: FeeCharge,
): RfqTerms {
  return {
    corridor: corridor.key,
    rfqId,
    quoteId,
    chain: corridor.chain,
    taker: input.taker,
    recipient: input.recipient,
    sellToken: input.sellToken,
    buyToken: input.buyToken,
    sellAmount: BigInt(input.sellAmount),
    deadline: Math.floor(expiresAt / 1000) + DEADLINE_GRACE_SECONDS,
    gasFeeToken: gas.token,
    slippageBps: input.slippageBps ?? 0,
    fee,
    ...(input.limit ? { limit: input.limit } : {}),
  };
}

/** The nodes whose last heartbeat is fresh: the corridor's nodes online (docs/resolver-protocol.md, "Staying eligible"). */
export function onlineNodes(nodes: readonly NodeSession[], now: number): NodeSession[] {
  return nodes.filter((n) => isFresh(n.lastHeartbeat, now));
}

/** What the inventory checks read: the corridor, its adapter, and the nodes' on-chain reads. */
export type InventoryPort = Pick<CorridorPort, "corridor" | "adapter"> & { nodes: Pick<AuctionNodes, "covers"> };

/**
 * The online nodes an rfq buying `buyToken` goes to (docs/resolver-protocol.md, "Auctions"): `quoting`,
 * with a key that signs bids on this chain, and with inventory of the buy token.
 */
export function eligibleNodes(port: InventoryPort, online: readonly NodeSession[], buyToken: string): NodeSession[] {
  return online.filter(
    (n) => n.state === "quoting" && port.adapter.bidKey(n) !== null && hasInventory(port, n, buyToken, 1n),
  );
}

/**
 * Whether the node's last heartbeat shows `atLeast` of `token` in both balance and allowance, and the
 * relay's last on-chain read of it does too (docs/resolver-protocol.md, "Inventory checked on chain").
 */
export function hasInventory(port: InventoryPort, node: NodeSession, token: string, atLeast: bigint): boolean {
  const chainId = port.corridor.chain.chainId;
  const entry = node.inventory.find((i) => i.chainId === chainId && port.adapter.sameAddress(i.token, token));
  return (
    entry !== undefined &&
    BigInt(entry.balance) >= atLeast &&
    BigInt(entry.allowance) >= atLeast &&
    port.nodes.covers(node.address, token, atLeast)
  );
}

/** The rfq frame every eligible node is sent (docs/resolver-protocol.md, "Auctions"). */
export function rfqFrameFor(
  adapter: ChainAdapter,
  terms: RfqTerms,
  input: QuoteInput,
  gas: GasCharge,
  band: Band | null,
): RelayFrame {
  return {
    type: "rfq",
    rfqId: terms.rfqId,
    quoteId: terms.quoteId,
    chainId: terms.chain.chainId,
    sellToken: input.sellToken,
    buyToken: input.buyToken,
    sellAmount: input.sellAmount,
    taker: input.taker,
    recipient: input.recipient,
    deadline: terms.deadline,
    fee: { token: terms.fee.token, bps: terms.fee.bps },
    gasFee: { token: gas.token, amount: gas.amount.toString() },
    band,
    toSign: adapter.bidToSign(terms),
    ...(input.limit
      ? {
          limit: {
            limitOrderId: input.limit.limitOrderId,
            minOut: input.limit.minOut,
            limitAmount: input.limit.limitAmount,
          },
        }
      : {}),
  };
}

/** The outputs the rfq's bids may win within, by the band it carried (docs/api.md, "Ranking and steering"). */
export function rfqBounds(port: CorridorPort, terms: RfqTerms, band: Band | null): OutputBounds | null {
  const { adapter } = port;
  return outputBounds({
    band,
    sellAsset: port.assetOf(terms.sellToken),
    buyAsset: port.assetOf(terms.buyToken),
    sellAmount: terms.sellAmount,
    sellDecimals: adapter.token(terms.sellToken)?.decimals ?? 0,
    buyDecimals: adapter.token(terms.buyToken)?.decimals ?? 0,
    bandGuardBps: port.config.bandGuardBps,
  });
}
