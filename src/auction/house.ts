import { corridorTag, keptForSettlement } from "../chains";
import { resolverKey } from "../ids";
import { log } from "../log";
import type { NodeSession } from "../nodes";
import type { SignedFrame } from "../protocol";
import type { AuctionCounts, Standing } from "../resolvers";
import type { QuoteInput } from "../types";
import { chooseAsked } from "./asked-nodes";
import { checkUnchecked, disqualify, verifyBid } from "./bid-signatures";
import type { Clock } from "./clock";
import type { CorridorPort } from "./corridor-port";
import { type Decision, decideWinner } from "./decide";
import { ladderSamples } from "./ladder-samples";
import { LiveAuction } from "./live-auction";
import type { LiveBook } from "./live-book";
import { keepStateFresh, type Opening, openAuction } from "./opening";
import { legTerms } from "./parts";
import { noOffers, noReplies, noWinner, type QuoteOutcome } from "./quote-outcome";
import { firstEvents, quotedRecord, quoteRow, storedOffers } from "./quote-row";
import { type RankedOffer, rankBids, withStanding } from "./rank";
import type { AuctionReply } from "./replies";
import { replyError, sendResults } from "./reply-frames";
import { receiveBid, receiveDecline, receiveMalformed } from "./reply-intake";
import { ReplyMemory } from "./reply-memory";
import { eligibleNodes, onlineNodes, rfqBounds, rfqFrameFor } from "./rfq";
import { forTaker, holdWin, TakerHolds } from "./taker-holds";
import { WinnerSignatures } from "./winner-signatures";

/** How long the per-bidder work of a decided auction waits for the taker's answer to have left (afterTheAnswer). */
const AFTER_ANSWER_MS = 50;

/** How long a closed auction is remembered, so that its late replies are counted on the quote. */
const REMEMBER_CLOSED_MS = 30_000;

/** An auction's ranked offers, its decision, and whose bid signatures the decision checked. */
interface Decided {
  ranking: ReturnType<typeof rankBids>;
  decision: Decision<RankedOffer>;
  checked: Set<string>;
}

/** A corridor's auctions: asks its nodes, checks their replies, ranks, and stores the winning quote. */
export class AuctionHouse {
  private readonly signatures: WinnerSignatures;
  /** Which nodes answer their rfqs (src/auction/reply-memory.ts): who is asked, and who is waited for. */
  private readonly replies = new ReplyMemory();
  /** The standing the last auction read, which orders the nodes an rfq asks (src/auction/asked-nodes.ts). */
  private standingRead: Standing | null = null;

  /** The corridor's tag, the first digits of its quote ids (src/chains/corridor-keys.ts, `corridorTag`). */
  private readonly tag: string;
  /** What each taker's open quotes hold of their winners' inventory (src/auction/taker-holds.ts). */
  readonly holds: TakerHolds;

  constructor(
    private readonly port: CorridorPort,
    private readonly clock: Clock,
    /** Its auctions open or recently closed, which the corridor's nodes read too. */
    private readonly live: LiveBook,
  ) {
    this.signatures = new WinnerSignatures((address, frame) => port.nodes.send(address, frame), clock);
    this.tag = corridorTag(port.corridor.key);
    this.holds = new TakerHolds(port.config.limits.quoteHoldsPerCorridor, port.adapter.sameAddress);
  }

  /** The port as an auction for `taker` sees it: each node's inventory less that taker's holds on it. */
  private takerPort(taker: string | undefined): CorridorPort {
    return taker === undefined ? this.port : forTaker(this.port, this.holds, taker, this.clock);
  }

  /**
   * One auction for a quote request: its rfq goes to the nodes it asks, its window closes, the bids are
   * ranked and the winner decided, and the quote is stored. The taker's limits are counted before it is
   * called, by the corridor's admission (src/quotes/admission.ts).
   */
  async requestQuote(input: QuoteInput): Promise<QuoteOutcome> {
    const { clock } = this;
    const opening = await openAuction(this.port, this.tag, input, clock.now());
    const fresh = this.keepFresh(opening.now);
    const standing = this.port.standing.get();
    const online = onlineNodes(this.port.nodes.list(), opening.now);
    const eligible = this.toAsk(eligibleNodes(this.takerPort(input.taker), online, input.buyToken), opening.now);
    if (eligible.length === 0) return noOffers(noReplies(), online.length, "No resolver can quote this pair now.");
    const askedAt = clock.elapsed();
    const { live, ladders } = this.ask(opening, fresh, eligible);
    await live.auction.done;
    const closedAt = clock.elapsed();
    clock.after(REMEMBER_CLOSED_MS, () => this.live.delete(live.terms.rfqId));
    this.sampleLadders(opening, live, ladders);
    const decided = await this.decide(opening, live, await standing);
    const rankedAt = clock.elapsed();
    const { winner } = decided.decision;
    const counts = live.counts(winner, clock.now());
    if (!winner) return this.unquoted(live, decided, counts, online.length);
    const quotedAt = clock.now();
    const offers = storedOffers(decided.decision.offers);
    const keys = live.nodes.get(resolverKey(winner.offer.resolver));
    const solanaAddress = keys ? this.port.adapter.quotedWinnerKey(keys) : null;
    const won = { ...winner, signing: keptForSettlement(this.port.adapter.signing, winner.signing), solanaAddress };
    const quote = quoteRow(live, input, won, offers, decided.ranking.steering, quotedAt);
    const timeline = firstEvents(input, quote, quotedAt);
    const storingAt = clock.elapsed();
    await this.port.store.store(quote, offers, timeline, counts).finally(() => live.markStored(true));
    const storedAt = clock.elapsed();
    this.afterTheAnswer(live, decided, true);
    return {
      kind: "quoted",
      quote: quotedRecord(quote, offers, timeline),
      signing: winner.signing,
      timings: { auctionMs: closedAt - askedAt, rankingMs: rankedAt - closedAt, storageMs: storedAt - storingAt },
    };
  }

  /**
   * Opens the live auction of the `eligible` nodes and sends each its rfq; what each one's own ladder paid
   * for the amount as the rfq went out (docs/reliability.md, "Honest levels"), read once the frames are
   * sent: no frame of a node's is taken in between.
   */
  private ask(o: Opening, fresh: Promise<void>, eligible: NodeSession[]) {
    const { input, terms, gas, band } = o;
    const port = this.takerPort(input.taker);
    const awaited = this.replies.awaitedOf(eligible.map((n) => resolverKey(n.address)));
    const windowMs = port.config.rfqWindowMs;
    const live = new LiveAuction(terms, gas, band, o.expiresAt, fresh, eligible, windowMs, awaited, this.clock.now());
    this.live.set(terms.rfqId, live);
    const frame = rfqFrameFor(port.adapter, terms, input, gas, band);
    port.nodes.sendToEach(
      eligible.map((n) => n.address),
      frame,
    );
    // Not cleared at an early close: the window's end tells the reply memory who stayed silent.
    this.clock.after(windowMs, () => this.windowEnded(live));
    const ladders = eligible.flatMap((n) => {
      const out = port.ladders.ladderAt(n.address, input.sellToken, input.buyToken, terms.sellAmount, o.now);
      return out === null ? [] : [{ resolver: n.address, ladderOutput: out }];
    });
    return { live, ladders };
  }

  /**
   * Each laddered node is a sample: its bid, or the worst case for a decline, no reply or a bid out of
   * band; measured once the taker's answer has left, off the quote's path.
   */
  private sampleLadders(o: Opening, live: LiveAuction, ladders: { resolver: string; ladderOutput: bigint }[]) {
    if (!ladders.length) return;
    const { port } = this;
    const limitAmount = o.input.limit ? BigInt(o.input.limit.limitAmount) : null;
    const bounds = rfqBounds(port, o.terms, o.band);
    const laddered = ladderSamples(ladders, live.auction.bids, bounds, limitAmount);
    if (laddered.length) {
      port.waitUntil(this.clock.sleep(AFTER_ANSWER_MS).then(() => port.ladders.sampled(laddered, this.clock.now())));
    }
  }

  /** Ranks the bids by `standing` and the band's guard, and decides the winner (src/auction/decide.ts). */
  private async decide(o: Opening, live: LiveAuction, standing: Standing): Promise<Decided> {
    const { port } = this;
    const { terms } = o;
    const rfqId = terms.rfqId;
    this.standingRead = standing;
    const bounds = rfqBounds(port, terms, o.band);
    const guard = { bandGuardBps: port.config.bandGuardBps, bounds, sellAmount: terms.sellAmount };
    const ranking = rankBids(withStanding(live.auction.bids, standing), guard);
    /** Resolvers whose bid signature has been checked, so that the check after the answer skips them. */
    const checked = new Set<string>();
    const decision = await decideWinner(
      {
        signing: port.adapter.signing,
        terms,
        nodes: live.nodes,
        fresh: live.fresh,
        clock: this.clock,
        amountsOf: (offer) => offer.bid.amounts,
        verifyBid: (offer) => {
          checked.add(offer.resolver);
          return verifyBid(port, live, offer);
        },
        askToSign: (address, transaction) => this.signatures.ask(rfqId, address, transaction),
        strike: (address, why) =>
          port.waitUntil(port.standing.strike(address, rfqId, `won ${live.quoteId} and ${why}`, live.quoteId)),
        hold: (offer, amounts) => holdWin(port, this.holds, terms, offer.resolver, amounts.outputAmount, this.clock),
        legTerms: () => legTerms(port, live, this.clock.now()),
      },
      ranking.offers,
    );
    for (const offer of decision.forged) port.waitUntil(disqualify(port, live, offer));
    return { ranking, decision, checked };
  }

  /** An auction with no winner: its counts are kept, its bidders told, and the taker hears why. */
  private unquoted(live: LiveAuction, decided: Decided, counts: AuctionCounts, nodesOnline: number): QuoteOutcome {
    const { port } = this;
    const replies = live.auction.replies();
    port.waitUntil(
      port.store.count(counts).catch((e: unknown) => log.error("auction_count_failed", { error: String(e) })),
    );
    this.afterTheAnswer(live, decided, false);
    live.markStored(false);
    return noWinner(decided.decision, replies, nodesOnline);
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
    const now = this.clock.now();
    for (const node of auction.unanswered()) this.replies.missed(node, auction.asked.get(node) ?? now, now);
  }

  /**
   * The per-bidder work of a decided auction, once the taker's answer is on its way: every bidder's
   * `result`, then a random sample of the bid signatures not checked on the quote's path
   * (docs/resolver-protocol.md, "When signatures are checked"). It waits AFTER_ANSWER_MS, so that it does not hold the thread the
   * answer still crosses (the Worker, where it shares the corridor's isolate).
   */
  private afterTheAnswer(live: LiveAuction, { decision, checked }: Decided, stored: boolean) {
    const { port } = this;
    const work = this.clock.sleep(AFTER_ANSWER_MS).then(() => {
      sendResults(port, live, decision.offers);
      return checkUnchecked(port, live, decision.offers, checked, stored);
    });
    port.waitUntil(
      work.catch((e: unknown) => log.error("correction_failed", { quoteId: live.quoteId, error: String(e) })),
    );
  }

  /** Keeps the chain state quotes are built and priced with fresh (src/auction/opening.ts, `keepStateFresh`). */
  keepFresh(now: number): Promise<void> {
    return keepStateFresh(this.port, now);
  }

  /** A node's socket closed: in every open auction that asked it, no reply is coming from it (`noReply`). */
  onGone(address: string): void {
    this.replies.forget(resolverKey(address));
    for (const live of this.live.values()) live.auction.drop(resolverKey(address));
  }

  /** A node's reply to an auction, as the corridor's nodes hand it over (src/nodes/corridor-nodes.ts). */
  onReply(reply: AuctionReply): void {
    const { node } = reply;
    const now = this.clock.now();
    if ("malformed" in reply) {
      const { rfqId, message } = reply.malformed;
      this.heardFrom(this.live.get(rfqId), node, now);
      receiveMalformed(this.port, this.live.get(rfqId), node, rfqId, message, now);
      return;
    }
    const { frame } = reply;
    const live = this.live.get(frame.rfqId);
    // Each checked as it arrives (src/auction/reply-intake.ts).
    if (frame.type === "signed") this.onSigned(node, frame);
    else if (frame.type === "bid")
      receiveBid(this.takerPort(live?.terms.taker), live, node, frame, this.heardFrom(live, node, now));
    else receiveDecline(this.port, live, node, frame, this.heardFrom(live, node, now));
  }

  /**
   * A reply to an rfq within its window, even after an early close, shows the node answers
   * (src/auction/reply-memory.ts); `now`, for the reply's checks.
   */
  private heardFrom(live: LiveAuction | undefined, node: NodeSession, now: number): number {
    const auction = live?.auction;
    const address = resolverKey(node.address);
    if (auction?.asked.has(address) && auction.latency(address, now) <= auction.windowMs) {
      this.replies.answered(address);
    }
    return now;
  }

  /** A winner's answer to `sign`; anything else names no rfq that awaits this node's signature. */
  private onSigned(node: NodeSession, frame: SignedFrame): void {
    if (!this.signatures.answer(node.address, frame)) {
      this.port.nodes.send(
        node.address,
        replyError(frame.rfqId, "unknown_rfq", `no rfq ${frame.rfqId} awaits a signature`),
      );
    }
  }
}
