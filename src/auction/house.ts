import { keccak256, stringToBytes } from "viem";
import type { ChainAdapter, ProvedKeys, RfqTerms } from "../chains/adapter";
import type { RelayConfig } from "../config/schema";
import type { Corridor } from "../corridors";
import type { AuctionStore } from "../db/auction-store";
import type { QuoteRow } from "../db/quotes";
import { type Refusal, refuse } from "../errors";
import { newId } from "../ids";
import type { BidFrame, DeclineFrame, InventoryEntry, NodeState, RelayFrame, SignedFrame } from "../protocol/frames";
import type { BandValue, QuoteRecord, Replies } from "../schemas/quote";
import { type GasCharge, gasChargeFor, type QuoteAmounts, quoteAmounts } from "./amounts";
import { Auction } from "./auction";
import { minOutputFromBand } from "./band-guard";
import type { QuoteInput } from "./quote-input";
import { type RankedOffer, rankBids } from "./rank";

/** How long a closed auction is remembered, so that its late replies are counted on the quote. */
const REMEMBER_CLOSED_MS = 30_000;
/** Grace between a quote's expiry and the on-chain deadline, so a fill broadcast just before expiry still lands. */
const DEADLINE_GRACE_SECONDS = 60;
/** How long a winner has to answer `sign` with `signed` on a chain where it signs after the auction. */
export const WINNER_SIGN_MS = 500;

/** An authenticated node as the auction sees it: its proved keys, its standing, its inventory. */
export interface AuctionNode<S> extends ProvedKeys {
  socket: S;
  name: string;
  fresh: boolean;
  state: NodeState;
  inventory: readonly InventoryEntry[];
}

/** What the auction needs from its corridor object; built once per object. */
export interface CorridorPort<S> {
  config: RelayConfig;
  corridor: Corridor;
  adapter: ChainAdapter;
  /** The corridor's band now. */
  band(): BandValue | null;
  /** The band assets (e.g. USD, NGN) the corridor's tokens track, for the band guard. */
  assetOf(token: string): string | null;
  nodes(): AuctionNode<S>[];
  send(socket: S, frame: RelayFrame): void;
  /** Lowercase addresses of resolvers demoted now. */
  demoted(): Promise<ReadonlySet<string>>;
  store: AuctionStore;
  waitUntil(p: Promise<unknown>): void;
}

export type QuoteOutcome = { kind: "quoted"; quote: QuoteRecord; signing: Record<string, unknown> } | Refusal;

interface Live<S> {
  auction: Auction;
  terms: RfqTerms;
  gas: GasCharge;
  nodes: Map<string, AuctionNode<S>>;
  /** Settles once the quote is stored (true) or the auction ended without one, so late replies know. */
  stored: Promise<boolean>;
  /** The winner's `signed` answer awaited now, by address. */
  signing: Map<string, (signature: string) => void>;
}

const lower = (a: string) => a.toLowerCase();

/**
 * A corridor's auctions (docs/resolver-protocol.md): asks its nodes, checks their replies, ranks, asks the
 * winner to sign where the chain wants that, and stores the winning quote. All I/O goes through the port.
 */
export class AuctionHouse<S> {
  private readonly live = new Map<string, Live<S>>();

  constructor(private readonly port: CorridorPort<S>) {}

  async requestQuote(input: QuoteInput): Promise<QuoteOutcome> {
    const port = this.port;
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
    const online = port.nodes().filter((n) => n.fresh);
    const eligible = online.filter(
      (n) => n.state === "quoting" && adapter.bidKey(n) !== null && hasInventory(adapter, n, input.buyToken),
    );
    const emptyReplies: Replies = { valid: 0, rejected: 0, declined: 0, noReply: 0, late: 0 };
    if (eligible.length === 0) return noOffers(emptyReplies, online.length, "No resolver can quote this pair now.");

    const sentAt = Date.now();
    const auction = new Auction(rfqId, new Map(eligible.map((n) => [lower(n.address), sentAt])), config.rfqWindowMs);
    let markStored: (ok: boolean) => void = () => {};
    const live: Live<S> = {
      auction,
      terms,
      gas,
      nodes: new Map(eligible.map((n) => [lower(n.address), n])),
      stored: new Promise((resolve) => {
        markStored = resolve;
      }),
      signing: new Map(),
    };
    this.live.set(rfqId, live);
    const band = port.band();
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
      fee: { token: input.buyToken, bps: chain.fee.bps },
      gasFee: { token: gas.token, amount: gas.amount.toString() },
      band,
      toSign: adapter.bidToSign(terms),
    };
    for (const n of eligible) port.send(n.socket, frame);
    const timer = setTimeout(() => auction.close(), config.rfqWindowMs);
    await auction.done;
    clearTimeout(timer);
    setTimeout(() => this.live.delete(rfqId), REMEMBER_CLOSED_MS);

    const demoted = await demotedPromise;
    const minOutput = minOutputFromBand({
      band,
      sellAsset: port.assetOf(input.sellToken),
      buyAsset: port.assetOf(input.buyToken),
      sellAmount,
      sellDecimals: adapter.token(input.sellToken)?.decimals ?? 0,
      buyDecimals: adapter.token(input.buyToken)?.decimals ?? 0,
      bandGuardBps: config.bandGuardBps,
    });
    const bids = auction.bids.map((b) => ({ ...b, demoted: demoted.has(lower(b.resolver)) }));
    const ranking = rankBids(bids, { bandGuardBps: config.bandGuardBps, minOutput });
    const amountsOf = (offer: RankedOffer) =>
      quoteAmounts({ sellAmount, outputAmount: offer.bid.outputAmount, feeBps: chain.fee.bps, gas });
    const winner = ranking.winner && (await this.confirmWinner(live, ranking.offers, amountsOf));
    const offers = ranking.offers.map((o) => withOutcome(o, winner?.offer ?? null));
    const replies = auction.replies();
    this.sendResults(live, offers);
    const tally = {
      asked: auction.asked.keys(),
      answered: new Set(auction.answered),
      winner: winner?.offer.resolver ?? null,
      at: new Date().toISOString(),
    };
    if (!winner || !adapter.takerSigning) {
      port.waitUntil(port.store.saveTally(tally).catch((e: unknown) => console.error(String(e))));
      markStored(false);
      return noOffers(replies, online.length, "No resolver offered a price that could win.");
    }

    const { offer, amounts, signature } = winner;
    const signing = adapter.takerSigning(terms, { resolver: offer.resolver, amounts });
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
      offersHash: offersHash(offers),
      band,
      quotedAt: new Date(quotedAt).toISOString(),
      expiresAt: new Date(expiresAt).toISOString(),
      resolver: { address: offer.resolver, name: offer.name },
      replies,
      steering: ranking.steering,
      settlement: null,
      signing: {
        ...signing,
        outputAmount: amounts.outputAmount.toString(),
        resolverSignature: signature,
        deadline: terms.deadline,
      },
    };
    const stored = offers.map(({ bid, ...o }) => ({ ...o, signature: bid.signature }));
    const timeline = [
      { at: new Date(input.requestedAt).toISOString(), event: "requested" as const, detail: null },
      { at: quote.quotedAt, event: "quoted" as const, detail: { latencyMs: quotedAt - input.requestedAt } },
    ];
    try {
      await port.store.saveQuote(quote, stored, timeline, tally);
    } finally {
      markStored(true);
    }
    const { signing: _signing, ...record } = quote;
    return {
      kind: "quoted",
      quote: { ...record, offers: stored.map(({ signature: _s, ...o }) => o), executions: [], fills: [], timeline },
      signing,
    };
  }

  /** Whether `rfqId` is an auction of this corridor, open or recently closed. */
  isLive(rfqId: string): boolean {
    return this.live.has(rfqId);
  }

  /** Whether a reply from `node` to `rfqId` would be its first to an rfq it was asked (not rate-limited). */
  awaits(rfqId: string, node: string): boolean {
    const auction = this.live.get(rfqId)?.auction;
    return (auction?.asked.has(lower(node)) ?? false) && !auction?.answered.has(lower(node));
  }

  /** A node's bid: counted once, checked (window, inventory, fees, signature) and kept if valid. */
  onBid(node: AuctionNode<S>, frame: BidFrame): void {
    const live = this.live.get(frame.rfqId);
    if (!live) {
      this.port.send(node.socket, errorFrame("unknown_rfq", `no live rfq ${frame.rfqId}`));
      return;
    }
    const address = lower(node.address);
    const now = Date.now();
    const claim = live.auction.claim(address, now);
    if (claim !== "ok") {
      this.port.send(node.socket, errorFrame(claimError[claim], claimMessage[claim]));
      if (claim === "late") this.recordLate(live);
      return;
    }
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
          : !hasInventory(this.port.adapter, node, live.terms.buyToken, outputAmount)
            ? "insufficient_inventory"
            : !this.port.adapter.verifyBid(live.terms, outputAmount, node, frame.signature)
              ? "bad_signature"
              : null;
    if (reason || !amounts) {
      live.auction.reject(address);
      this.port.send(node.socket, errorFrame(reason ?? "below_fees", rejectMessage[reason ?? "below_fees"]));
      return;
    }
    live.auction.accept(address, {
      resolver: node.address,
      name: node.name,
      outputAmount,
      received: amounts.received,
      latencyMs: live.auction.latency(address, now),
      reliability: null,
      demoted: false,
      signature: frame.signature,
    });
  }

  /** A reply to a live rfq that failed the frame schema: it is the node's reply, and it is rejected. */
  onMalformed(node: AuctionNode<S>, rfqId: string, message: string): void {
    const live = this.live.get(rfqId);
    if (live?.auction.claim(lower(node.address), Date.now()) === "ok") live.auction.reject(lower(node.address));
    this.port.send(node.socket, errorFrame("bad_frame", message));
  }

  onDecline(node: AuctionNode<S>, frame: DeclineFrame): void {
    const live = this.live.get(frame.rfqId);
    if (!live) {
      this.port.send(node.socket, errorFrame("unknown_rfq", `no live rfq ${frame.rfqId}`));
      return;
    }
    const claim = live.auction.claim(lower(node.address), Date.now());
    if (claim === "ok") live.auction.decline();
    else if (claim === "late") this.recordLate(live);
    else this.port.send(node.socket, errorFrame(claimError[claim], claimMessage[claim]));
  }

  /** The winner's answer to `sign`. */
  onSigned(node: AuctionNode<S>, frame: SignedFrame): void {
    const answer = this.live.get(frame.rfqId)?.signing.get(lower(node.address));
    if (answer) answer(frame.signature);
    else this.port.send(node.socket, errorFrame("unknown_rfq", `no rfq ${frame.rfqId} awaits a signature`));
  }

  /** A node's socket closed: in every open auction that asked it, it has no reply coming (`noReply`). */
  onGone(address: string): void {
    for (const live of this.live.values()) live.auction.drop(lower(address));
  }

  /**
   * The winner, with what it signed. On a chain whose winner signs after the auction (the adapter's
   * `winnerSignature`), the best bids that may win are asked in turn to sign within WINNER_SIGN_MS; the
   * first valid signature wins, and a bid whose node does not sign in time loses.
   */
  private async confirmWinner(
    live: Live<S>,
    offers: readonly RankedOffer[],
    amountsOf: (offer: RankedOffer) => QuoteAmounts | null,
  ): Promise<{ offer: RankedOffer; amounts: QuoteAmounts; signature: string } | null> {
    const hook = this.port.adapter.winnerSignature;
    for (const offer of offers.filter((o) => o.status === "won" || (hook && o.status === "lost"))) {
      const amounts = amountsOf(offer);
      if (!amounts) continue;
      if (!hook) return { offer, amounts, signature: offer.bid.signature };
      const node = live.nodes.get(lower(offer.resolver));
      if (!node) continue;
      const request = hook.request(live.terms, { resolver: offer.resolver, amounts });
      const signature = await this.askToSign(live, node, request);
      if (signature !== null && hook.verify(request, node, signature)) return { offer, amounts, signature };
    }
    return null;
  }

  private askToSign(live: Live<S>, node: AuctionNode<S>, transaction: string): Promise<string | null> {
    const address = lower(node.address);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(null), WINNER_SIGN_MS);
      const finish = (signature: string | null) => {
        clearTimeout(timer);
        live.signing.delete(address);
        resolve(signature);
      };
      live.signing.set(address, finish);
      this.port.send(node.socket, { type: "sign", rfqId: live.auction.rfqId, transaction });
    });
  }

  /** A reply after the close: the stored quote's `replies` are brought up to date. */
  private recordLate(live: Live<S>): void {
    const replies = live.auction.replies();
    const quoteId = live.terms.quoteId;
    this.port.waitUntil(
      live.stored.then((stored) => (stored ? this.port.store.saveReplies(quoteId, replies) : undefined)),
    );
  }

  private sendResults(live: Live<S>, offers: readonly RankedOffer[]): void {
    const rankOf = new Map(offers.map((o) => [lower(o.resolver), o]));
    for (const address of live.auction.bidders) {
      const node = live.nodes.get(address);
      if (!node) continue;
      const offer = rankOf.get(address);
      this.port.send(node.socket, {
        type: "result",
        rfqId: live.auction.rfqId,
        won: offer?.won ?? false,
        rank: offer?.rank ?? null,
      });
    }
  }
}

/** An offer as the auction ended: the confirmed winner won; a bid ranked to win that did not sign lost. */
function withOutcome(offer: RankedOffer, winner: RankedOffer | null): RankedOffer {
  const won = winner !== null && offer.resolver === winner.resolver;
  if (won === offer.won) return offer;
  return { ...offer, won, status: won ? "won" : "lost" };
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
  adapter: ChainAdapter,
  node: { inventory: readonly InventoryEntry[] },
  token: string,
  atLeast = 1n,
): boolean {
  const chainId = adapter.chain.chainId;
  const entry = node.inventory.find((i) => i.chainId === chainId && adapter.sameAddress(i.token, token));
  return entry !== undefined && BigInt(entry.balance) >= atLeast && BigInt(entry.allowance) >= atLeast;
}

/** Commits to the auction's valid offers: who bid what, with which signature, in rank order. */
function offersHash(offers: readonly RankedOffer[]): string {
  return keccak256(stringToBytes(JSON.stringify(offers.map((o) => [o.resolver, o.outputAmount, o.bid.signature]))));
}
