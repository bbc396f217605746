import { corridorTag } from "../chains";
import { newId, resolverKey } from "../ids";
import { log } from "../log";
import type { NodeSession } from "../nodes";
import type { BidFrame, DeclineFrame, SignedFrame } from "../protocol";
import type { AuctionCounts, Standing } from "../resolvers";
import type { QuoteInput } from "../types";
import { chooseAsked } from "./asked-nodes";
import { freshBand } from "./band-guard";
import { checkUnchecked, disqualify, verifyBid } from "./bid-signatures";
import { swapCharges } from "./charges";
import type { CorridorPort } from "./corridor-port";
import { decideWinner } from "./decide";
import { ladderSamples } from "./ladder-samples";
import { LiveAuction } from "./live-auction";
import { noOffers, noReplies, noWinner } from "./no-quote";
import type { QuoteOutcome } from "./quote-outcome";
import { firstEvents, quotedRecord, quoteRow, storedOffers } from "./quote-row";
import { type RankedOffer, rankBids, withStanding } from "./rank";
import type { AuctionReply } from "./replies";
import { replyError, sendResults } from "./reply-frames";
import { receiveBid, receiveDecline, receiveMalformed } from "./reply-intake";
import { ReplyMemory } from "./reply-memory";
import { eligibleNodes, onlineNodes, rfqBounds, rfqFrameFor, rfqTerms } from "./rfq";
import { WinnerSignatures } from "./winner-signatures";

/** How long the per-bidder work of a decided auction waits for the taker's answer to have left (afterTheAnswer). */
const AFTER_ANSWER_MS = 50;

/** Settles AFTER_ANSWER_MS from now, when the taker's answer has left. */
const afterAnswer = () => new Promise<void>((resolve) => setTimeout(resolve, AFTER_ANSWER_MS));

/** How long a closed auction is remembered, so that its late replies are counted on the quote. */
const REMEMBER_CLOSED_MS = 30_000;

/** A corridor's auctions: asks its nodes, checks their replies, ranks, and stores the winning quote. */
export class AuctionHouse {
  private readonly live = new Map<string, LiveAuction>();
  private readonly signatures: WinnerSignatures;
  /** Which nodes answer their rfqs (src/auction/reply-memory.ts): who is asked, and who is waited for. */
  private readonly replies = new ReplyMemory();
  /** The standing the last auction read, which orders the nodes an rfq asks (src/auction/asked-nodes.ts). */
  private standingRead: Standing | null = null;

  /** The corridor's tag, the first digits of its quote ids (src/chains/corridor-keys.ts, `corridorTag`). */
  private readonly tag: string;

  constructor(private readonly port: CorridorPort) {
    this.signatures = new WinnerSignatures((address, frame) => port.send(address, frame));
    this.tag = corridorTag(port.corridor.key);
  }

  /** One auction for a quote request (the taker's in-flight limit is counted by the route, across corridors). */
  async requestQuote(input: QuoteInput): Promise<QuoteOutcome> {
    const { port } = this;
    const { config, corridor, adapter } = port;
    const now = Date.now();
    const band = freshBand(port.band(), now);
    // The id names the corridor, so a read that misses the quote in D1 finds it here (src/quotes/read-through.ts).
    const quoteId = newId("q", this.tag);
    const rfqId = newId("rfq");
    const expiresAt = now + config.quoteTtlSeconds * 1000;
    const { gas, fee } = await swapCharges(
      port,
      { kind: input.limit ? "limit" : "rfq", ...input },
      now,
      input.limit ? BigInt(input.limit.order.maxGasFee ?? 0) : undefined,
    );
    const terms = rfqTerms(corridor, input, rfqId, quoteId, expiresAt, gas, fee);
    const fresh = this.keepFresh(now);
    const standingPromise = port.standing();
    const online = onlineNodes(port.nodes(), now);
    const eligible = this.toAsk(eligibleNodes(port, online, input.buyToken), now);
    if (eligible.length === 0) return noOffers(noReplies(), online.length, "No resolver can quote this pair now.");

    const awaited = this.replies.awaitedOf(eligible.map((n) => resolverKey(n.address)));
    const live = new LiveAuction(terms, gas, band, expiresAt, fresh, eligible, config.rfqWindowMs, awaited);
    const { auction } = live;
    this.live.set(rfqId, live);
    const frame = rfqFrameFor(adapter, terms, input, gas, band);
    const askedAt = performance.now();
    port.sendToEach(
      eligible.map((n) => n.address),
      frame,
    );
    // Not cleared at an early close: the window's end tells the reply memory who stayed silent.
    setTimeout(() => this.windowEnded(live), config.rfqWindowMs);
    // What each asked node's own ladder paid for this amount as the rfq went out (docs/reliability.md,
    // "Honest levels"), read once the frames are sent: no frame of a node's is taken in between.
    const ladders = eligible.flatMap((n) => {
      const out = port.ladderAt(n.address, input.sellToken, input.buyToken, terms.sellAmount, now);
      return out === null ? [] : [{ resolver: n.address, ladderOutput: out }];
    });
    await auction.done;
    const closedAt = performance.now();
    setTimeout(() => this.live.delete(rfqId), REMEMBER_CLOSED_MS);
    // Each of those nodes is a sample: its bid, or the worst case for a decline, no reply or a bid out of band.
    const limitAmount = input.limit ? BigInt(input.limit.limitAmount) : null;
    const laddered = ladders.length
      ? ladderSamples(ladders, auction.bids, rfqBounds(port, terms, band), limitAmount)
      : [];
    // Measured once the taker's answer has left, off the quote's path.
    if (laddered.length) port.waitUntil(afterAnswer().then(() => port.ladderBids(quoteId, laddered)));

    const standing = await standingPromise;
    this.standingRead = standing;
    const bounds = rfqBounds(port, terms, band);
    const ranking = rankBids(withStanding(auction.bids, standing), { bandGuardBps: config.bandGuardBps, bounds });
    const answered = new Set(auction.answered);
    /** Resolvers whose bid signature has been checked, so that the check after the answer skips them. */
    const checked = new Set<string>();
    const decision = await decideWinner(
      {
        signing: adapter.signing,
        terms,
        nodes: live.nodes,
        fresh,
        amountsOf: (offer) => offer.bid.amounts,
        verifyBid: (offer) => {
          checked.add(offer.resolver);
          return verifyBid(port, live, offer);
        },
        askToSign: (address, transaction) => this.signatures.ask(rfqId, address, transaction),
        strike: (address, why) => port.waitUntil(port.strike(address, rfqId, `won ${quoteId} and ${why}`, quoteId)),
      },
      ranking.offers,
    );
    for (const offer of decision.forged) port.waitUntil(disqualify(port, live, offer));
    const rankedAt = performance.now();
    const { winner } = decision;
    const counts: AuctionCounts = {
      asked: [...auction.asked.keys()],
      answered,
      winner: winner?.offer.resolver ?? null,
      replyMs: auction.replyMs,
      at: new Date().toISOString(),
    };
    if (!winner) {
      const replies = auction.replies();
      port.waitUntil(
        port.store.count(counts).catch((e: unknown) => log.error("auction_count_failed", { error: String(e) })),
      );
      this.afterTheAnswer(live, decision.offers, checked, false);
      live.markStored(false);
      return noWinner(decision, replies, online.length);
    }

    const quotedAt = Date.now();
    const offers = storedOffers(decision.offers);
    const keys = live.nodes.get(resolverKey(winner.offer.resolver));
    const solanaAddress = keys ? adapter.quotedWinnerKey(keys) : null;
    const quote = quoteRow(live, input, { ...winner, solanaAddress }, offers, ranking.steering, quotedAt);
    const timeline = firstEvents(input, quote, quotedAt);
    const storingAt = performance.now();
    try {
      await port.store.store(quote, offers, timeline, counts);
    } finally {
      live.markStored(true);
    }
    const storedAt = performance.now();
    this.afterTheAnswer(live, decision.offers, checked, true);
    return {
      kind: "quoted",
      quote: quotedRecord(quote, offers, timeline),
      signing: winner.signing,
      timings: { auctionMs: closedAt - askedAt, rankingMs: rankedAt - closedAt, storageMs: storedAt - storingAt },
    };
  }

  /**
   * The eligible nodes an rfq asks now (docs/resolver-protocol.md, "Auctions"): those not backed off for
   * their misses, at most `maxNodesPerRfq` of them, recorded as asked.
   */
  private toAsk(eligible: readonly NodeSession[], now: number): NodeSession[] {
    const { replies } = this;
    const chosen = chooseAsked(
      eligible.filter((n) => replies.askable(resolverKey(n.address), now)),
      { max: this.port.config.limits.maxNodesPerRfq, standing: this.standingRead, askedAt: (a) => replies.askedAt(a) },
    );
    replies.asked(
      chosen.map((n) => resolverKey(n.address)),
      now,
    );
    return chosen;
  }

  /** An auction's window ended: it closes if it has not, and each asked node still silent has missed it. */
  private windowEnded(live: LiveAuction): void {
    const { auction } = live;
    auction.close();
    const now = Date.now();
    for (const node of auction.unanswered()) this.replies.missed(node, auction.asked.get(node) ?? now, now);
  }

  /**
   * The per-bidder work of a decided auction, once the taker's answer is on its way: every bidder's
   * `result`, then a random sample of the bid signatures not checked on the quote's path
   * (docs/resolver-protocol.md, "When signatures are checked"). It waits AFTER_ANSWER_MS, so that it does not hold the thread the
   * answer still crosses (the Worker, where it shares the corridor's isolate).
   */
  private afterTheAnswer(live: LiveAuction, offers: RankedOffer[], checked: ReadonlySet<string>, stored: boolean) {
    const { port } = this;
    const work = afterAnswer().then(() => {
      sendResults(port, live, offers);
      return checkUnchecked(port, live, offers, checked, stored);
    });
    port.waitUntil(
      work.catch((e: unknown) => log.error("correction_failed", { quoteId: live.quoteId, error: String(e) })),
    );
  }

  /**
   * Keeps the chain state a quote is built with (Solana: a recent blockhash) and priced with (the gas
   * fee's inputs) fresh, outside any quote's path.
   */
  keepFresh(now: number): Promise<void> {
    void this.port.costs.keepFresh(now);
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
    return (auction?.asked.has(resolverKey(node)) ?? false) && !auction?.answered.has(resolverKey(node));
  }

  /** A node's socket closed: in every open auction that asked it, no reply is coming from it (`noReply`). */
  onGone(address: string): void {
    this.replies.forget(resolverKey(address));
    for (const live of this.live.values()) live.auction.drop(resolverKey(address));
  }

  /** A node's reply to an auction, as the corridor's nodes hand it over (src/nodes/corridor-nodes.ts). */
  onReply(reply: AuctionReply): void {
    if ("malformed" in reply) this.onMalformed(reply.node, reply.malformed.rfqId, reply.malformed.message);
    else if (reply.frame.type === "bid") this.onBid(reply.node, reply.frame);
    else if (reply.frame.type === "decline") this.onDecline(reply.node, reply.frame);
    else this.onSigned(reply.node, reply.frame);
  }

  /** A reply to an rfq within its window, even after an early close, shows the node answers (src/auction/reply-memory.ts). */
  private heardFrom(node: NodeSession, rfqId: string): void {
    const auction = this.live.get(rfqId)?.auction;
    const address = resolverKey(node.address);
    if (auction?.asked.has(address) && auction.latency(address, Date.now()) <= auction.windowMs) {
      this.replies.answered(address);
    }
  }

  /** A node's bid: checked as it arrives, and kept with its amounts if it passes (src/auction/reply-intake.ts). */
  onBid(node: NodeSession, frame: BidFrame): void {
    this.heardFrom(node, frame.rfqId);
    receiveBid(this.port, this.live.get(frame.rfqId), node, frame);
  }

  /** A reply to a live rfq that failed the frame schema: it is the node's reply, and it is rejected. */
  onMalformed(node: NodeSession, rfqId: string, message: string): void {
    this.heardFrom(node, rfqId);
    receiveMalformed(this.port, this.live.get(rfqId), node, rfqId, message);
  }

  /** A node's decline: counted once, late after the close. */
  onDecline(node: NodeSession, frame: DeclineFrame): void {
    this.heardFrom(node, frame.rfqId);
    receiveDecline(this.port, this.live.get(frame.rfqId), node, frame);
  }

  /** A winner's answer to `sign`; anything else names no rfq that awaits this node's signature. */
  onSigned(node: NodeSession, frame: SignedFrame): void {
    if (!this.signatures.answer(node.address, frame)) {
      this.port.send(node.address, replyError(frame.rfqId, "unknown_rfq", `no rfq ${frame.rfqId} awaits a signature`));
    }
  }
}
