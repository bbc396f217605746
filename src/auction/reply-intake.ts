import { resolverKey } from "../ids";
import type { NodeSession } from "../nodes";
import type { BidFrame, DeclineFrame } from "../protocol";
import { quoteAmounts } from "./amounts";
import type { CorridorPort } from "./corridor-port";
import type { LiveAuction } from "./live-auction";
import { partRefusal, partRules } from "./parts";
import { claimError, claimMessage, rejectMessage, replyError } from "./reply-frames";
import { hasInventory } from "./rfq";

/**
 * A node's bid: counted once, checked (window, expiry, fees, inventory) and kept with its amounts if it
 * passes. Its signature is checked after the close, and only where it matters then: the winner's before
 * the taker's answer, the others' after it (docs/resolver-protocol.md, "When signatures are checked").
 */
export function receiveBid(
  port: CorridorPort,
  live: LiveAuction | undefined,
  node: NodeSession,
  frame: BidFrame,
  now: number,
): void {
  if (!live) {
    port.nodes.send(node.address, replyError(frame.rfqId, "unknown_rfq", `no live rfq ${frame.rfqId}`));
    return;
  }
  const address = resolverKey(node.address);
  const claim = live.auction.claim(address, now);
  if (claim !== "ok") {
    port.nodes.send(node.address, replyError(live.auction.rfqId, claimError[claim], claimMessage[claim]));
    if (claim === "late") recordLate(port, live);
    return;
  }
  const latencyMs = live.auction.latency(address, now);
  const outputAmount = BigInt(frame.outputAmount);
  const part = frame.sellAmount === undefined ? undefined : BigInt(frame.sellAmount);
  const sellAmount = part ?? live.terms.sellAmount;
  // A part's amounts are those of a fill of that part alone: what it leaves after the fees decides whether
  // it is valid, and ranks it; the quote's are its legs' together (src/auction/decide.ts).
  const amounts = quoteAmounts({ sellAmount, outputAmount, fee: live.terms.fee, gas: live.gas });
  const reason: keyof typeof rejectMessage | null =
    frame.expiresAt !== undefined && frame.expiresAt <= now
      ? "expired_bid"
      : ((part === undefined ? null : partRefusal(part, partRules(port, live))) ??
        (!amounts
          ? "below_fees"
          : !hasInventory(port, node, live.terms.buyToken, outputAmount)
            ? "insufficient_inventory"
            : null));
  if (reason || !amounts) {
    const code = reason ?? "below_fees";
    live.auction.reject(address);
    port.nodes.send(node.address, replyError(live.auction.rfqId, code, rejectMessage[code]));
    return;
  }
  live.auction.accept(address, {
    resolver: node.address,
    name: node.name,
    outputAmount,
    received: amounts.received,
    latencyMs,
    reliability: null,
    demoted: false,
    signature: frame.signature,
    amounts,
    ...(part === undefined || part === live.terms.sellAmount ? {} : { sellAmount: part }),
  });
}

/** A reply to a live rfq that failed the frame schema: it is the node's reply, and it is rejected. */
export function receiveMalformed(
  port: CorridorPort,
  live: LiveAuction | undefined,
  node: NodeSession,
  rfqId: string,
  message: string,
  now: number,
): void {
  const address = resolverKey(node.address);
  if (live?.auction.claim(address, now) === "ok") live.auction.reject(address);
  port.nodes.send(node.address, replyError(rfqId, "bad_frame", message));
}

/** A node's decline: counted once, as `declined` inside the window and `late` after it. */
export function receiveDecline(
  port: CorridorPort,
  live: LiveAuction | undefined,
  node: NodeSession,
  frame: DeclineFrame,
  now: number,
): void {
  if (!live) {
    port.nodes.send(node.address, replyError(frame.rfqId, "unknown_rfq", `no live rfq ${frame.rfqId}`));
    return;
  }
  const claim = live.auction.claim(resolverKey(node.address), now);
  if (claim === "ok") live.auction.decline();
  else if (claim === "late") recordLate(port, live);
  else port.nodes.send(node.address, replyError(live.auction.rfqId, claimError[claim], claimMessage[claim]));
}

/** A reply after the close: the stored quote's `replies` are brought up to date. */
function recordLate(port: CorridorPort, live: LiveAuction): void {
  const replies = live.auction.replies();
  port.waitUntil(live.stored.then((stored) => (stored ? port.store.storeReplies(live.quoteId, replies) : undefined)));
}
