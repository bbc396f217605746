import { keccak256, type PrivateKeyAccount, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { CorridorPort, LadderBid } from "../../src/auction/corridor-port";
import { AuctionHouse } from "../../src/auction/house";
import { LiveBook } from "../../src/auction/live-book";
import type { AuctionStore, StoredOffer } from "../../src/auction/store";
import { adapterFor } from "../../src/chains";
import type { ChainAdapter } from "../../src/chains/adapter";
import { findCorridor } from "../../src/chains/corridor-keys";
import type { ChainCosts } from "../../src/chains/costs";
import { completeToSign, eip712ToSign } from "../../src/chains/evm/json-typed-data";
import { gasChargeFor } from "../../src/chains/fee-charge";
import { localConfig } from "../../src/config/local";
import type { RelayConfig } from "../../src/config/schema";
import { CorridorCosts, type NativeRates } from "../../src/costs/corridor-costs";
import type { QuoteRow } from "../../src/db/quotes";
import type { NodeSession } from "../../src/nodes/nodes";
import type { BidFrame, DeclineFrame, SignedFrame } from "../../src/protocol/node-frames";
import type { RelayFrame, RfqFrame } from "../../src/protocol/relay-frames";
import type { AuctionCounts } from "../../src/resolvers/reliability";
import type { Band, Replies, TimelineEntry } from "../../src/schemas/quote";
import type { QuoteInput } from "../../src/types";
import { FakeClock } from "./fake-clock";

/** The house's wait for the taker's answer to have left, before its per-bidder work (src/auction/house.ts). */
const AFTER_ANSWER_MS = 50;

/** anvil's dev accounts 1–4: well-known keys that hold nothing of value. */
const NODE_KEYS = [
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
] as const;

const evm = (() => {
  const chain = localConfig.chains.find((c) => c.kind === "evm");
  if (!chain) throw new Error("the local configuration has no EVM chain");
  return chain;
})();
const tokenOf = (symbol: string) => evm.tokens.find((t) => t.symbol === symbol)?.address as string;
export const CNGN = tokenOf("cNGN");
export const USDC = tokenOf("USDC");
export const TAKER = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";

/**
 * A band at 1580 NGN per USD (1575 to 1590): selling 1580 cNGN implies 1 USDC, and the guard lets a bid
 * offer from 0.964767 USDC (1580 / (1590 × 1.03)) to 1.034201 USDC (1580 / (1575 × 0.97)). The fake
 * corridor dates it when it is built, so it is fresh.
 */
export const BAND: Band = { base: "USD", quote: "NGN", mid: 1580, low: 1575, high: 1590, sources: 3, at: 0 };

/** A connected node: its session as the corridor shows it, its key, and every frame the relay sent it. */
export class FakeNode {
  readonly frames: RelayFrame[] = [];
  private waiters: (() => void)[] = [];

  constructor(
    readonly session: NodeSession,
    readonly account: PrivateKeyAccount,
  ) {}

  receive(frame: RelayFrame): void {
    this.frames.push(frame);
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** The frames of one type sent so far. */
  sent<T extends RelayFrame["type"]>(type: T): Extract<RelayFrame, { type: T }>[] {
    return this.frames.filter((f): f is Extract<RelayFrame, { type: T }> => f.type === type);
  }

  /** The latest frame of `type`, waiting for one when none was sent yet (the test's timeout ends a wait in vain). */
  async next<T extends RelayFrame["type"]>(type: T): Promise<Extract<RelayFrame, { type: T }>> {
    return (await this.sentAtLeast(type, 1)).at(-1) as Extract<RelayFrame, { type: T }>;
  }

  /** The frames of `type` once at least `count` were sent, waiting for them as `next` does. */
  async sentAtLeast<T extends RelayFrame["type"]>(type: T, count: number): Promise<Extract<RelayFrame, { type: T }>[]> {
    for (;;) {
      const sent = this.sent(type);
      if (sent.length >= count) return sent;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Its signature over the rfq's `toSign` with `outputAmount`, as the reference resolver makes it. */
  signBid(rfq: RfqFrame, outputAmount: bigint, signer: PrivateKeyAccount = this.account): Promise<string> {
    const typed = completeToSign(eip712ToSign(rfq.toSign), outputAmount);
    return signer.signTypedData(typed as Parameters<PrivateKeyAccount["signTypedData"]>[0]);
  }
}

export interface StoredQuote {
  quote: QuoteRow;
  offers: StoredOffer[];
  timeline: TimelineEntry[];
}

/** The auction store in memory. */
export class MemoryStore implements AuctionStore {
  readonly quotes = new Map<string, StoredQuote>();
  readonly counts: AuctionCounts[] = [];

  async store(quote: QuoteRow, offers: StoredOffer[], timeline: TimelineEntry[], counts: AuctionCounts) {
    this.quotes.set(quote.quoteId, { quote, offers, timeline });
    this.counts.push(counts);
  }

  async count(counts: AuctionCounts) {
    this.counts.push(counts);
  }

  async storeReplies(quoteId: string, replies: Replies) {
    const stored = this.quotes.get(quoteId);
    if (stored) stored.quote = { ...stored.quote, replies };
  }

  /** Every correction the house made, in order. */
  readonly corrections: { quoteId: string; offers: StoredOffer[]; replies: Replies; offersHash: string }[] = [];

  async correctOffers(quoteId: string, offers: StoredOffer[], replies: Replies, offersHash: string) {
    this.corrections.push({ quoteId, offers, replies, offersHash });
    const stored = this.quotes.get(quoteId);
    if (stored) this.quotes.set(quoteId, { ...stored, quote: { ...stored.quote, replies, offersHash }, offers });
  }
}

export interface FakeCorridorOptions {
  /** Node names, in the order of the dev keys (past the fourth, keys 0x…05, 0x…06 and so on). */
  nodes?: string[];
  rfqWindowMs?: number;
  /** The most nodes an rfq asks (`limits.maxNodesPerRfq`); the default unless given. */
  maxNodesPerRfq?: number;
  band?: Band | null;
  /** Names of the nodes whose resolvers are demoted. */
  demoted?: string[];
  /** Reliability by node name, of the nodes that have one. */
  reliability?: Record<string, number>;
  /** The chain adapter; the local EVM chain's real adapter unless given (e.g. with a winner hook). */
  adapter?: (real: ChainAdapter) => ChainAdapter;
  /** What each named node holds of USDC by the corridor's on-chain read; unnamed nodes: what they claim. */
  chainHoldings?: Record<string, bigint>;
  /** When the corridor's last on-chain read of a node started, by name (none: no read yet). */
  readAt?: Record<string, number>;
  /** The chain's fill costs; none read (every gas fee the fallback) unless given. */
  chainCosts?: ChainCosts;
  /** The oracle's native prices; none unless given. */
  rates?: NativeRates;
  /** What each named node's fresh price ladder pays for any amount; unnamed nodes stream none. */
  ladders?: Record<string, bigint>;
}

/** A chain whose inputs are never read: every quote charges the configured fallback gas fee. */
const unreadCosts: ChainCosts = {
  nativeDecimals: 18,
  keepFresh: async () => {},
  fillCost: async () => null,
  feeBps: () => null,
  keepTakerFresh: async () => {},
  carriesPermit: () => null,
};

/**
 * A corridor for the auction house without a Durable Object: in-memory nodes on the local EVM corridor
 * (cNGN/USDC), each heartbeated, quoting, with 5000 USDC; the real EVM adapter and an in-memory store.
 */
export function fakeCorridor(options: FakeCorridorOptions = {}) {
  const limits = { ...localConfig.limits, maxNodesPerRfq: options.maxNodesPerRfq ?? localConfig.limits.maxNodesPerRfq };
  const config: RelayConfig = { ...localConfig, rfqWindowMs: options.rfqWindowMs ?? 500, limits };
  const corridor = findCorridor(config, evm.chainId, CNGN, USDC);
  if (!corridor) throw new Error("no local EVM corridor");
  const real = adapterFor(corridor.chain);
  const adapter = options.adapter ? options.adapter(real) : real;
  const store = new MemoryStore();
  const pending: Promise<unknown>[] = [];
  const nodes = (options.nodes ?? ["alpha", "beta"]).map((name, i) => {
    // Past the four dev accounts, a key of the node's own.
    const account = privateKeyToAccount(NODE_KEYS[i] ?? keccak256(toHex(`fake node ${i}`)));
    const balance = "5000000000";
    return new FakeNode(
      {
        address: account.address,
        publicKey: account.publicKey,
        ed25519Key: null,
        name,
        version: "1.0.0",
        region: null,
        signerType: "keyfile",
        corridor: { chainId: evm.chainId, baseToken: USDC, quoteToken: CNGN },
        connectedAt: Date.now(),
        lastHeartbeat: Date.now(),
        state: "quoting",
        degraded: null,
        inventory: [{ chainId: evm.chainId, token: USDC, balance, allowance: balance }],
        chains: [],
      },
      account,
    );
  });
  const band = options.band === undefined ? { ...BAND, at: Date.now() } : options.band;
  const assets: Record<string, string> = { [CNGN.toLowerCase()]: "NGN", [USDC.toLowerCase()]: "USD" };
  const strikes: { address: string; event: string; why: string }[] = [];
  const ladderBids: { bids: LadderBid[] }[] = [];
  const nameOf = (address: string) =>
    nodes.find((n) => n.session.address.toLowerCase() === address.toLowerCase())?.session.name;
  const send = (address: string, frame: RelayFrame) => {
    for (const n of nodes) if (n.session.address.toLowerCase() === address.toLowerCase()) n.receive(frame);
  };
  const port: CorridorPort = {
    config,
    corridor,
    adapter,
    band: { current: () => band },
    assetOf: (token) => assets[token.toLowerCase()] ?? null,
    nodes: {
      list: () => nodes.map((n) => n.session),
      send,
      sendToEach: (addresses, frame) => {
        for (const address of addresses) send(address, frame);
      },
      covers: (address, _token, atLeast) => {
        const name = nameOf(address);
        const held = name === undefined ? undefined : options.chainHoldings?.[name];
        return held === undefined || held >= atLeast;
      },
      readAt: (address) => options.readAt?.[nameOf(address) ?? ""] ?? null,
    },
    standing: {
      get: async () => ({
        demoted: new Set(
          nodes.filter((n) => options.demoted?.includes(n.session.name)).map((n) => n.session.address.toLowerCase()),
        ),
        reliability: new Map(
          nodes.flatMap((n) => {
            const r = options.reliability?.[n.session.name];
            return r === undefined ? [] : [[n.session.address.toLowerCase(), r] as const];
          }),
        ),
      }),
      strike: async (address, event, why) => {
        strikes.push({ address, event, why });
      },
    },
    ladders: {
      ladderAt: (address) => options.ladders?.[nameOf(address) ?? ""] ?? null,
      sampled: (bids) => {
        ladderBids.push({ bids: [...bids] });
      },
    },
    store,
    waitUntil: (p) => {
      pending.push(p);
    },
    costs: new CorridorCosts({
      costs: options.chainCosts ?? unreadCosts,
      seedUnits: { rfq: 180_000n, limit: 220_000n, permit: 90_000n },
      readUnits: async () => null,
      readRates: async () => options.rates ?? null,
      fallbackCharge: (sellToken, buyToken) =>
        gasChargeFor(corridor.chain.gasFee, sellToken, buyToken, adapter.sameAddress),
      configuredFeeBps: corridor.chain.fee.bps,
      tokenDecimals: (token) => adapter.token(token)?.decimals ?? 0,
      sameAddress: adapter.sameAddress,
      waitUntil: (p) => {
        pending.push(p);
      },
    }),
  };
  const clock = new FakeClock();
  const house = new AuctionHouse(port, clock, new LiveBook());
  const node = (name: string) => {
    const found = nodes.find((n) => n.session.name === name);
    if (!found) throw new Error(`no node ${name}`);
    return found;
  };
  return {
    config,
    house,
    /** The house's clock: its windows and waits run as the test advances it. */
    clock,
    store,
    /** The strikes the house gave, in order. */
    strikes,
    /** The asked nodes the house measured against their ladders, per auction (a bid of 0: honoured nothing). */
    ladderBids,
    nodes,
    node,
    /** Every background write the house handed to `waitUntil`, settled, once the answer's wait has passed. */
    settled: async () => {
      await clock.advance(AFTER_ANSWER_MS);
      return Promise.all(pending);
    },
    /** A frame from node `name`, as the corridor's nodes hand an auction's reply to the house. */
    reply(name: string, frame: BidFrame | DeclineFrame | SignedFrame) {
      house.onReply({ node: node(name).session, frame });
    },
    /** Sends a signed bid from `name` for its latest rfq. */
    async bid(name: string, outputAmount: bigint, over: Partial<BidFrame> = {}) {
      const n = node(name);
      const rfq = await n.next("rfq");
      const signature = await n.signBid(rfq, outputAmount);
      house.onReply({
        node: n.session,
        frame: {
          type: "bid",
          rfqId: rfq.rfqId,
          outputAmount: outputAmount.toString(),
          signature,
          ...over,
        },
      });
    },
    async decline(name: string) {
      const n = node(name);
      const rfq = await n.next("rfq");
      house.onReply({ node: n.session, frame: { type: "decline", rfqId: rfq.rfqId, reason: "no_inventory" } });
    },
  };
}

/** A quote request for 1580 cNGN → USDC: the band's mid implies 1 USDC. */
/** A limit order's round selling 1580 cNGN whose recipient must get at least `minOut` USDC base units. */
/** A limit order's round asking `minOut` for the recipient at the taker's price `limitAmount` (default 1 USDC). */
export const limitRound = (minOut: string, limitAmount = "1000000"): QuoteInput["limit"] => ({
  limitOrderId: "lo_test",
  order: {
    taker: TAKER,
    recipient: TAKER,
    sellToken: CNGN,
    buyToken: USDC,
    sellAmount: "1580000000",
    minOut,
    gasFeeToken: USDC,
    maxGasFee: "150000",
    deadline: "1900000000",
  },
  nonce: "77",
  minOut,
  limitAmount,
});

export const quoteInput = (over: Partial<QuoteInput> = {}): QuoteInput => ({
  chainId: evm.chainId,
  sellToken: CNGN,
  buyToken: USDC,
  sellAmount: "1580000000",
  taker: TAKER,
  recipient: TAKER,
  requestedAt: Date.now(),
  ...over,
});
