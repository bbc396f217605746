import { keccak256, stringToBytes } from "viem";
import type { ChainAdapter, RfqTerms } from "../chains/adapter";
import type { RelayConfig } from "../config/schema";
import type { Corridor } from "../corridors";
import { insertQuoteStatements, type QuoteRow } from "../db/quotes";
import { countAuctionStatements } from "../db/resolver-stats";
import { type Refusal, refuse } from "../errors";
import { newId } from "../ids";
import type { BidFrame, DeclineFrame, InventoryEntry, RelayFrame } from "../protocol/frames";
import type { BandValue, QuoteRecord, Replies } from "../schemas/quote";
import { type GasCharge, gasChargeFor, quoteAmounts } from "./amounts";
import { Auction } from "./auction";
import { minOutputFromBand } from "./band-guard";
import type { QuoteInput } from "./quote-input";
import { type RankedOffer, rankBids } from "./rank";

/** How long a closed auction is remembered, so that its late replies are counted on the quote. */
const REMEMBER_CLOSED_MS = 30_000;
/** Grace between a quote's expiry and the on-chain deadline, so a fill broadcast just before expiry still lands. */
const DEADLINE_GRACE_SECONDS = 60;

/** An authenticated node as the auction sees it. */
export interface AuctionNode<S> {
  socket: S;
  address: string;
  /** The keys the node proved at auth; bids are verified against them. */
  publicKey: string;
  solanaAddress: string | null;
  name: string;
  fresh: boolean;
  state: "quoting" | "degraded" | "paused";
  inventory: readonly InventoryEntry[];
}

/** What the auction needs from its corridor object. */
export interface CorridorPort<S> {
  config: RelayConfig;
  corridor: Corridor;
  adapter: ChainAdapter;
  band: BandValue | null;
  /** The band assets (e.g. USD, NGN) the corridor's tokens track, for the band guard. */
  assetOf(token: string): string | null;
  nodes(): AuctionNode<S>[];
  send(socket: S, frame: RelayFrame): void;
  /** Lowercase addresses of resolvers demoted now. */
  demoted(): Promise<ReadonlySet<string>>;
  db: D1Database;
  waitUntil(p: Promise<unknown>): void;
}

export type QuoteOutcome = { kind: "quoted"; quote: QuoteRecord; signing: Record<string, unknown> } | Refusal;

interface Live<S> {
  auction: Auction;
  terms: RfqTerms;
  gas: GasCharge;
  quoteId: string;
  nodes: Map<string, AuctionNode<S>>;
  /** Settles once the quote is stored, so late replies update a row that exists. */
  stored: Promise<boolean>;
}

const lower = (a: string) => a.toLowerCase();

/** A corridor's auctions: asks its nodes, checks their replies, ranks, and stores the winning quote. */
export class AuctionHouse<S> {
  private readonly live = new Map<string, Live<S>>();
  private readonly inFlight = new Map<string, number>();

  async requestQuote(port: CorridorPort<S>, input: QuoteInput): Promise<QuoteOutcome> {
    const { config } = port;
    const taker = lower(input.taker);
    const outstanding = this.inFlight.get(taker) ?? 0;
    if (outstanding >= config.maxOutstandingRfqs) {
      return refuse(429, "too_many_rfqs", `This taker already has ${outstanding} quote requests in flight.`, {
        retryAfter: Math.ceil(config.rfqWindowMs / 1000),
      });
    }
    this.inFlight.set(taker, outstanding + 1);
    try {
      return await this.run(port, input);
    } finally {
      const left = (this.inFlight.get(taker) ?? 1) - 1;
      if (left > 0) this.inFlight.set(taker, left);
      else this.inFlight.delete(taker);
    }
  }

  private async run(port: CorridorPort<S>, input: QuoteInput): Promise<QuoteOutcome> {
    const { config, corridor, adapter } = port;
    const chain = corridor.chain;
    const now = Date.now();
    const quoteId = newId("q");
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
    };
    const demotedPromise = port.demoted();
    const all = port.nodes();
    const online = all.filter((n) => n.fresh);
    const eligible = online.filter(
      (n) => n.state === "quoting" && adapter.bidKey(n) !== null && hasInventory(n, chain.chainId, input.buyToken),
    );
    const emptyReplies: Replies = { valid: 0, rejected: 0, declined: 0, noReply: 0, late: 0 };
    if (eligible.length === 0) return noOffers(emptyReplies, online.length, "No resolver can quote this pair now.");

    const sentAt = Date.now();
    const asked = new Map(eligible.map((n) => [lower(n.address), sentAt]));
    const auction = new Auction(rfqId, asked, config.rfqWindowMs);
    let markStored: (ok: boolean) => void = () => {};
    const live: Live<S> = {
      auction,
      terms,
      gas,
      quoteId,
      nodes: new Map(eligible.map((n) => [lower(n.address), n])),
      stored: new Promise((resolve) => {
        markStored = resolve;
      }),
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
      band: port.band,
      toSign: adapter.bidToSign(terms),
    };
    for (const n of eligible) port.send(n.socket, frame);
    const timer = setTimeout(() => auction.close(), config.rfqWindowMs);
    await auction.done;
    clearTimeout(timer);
    setTimeout(() => this.live.delete(rfqId), REMEMBER_CLOSED_MS);

    const demoted = await demotedPromise;
    const sellToken = chain.tokens.find((t) => adapter.sameAddress(t.address, input.sellToken));
    const buyToken = chain.tokens.find((t) => adapter.sameAddress(t.address, input.buyToken));
    const minOutput = minOutputFromBand({
      band: port.band,
      sellAsset: port.assetOf(input.sellToken),
      buyAsset: port.assetOf(input.buyToken),
      sellAmount,
      sellDecimals: sellToken?.decimals ?? 0,
      buyDecimals: buyToken?.decimals ?? 0,
      bandGuardBps: config.bandGuardBps,
    });
    const bids = auction.bids.map((b) => ({ ...b, demoted: demoted.has(lower(b.resolver)) }));
    const ranking = rankBids(bids, { bandGuardBps: config.bandGuardBps, minOutput });
    const replies = auction.replies();
    this.sendResults(port, live, ranking.offers);
    const winner = ranking.winner;
    // Reliability counters (migrations/0002): who was asked, who replied inside the window, who won.
    const counts = countAuctionStatements(
      port.db,
      { asked: auction.asked.keys(), answered: new Set(auction.answered), winner: winner?.resolver ?? null },
      new Date().toISOString(),
    );
    if (!winner) {
      port.waitUntil(port.db.batch(counts).catch((e: unknown) => console.error(String(e))));
      markStored(false);
      return noOffers(replies, online.length, "No resolver offered a price that could win.");
    }

    const amounts = quoteAmounts({ sellAmount, outputAmount: winner.bid.outputAmount, feeBps, gas });
    if (!amounts) throw new Error("a valid bid must cover the fees");
    if (!adapter.takerSigning) throw new Error(`chain ${chain.chainId} has no taker signing`);
    const signing = adapter.takerSigning(terms, { resolver: winner.resolver, amounts });
    const quotedAt = Date.now();
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
      offersHash: offersHash(ranking.offers),
      band: port.band,
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
      },
    };
    const offers = ranking.offers.map(({ bid, ...offer }) => ({ ...offer, signature: bid.signature }));
    const timeline = [
      { at: new Date(input.requestedAt).toISOString(), event: "requested" as const, detail: null },
      { at: quote.quotedAt, event: "quoted" as const, detail: { latencyMs: quotedAt - input.requestedAt } },
    ];
    try {
      await port.db.batch([...insertQuoteStatements(port.db, quote, offers, timeline), ...counts]);
    } finally {
      markStored(true);
    }
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
    };
  }

  /** Whether `rfqId` is an auction of this corridor, open or recently closed. */
  isLive(rfqId: string): boolean {
    return this.live.has(rfqId);
  }

  /** Whether `node` was asked in the live auction `rfqId`. */
  asked(rfqId: string, node: string): boolean {
    return this.live.get(rfqId)?.auction.asked.has(lower(node)) ?? false;
  }

  /** A node's bid: counted once, checked (window, inventory, fees, signature) and kept if valid. */
  onBid(port: CorridorPort<S>, node: AuctionNode<S>, frame: BidFrame): void {
    const live = this.live.get(frame.rfqId);
    const address = lower(node.address);
    if (!live) {
      port.send(node.socket, errorFrame("unknown_rfq", `no live rfq ${frame.rfqId}`));
      return;
    }
    const now = Date.now();
    const claim = live.auction.claim(address, now);
    if (claim !== "ok") {
      port.send(node.socket, errorFrame(claimError[claim], claimMessage[claim]));
      if (claim === "late") this.recordLate(port, live);
      return;
    }
    const latencyMs = live.auction.latency(address, now);
    const outputAmount = BigInt(frame.outputAmount);
    const chain = live.terms.chain;
    const feeBps = chain.fee.bps;
    const amounts = quoteAmounts({ sellAmount: live.terms.sellAmount, outputAmount, feeBps, gas: live.gas });
    const reason: keyof typeof rejectMessage | null =
      frame.expiresAt !== undefined && frame.expiresAt <= now
        ? "expired_bid"
        : !amounts
          ? "below_fees"
          : !hasInventory(node, chain.chainId, live.terms.buyToken, outputAmount)
            ? "insufficient_inventory"
            : null;
    const signed = !reason && amounts && port.adapter.verifyBid(live.terms, outputAmount, node, frame.signature);
    if (!signed || !amounts) {
      const code = reason ?? "bad_signature";
      live.auction.reject(address);
      port.send(node.socket, errorFrame(code, rejectMessage[code]));
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
  onMalformed(port: CorridorPort<S>, node: AuctionNode<S>, rfqId: string, message: string): void {
    const live = this.live.get(rfqId);
    if (live?.auction.claim(lower(node.address), Date.now()) === "ok") live.auction.reject(lower(node.address));
    port.send(node.socket, errorFrame("bad_frame", message));
  }

  onDecline(port: CorridorPort<S>, node: AuctionNode<S>, frame: DeclineFrame): void {
    const live = this.live.get(frame.rfqId);
    if (!live) {
      port.send(node.socket, errorFrame("unknown_rfq", `no live rfq ${frame.rfqId}`));
      return;
    }
    const claim = live.auction.claim(lower(node.address), Date.now());
    if (claim === "ok") live.auction.decline();
    else if (claim === "late") this.recordLate(port, live);
    else port.send(node.socket, errorFrame(claimError[claim], claimMessage[claim]));
  }

  /** A reply after the close: the stored quote's `replies` are brought up to date. */
  private recordLate(port: CorridorPort<S>, live: Live<S>): void {
    const replies = live.auction.replies();
    port.waitUntil(
      live.stored.then((stored) =>
        stored
          ? port.db
              .prepare("UPDATE quotes SET replies = ? WHERE quote_id = ?")
              .bind(JSON.stringify(replies), live.quoteId)
              .run()
          : undefined,
      ),
    );
  }

  private sendResults(port: CorridorPort<S>, live: Live<S>, offers: readonly RankedOffer[]): void {
    const rankOf = new Map(offers.map((o) => [lower(o.resolver), o]));
    for (const address of live.auction.bidders) {
      const node = live.nodes.get(address);
      if (!node) continue;
      const offer = rankOf.get(address);
      port.send(node.socket, {
        type: "result",
        rfqId: live.auction.rfqId,
        won: offer?.won ?? false,
        rank: offer?.rank ?? null,
      });
    }
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
  insufficient_inventory: "the last heartbeat does not show enough balance and allowance",
  bad_signature: "the signature is not the node's over the rfq's toSign",
} as const;

const errorFrame = (code: string, message: string): RelayFrame => ({ type: "error", code, message });

function noOffers(replies: Replies, nodesOnline: number, message: string): Refusal {
  return refuse(404, "no_offers", message, { replies, nodesOnline });
}

/** Whether a node's last heartbeat shows `atLeast` of the buy token in both balance and allowance. */
function hasInventory(
  node: { inventory: readonly InventoryEntry[] },
  chainId: number,
  token: string,
  atLeast = 1n,
): boolean {
  const entry = node.inventory.find((i) => i.chainId === chainId && lower(i.token) === lower(token));
  return entry !== undefined && BigInt(entry.balance) >= atLeast && BigInt(entry.allowance) >= atLeast;
}

/** Commits to the auction's valid offers: who bid what, with which signature, in rank order. */
function offersHash(offers: readonly RankedOffer[]): string {
  return keccak256(stringToBytes(JSON.stringify(offers.map((o) => [o.resolver, o.outputAmount, o.bid.signature]))));
}
