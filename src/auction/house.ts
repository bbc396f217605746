import { keccak256, stringToBytes } from "viem";
import type { RfqTerms } from "../chains/adapter";
import { corridorTag } from "../corridors";
import type { QuoteRow } from "../db/quotes";
import { type Refusal, refuse } from "../errors";
import { newId } from "../ids";
import { log } from "../log";
import { isFresh, type NodeSession } from "../nodes/nodes";
import type { BidFrame, DeclineFrame, InventoryEntry, RelayFrame, SignedFrame } from "../protocol/frames";
import type { Replies } from "../schemas/quote";
import { type GasCharge, gasChargeFor, type QuoteAmounts, quoteAmounts } from "./amounts";
import { Auction } from "./auction";
import { freshBand, outputBounds } from "./band-guard";
import type { CorridorPort } from "./corridor-port";
import { decideWinner } from "./decide";
import type { QuoteInput } from "./quote-input";
import type { QuoteOutcome } from "./quote-outcome";
import { type RankedOffer, rankBids, withoutOffers } from "./rank";
import type { AuctionCounts, StoredOffer } from "./store";
import { WinnerSignatures } from "./winner-signatures";

/** How long a closed auction is remembered, so that its late replies are counted on the quote. */
const REMEMBER_CLOSED_MS = 30_000;
/** Grace between a quote's expiry and the on-chain deadline, so a fill broadcast just before expiry still lands. */
const DEADLINE_GRACE_SECONDS = 60;

interface Live {
  auction: Auction;
  terms: RfqTerms;
  gas: GasCharge;
  quoteId: string;
  nodes: Map<string, NodeSession>;
  /** Settles once the quote is stored, so late replies update a row that exists. */
  stored: Promise<boolean>;
  /** Settles when the chain-state read started with the auction (if one was due) does. */
  fresh: Promise<void>;
}

const lower = (a: string) => a.toLowerCase();

/** A corridor's auctions: asks its nodes, checks their replies, ranks, and stores the winning quote. */
export class AuctionHouse {
  private readonly live = new Map<string, Live>();
  private readonly signatures: WinnerSignatures;

  /** The corridor's tag, the first digits of its quote ids (src/corridors.ts, `corridorTag`). */
  private readonly tag: string;

  constructor(private readonly port: CorridorPort) {
    this.signatures = new WinnerSignatures((address, frame) => port.send(address, frame));
    this.tag = corridorTag(port.corridor.key);
  }

  /** One auction for a quote request (the taker's in-flight limit is counted by the route, across corridors). */
  async requestQuote(input: QuoteInput): Promise<QuoteOutcome> {
    const { port } = this;
    const { config, corridor, adapter } = port;
    const chain = corridor.chain;
    const now = Date.now();
    const band = freshBand(port.band(), now);
    // The id names the corridor, so a read that misses the quote in D1 finds it here (src/quotes/read-through.ts).
    const quoteId = newId("q", this.tag);
    const rfqId = newId("rfq");
    const expiresAt = now + config.quoteTtlSeconds * 1000;
    const sellAmount = BigInt(input.sellAmount);
    const gas = gasChargeFor(chain.gasFee, input.sellToken, input.buyToken, adapter.sameAddress);
    const terms: RfqTerms = {
      corridor: corridor.key,
      rfqId,
      quoteId,
      chain,
      taker: input.taker,
      recipient: input.recipient,
      sellToken: input.sellToken,
      buyToken: input.buyToken,
      sellAmount,
      deadline: Math.floor(expiresAt / 1000) + DEADLINE_GRACE_SECONDS,
      gasFeeToken: gas.token,
      ...(input.limit ? { limit: input.limit } : {}),
    };
    const fresh = this.keepFresh(now);
    const standingPromise = port.standing();
    const online = port.nodes().filter((n) => isFresh(n.lastHeartbeat, now));
    const eligible = online.filter(
      (n) =>
        n.state === "quoting" &&
        adapter.bidKey(n) !== null &&
        this.holds(n, input.buyToken, 1n) &&
        port.chainCovers(n.address, input.buyToken, 1n),
    );
    const emptyReplies: Replies = { valid: 0, rejected: 0, declined: 0, noReply: 0, late: 0 };
    if (eligible.length === 0) return noOffers(emptyReplies, online.length, "No resolver can quote this pair now.");

    const sentAt = Date.now();
    const asked = new Map(eligible.map((n) => [lower(n.address), sentAt]));
    const auction = new Auction(rfqId, asked, config.rfqWindowMs);
    let markStored: (ok: boolean) => void = () => {};
    const live: Live = {
      auction,
      terms,
      gas,
      quoteId,
      nodes: new Map(eligible.map((n) => [lower(n.address), n])),
      stored: new Promise((resolve) => {
        markStored = resolve;
      }),
      fresh,
    };
    this.live.set(rfqId, live);
    const feeBps = chain.fee.bps;
    const frame: RelayFrame = {
      type: "rfq",
      rfqId,
      quoteId,
      chainId: chain.chainId,
      sellToken: input.sellToken,
      buyToken: input.buyToken,
      sellAmount: input.sellAmount,
      taker: input.taker,
      recipient: input.recipient,
      deadline: terms.deadline,
      fee: { token: input.buyToken, bps: feeBps },
      gasFee: { token: gas.token, amount: gas.amount.toString() },
      band,
      toSign: adapter.bidToSign(terms),
      ...(input.limit ? { limit: { limitOrderId: input.limit.limitOrderId, minOut: input.limit.minOut } } : {}),
    };
    const askedAt = performance.now();
    for (const n of eligible) port.send(n.address, frame);
    const timer = setTimeout(() => auction.close(), config.rfqWindowMs);
    await auction.done;
    clearTimeout(timer);
    const closedAt = performance.now();
    setTimeout(() => this.live.delete(rfqId), REMEMBER_CLOSED_MS);

    const standing = await standingPromise;
    const bounds = outputBounds({
      band,
      sellAsset: port.assetOf(input.sellToken),
      buyAsset: port.assetOf(input.buyToken),
      sellAmount,
      sellDecimals: adapter.token(input.sellToken)?.decimals ?? 0,
      buyDecimals: adapter.token(input.buyToken)?.decimals ?? 0,
      bandGuardBps: config.bandGuardBps,
    });
    const bids = auction.bids.map((b) => ({
      ...b,
      demoted: standing.demoted.has(lower(b.resolver)),
      reliability: standing.reliability.get(lower(b.resolver)) ?? null,
    }));
    const ranking = rankBids(bids, { bandGuardBps: config.bandGuardBps, bounds });
    const answered = new Set(auction.answered);
    /** Resolvers whose bid signature has been checked, so that the check after the answer skips them. */
    const checked = new Set<string>();
    const decision = await decideWinner(
      {
        signing: adapter.signing,
        terms,
        nodes: live.nodes,
        fresh: live.fresh,
        amountsOf: (outputAmount) => this.amountsOf(live, outputAmount),
        verifyBid: (offer) => {
          checked.add(offer.resolver);
          return this.verifyBid(live, offer);
        },
        askToSign: (address, transaction) => this.signatures.ask(rfqId, address, transaction),
        strike: (address, why) => port.waitUntil(port.strike(address, rfqId, `won ${quoteId} and ${why}`)),
      },
      ranking.offers,
    );
    for (const offer of decision.forged) port.waitUntil(this.disqualify(live, offer));
    const rankedAt = performance.now();
    const replies = auction.replies();
    this.sendResults(live, decision.offers);
    const winner = decision.winner?.offer;
    const counts: AuctionCounts = {
      asked: [...auction.asked.keys()],
      answered,
      winner: winner?.resolver ?? null,
      replyMs: auction.replyMs,
      at: new Date().toISOString(),
    };
    if (!decision.winner || !winner) {
      port.waitUntil(
        port.store.count(counts).catch((e: unknown) => log.error("auction_count_failed", { error: String(e) })),
      );
      this.checkAfterAnswer(live, decision.offers, checked, false);
      markStored(false);
      if (decision.belowLimit !== undefined) {
        return refuse(404, "below_limit", "No bid gives the recipient the order's minimum.", {
          replies,
          bestReceived: decision.belowLimit.toString(),
        });
      }
      const why = decision.unbuildable
        ? "The chain's RPC is not answering, so no settlement can be built now."
        : "No resolver offered a price that could win.";
      return noOffers(replies, online.length, why);
    }

    const { amounts, signing, winnerSignature } = decision.winner;
    const quotedAt = Date.now();
    const offers = storedOffers(decision.offers);
    const quote: QuoteRow = {
      quoteId,
      rfqId,
      chainId: chain.chainId,
      status: "quoted",
      final: false,
      taker: input.taker,
      recipient: input.recipient,
      sellToken: input.sellToken,
      buyToken: input.buyToken,
      sellAmount: input.sellAmount,
      received: amounts.received.toString(),
      fee: { token: input.buyToken, amount: amounts.fee.toString() },
      gasFee: { token: gas.token, amount: gas.amount.toString() },
      takerPays: amounts.takerPays.toString(),
      proceeds: amounts.proceeds.toString(),
      offersHash: offersHash(offers),
      band,
      quotedAt: new Date(quotedAt).toISOString(),
      expiresAt: new Date(expiresAt).toISOString(),
      resolver: { address: winner.resolver, name: winner.name },
      replies,
      steering: ranking.steering,
      settlement: null,
      signing: {
        ...signing,
        outputAmount: amounts.outputAmount.toString(),
        resolverSignature: winner.bid.signature,
        deadline: terms.deadline,
        ...(winnerSignature === null ? {} : { winnerSignature }),
      },
    };
    const timeline = [
      { at: new Date(input.requestedAt).toISOString(), event: "requested" as const, detail: null },
      { at: quote.quotedAt, event: "quoted" as const, detail: { latencyMs: quotedAt - input.requestedAt } },
    ];
    const storingAt = performance.now();
    try {
      await port.store.store(quote, offers, timeline, counts);
    } finally {
      markStored(true);
    }
    const storedAt = performance.now();
    this.checkAfterAnswer(live, decision.offers, checked, true);
    const { signing: _signing, ...record } = quote;
    return {
      kind: "quoted",
      quote: {
        ...record,
        offers: offers.map(({ signature: _s, ...o }) => o),
        executions: [],
        fills: [],
        timeline,
      },
      signing,
      timings: { auctionMs: closedAt - askedAt, rankingMs: rankedAt - closedAt, storageMs: storedAt - storingAt },
    };
  }

  /**
   * The offers whose signatures were not checked before the answer, checked once the taker has it: a
   * forged one is rejected as on the quote's path, and a stored quote corrected to the offers that remain.
   */
  private checkAfterAnswer(live: Live, offers: RankedOffer[], checked: ReadonlySet<string>, stored: boolean): void {
    const unchecked = offers.filter((o) => !checked.has(o.resolver));
    if (unchecked.length === 0) return;
    const check = async () => {
      const forged = unchecked.filter((o) => !this.verifyBid(live, o));
      if (forged.length === 0) return;
      const strikes = forged.map((o) => this.disqualify(live, o));
      if (!stored) {
        await Promise.all(strikes);
        return;
      }
      const kept = storedOffers(withoutOffers(offers, forged));
      await Promise.all([
        ...strikes,
        this.port.store.correctOffers(live.quoteId, kept, live.auction.replies(), offersHash(kept)),
      ]);
    };
    this.port.waitUntil(
      afterAnswer()
        .then(check)
        .catch((e: unknown) => log.error("correction_failed", { quoteId: live.quoteId, error: String(e) })),
    );
  }

  /** Whether the offer's bid signature is its node's over the rfq's commitment with its output. */
  private verifyBid(live: Live, offer: RankedOffer): boolean {
    const node = live.nodes.get(lower(offer.resolver));
    return (
      node !== undefined && this.port.adapter.verifyBid(live.terms, offer.bid.outputAmount, node, offer.bid.signature)
    );
  }

  /**
   * A bid whose signature is not its node's: a rejected reply after all, which the node hears of, and a
   * strike (docs/resolver-protocol.md, "When signatures are checked").
   */
  private disqualify(live: Live, offer: RankedOffer): Promise<void> {
    const { port } = this;
    live.auction.disqualify(lower(offer.resolver));
    port.send(offer.resolver, errorFrame("bad_signature", rejectMessage.bad_signature));
    return port.strike(offer.resolver, live.auction.rfqId, `bid on ${live.quoteId} with a forged signature`);
  }

  /** Keeps the chain state a quote is built with fresh (Solana: a recent blockhash), outside any quote's path. */
  keepFresh(now: number): Promise<void> {
    const { signing } = this.port.adapter;
    if (signing.kind !== "winner") return Promise.resolve();
    const read = signing.keepFresh(now);
    this.port.waitUntil(read);
    return read;
  }

  /** Whether `rfqId` is an auction of this corridor, open or recently closed. */
  isLive(rfqId: string): boolean {
    return this.live.has(rfqId);
  }

  /** Whether `node` was asked in the live auction `rfqId` and has not answered it yet. */
  awaits(rfqId: string, node: string): boolean {
    const auction = this.live.get(rfqId)?.auction;
    return (auction?.asked.has(lower(node)) ?? false) && !auction?.answered.has(lower(node));
  }

  /** A node's socket closed: in every open auction that asked it, no reply is coming from it (`noReply`). */
  onGone(address: string): void {
    for (const live of this.live.values()) live.auction.drop(lower(address));
  }

  /**
   * A node's bid: counted once, checked (window, expiry, fees, inventory) and kept if it passes. Its
   * signature is checked after the close, and only where it matters then: the winner's before the taker's
   * answer, the others' after it (docs/resolver-protocol.md, "When signatures are checked").
   */
  onBid(node: NodeSession, frame: BidFrame): void {
    const { port } = this;
    const live = this.live.get(frame.rfqId);
    const address = lower(node.address);
    if (!live) {
      port.send(node.address, errorFrame("unknown_rfq", `no live rfq ${frame.rfqId}`));
      return;
    }
    const now = Date.now();
    const claim = live.auction.claim(address, now);
    if (claim !== "ok") {
      port.send(node.address, errorFrame(claimError[claim], claimMessage[claim]));
      if (claim === "late") this.recordLate(live);
      return;
    }
    const latencyMs = live.auction.latency(address, now);
    const outputAmount = BigInt(frame.outputAmount);
    const amounts = quoteAmounts({
      sellAmount: live.terms.sellAmount,
      outputAmount,
      feeBps: live.terms.chain.fee.bps,
      gas: live.gas,
    });
    const reason: keyof typeof rejectMessage | null =
      frame.expiresAt !== undefined && frame.expiresAt <= now
        ? "expired_bid"
        : !amounts
          ? "below_fees"
          : !this.holds(node, live.terms.buyToken, outputAmount) ||
              !port.chainCovers(node.address, live.terms.buyToken, outputAmount)
            ? "insufficient_inventory"
            : null;
    if (reason || !amounts) {
      const code = reason ?? "below_fees";
      live.auction.reject(address);
      port.send(node.address, errorFrame(code, rejectMessage[code]));
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
    });
  }

  /** A reply to a live rfq that failed the frame schema: it is the node's reply, and it is rejected. */
  onMalformed(node: NodeSession, rfqId: string, message: string): void {
    const live = this.live.get(rfqId);
    if (live?.auction.claim(lower(node.address), Date.now()) === "ok") live.auction.reject(lower(node.address));
    this.port.send(node.address, errorFrame("bad_frame", message));
  }

  onDecline(node: NodeSession, frame: DeclineFrame): void {
    const live = this.live.get(frame.rfqId);
    if (!live) {
      this.port.send(node.address, errorFrame("unknown_rfq", `no live rfq ${frame.rfqId}`));
      return;
    }
    const claim = live.auction.claim(lower(node.address), Date.now());
    if (claim === "ok") live.auction.decline();
    else if (claim === "late") this.recordLate(live);
    else this.port.send(node.address, errorFrame(claimError[claim], claimMessage[claim]));
  }

  /** A winner's answer to `sign`; anything else names no rfq that awaits this node's signature. */
  onSigned(node: NodeSession, frame: SignedFrame): void {
    if (!this.signatures.answer(node.address, frame)) {
      this.port.send(node.address, errorFrame("unknown_rfq", `no rfq ${frame.rfqId} awaits a signature`));
    }
  }

  /** A reply after the close: the stored quote's `replies` are brought up to date. */
  private recordLate(live: Live): void {
    const replies = live.auction.replies();
    this.port.waitUntil(
      live.stored.then((stored) => (stored ? this.port.store.storeReplies(live.quoteId, replies) : undefined)),
    );
  }

  private sendResults(live: Live, offers: readonly RankedOffer[]): void {
    const rankOf = new Map(offers.map((o) => [lower(o.resolver), o]));
    for (const address of live.auction.bidders) {
      const node = live.nodes.get(address);
      if (!node) continue;
      const offer = rankOf.get(address);
      this.port.send(node.address, {
        type: "result",
        rfqId: live.auction.rfqId,
        won: offer?.won ?? false,
        rank: offer?.rank ?? null,
      });
    }
  }

  /** The amounts of a valid bid (which covers the fees, or it would not be valid). */
  private amountsOf(live: Live, outputAmount: bigint): QuoteAmounts {
    const feeBps = live.terms.chain.fee.bps;
    const amounts = quoteAmounts({ sellAmount: live.terms.sellAmount, outputAmount, feeBps, gas: live.gas });
    if (!amounts) throw new Error("a valid bid must cover the fees");
    return amounts;
  }

  /** Whether a node's last heartbeat shows `atLeast` of `token` in both balance and allowance. */
  private holds(node: { inventory: readonly InventoryEntry[] }, token: string, atLeast: bigint): boolean {
    const chainId = this.port.corridor.chain.chainId;
    const entry = node.inventory.find((i) => i.chainId === chainId && this.port.adapter.sameAddress(i.token, token));
    return entry !== undefined && BigInt(entry.balance) >= atLeast && BigInt(entry.allowance) >= atLeast;
  }
}

const claimError = { not_asked: "not_asked", duplicate: "duplicate_bid", late: "late_bid" } as const;
const claimMessage = {
  not_asked: "this node was not asked for this rfq",
  duplicate: "only the first reply to an rfq counts",
  late: "the auction had closed",
} as const;
const rejectMessage = {
  expired_bid: "the bid expired before the auction closed",
  below_fees: "the output does not cover the fees",
  insufficient_inventory: "the last heartbeat or on-chain read does not show enough balance and allowance",
  bad_signature: "the signature is not the node's over the rfq's toSign",
} as const;

const errorFrame = (code: string, message: string): RelayFrame => ({ type: "error", code, message });

function noOffers(replies: Replies, nodesOnline: number, message: string): Refusal {
  return refuse(404, "no_offers", message, { replies, nodesOnline });
}

/** Offers as stored: the bid's signature kept for settlement. */
function storedOffers(offers: readonly RankedOffer[]): StoredOffer[] {
  return offers.map(({ bid, ...offer }) => ({ ...offer, signature: bid.signature }));
}

/**
 * Resolves once the current task is done, so that work after it runs after the taker's answer has been
 * handed back, not before it as a microtask would.
 */
const afterAnswer = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Commits to the auction's valid offers: who bid what, with which signature, in rank order. */
export function offersHash(offers: readonly StoredOffer[]): string {
  return keccak256(stringToBytes(JSON.stringify(offers.map((o) => [o.resolver, o.outputAmount, o.signature]))));
}
