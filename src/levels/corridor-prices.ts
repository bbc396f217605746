import { type LadderBid, type QuoteGasCharge, quoteAmounts } from "../auction";
import type { FeeCharge } from "../chains";
import { type Refusal, refuse } from "../errors";
import { resolverKey } from "../ids";
import type { NodeSession } from "../nodes";
import type { LevelsFrame } from "../protocol";
import type { IndicativeLadder, IndicativePrice } from "../schemas";
import { bestLadder, bestOutput, type PricedLadder } from "./best-price";
import { LevelsHonesty } from "./honesty";
import { type LevelsRefusal, type Rung, slippageBps } from "./ladder";
import { LadderBook, type LadderBookOptions } from "./ladder-book";

export interface CorridorPricesHost extends LadderBookOptions {
  /** The nodes an rfq buying `buyToken` would go to now: the auction's own eligibility. */
  eligible(buyToken: string, now: number): NodeSession[];
  /** Whether the node's heartbeat and the chain both show `amount` of `token` (the auction's inventory rule). */
  canDeliver(node: NodeSession, token: string, amount: bigint): boolean;
  /**
   * Lowercase addresses of the resolvers demoted now, from the standing the corridor holds, without a D1
   * read; null before the corridor has read its standing, when no ladder is served.
   */
  demoted(): ReadonlySet<string> | null;
  /** The protocol fee and the gas fee a quote of the pair would charge now (the auction's own). */
  charges(sellToken: string, buyToken: string, now: number): Promise<{ fee: FeeCharge; gas: QuoteGasCharge }>;
  /** Stores an auction's slippage samples (D1), behind the answer. */
  store(samples: LevelSample[]): void;
  /** The lowercase addresses the stored samples since `since` leave out (D1), read behind the answers. */
  readSloppy(since: number): Promise<string[]>;
  waitUntil(p: Promise<unknown>): void;
}

/** What `GET /v1/prices` asks a corridor. */
export interface PriceAsk {
  chainId: number;
  sellToken: string;
  buyToken: string;
  sellAmount?: string;
}

/** A stored slippage sample (migrations/0019_level_slippage.sql). */
export interface LevelSample {
  resolver: string;
  quoteId: string;
  slippageBps: number;
  at: number;
}

/**
 * A corridor's indicative prices (docs/api.md, "Indicative prices"): the ladders its nodes stream
 * (src/levels/ladder-book.ts), the honesty of each node's ladders against its firm bids
 * (src/levels/honesty.ts), and `GET /v1/prices` answered from memory, with the fees a quote would charge.
 */
export class CorridorPrices {
  private readonly book: LadderBook;
  private readonly honesty: LevelsHonesty;

  constructor(private readonly host: CorridorPricesHost) {
    this.book = new LadderBook(host);
    this.honesty = new LevelsHonesty((since) => host.readSloppy(since));
    // Read at once, so that an object that just started knows whom the stored samples leave out.
    this.refreshHonesty(Date.now());
  }

  receive(address: string, frame: LevelsFrame, now: number): { code: LevelsRefusal; message: string } | null {
    return this.book.receive(address, frame, now);
  }

  forget(address: string): void {
    this.book.forget(address);
  }

  /** What the node's fresh ladder pays for `sellAmount`: the snapshot an rfq takes as it goes out. */
  ladderAt(address: string, sellToken: string, buyToken: string, sellAmount: bigint, now: number): bigint | null {
    return this.book.outputAt(address, sellToken, buyToken, sellAmount, now);
  }

  /** The firm bids of an auction against their ladders: kept in memory for the prices, and stored. */
  sampled(quoteId: string, bids: readonly LadderBid[], now: number): void {
    const samples = bids.map((b) => {
      const bps = slippageBps(b.ladderOutput, b.outputAmount);
      this.honesty.add(resolverKey(b.resolver), bps, now);
      return { resolver: resolverKey(b.resolver), quoteId, slippageBps: bps, at: now };
    });
    this.host.store(samples);
  }

  /** The best indicative price of `sellAmount`, or without it the best ladder; 404 `no_prices` saying why. */
  async answer(ask: PriceAsk, now: number): Promise<IndicativePrice | IndicativeLadder | Refusal> {
    const { sellToken, buyToken } = ask;
    this.refreshHonesty(now);
    const fresh = this.book.fresh(sellToken, buyToken, now);
    if (fresh.length === 0) return noPrices("No resolver streams a fresh ladder for this pair now.");
    const demoted = this.host.demoted();
    if (!demoted) return noPrices("The corridor has not read its resolvers' standing yet; ask again shortly.");
    const nodes = new Map(this.host.eligible(buyToken, now).map((n) => [resolverKey(n.address), n]));
    const ladders: PricedLadder[] = fresh.flatMap((l) => {
      const node = nodes.get(l.node);
      if (!node || demoted.has(l.node) || this.honesty.excluded(l.node, now)) return [];
      // Rungs beyond what the node holds on chain are not prices it could fill.
      const rungs = l.rungs.filter((r) => this.host.canDeliver(node, buyToken, r.outputAmount));
      return rungs.length ? [{ node: l.node, rungs, at: l.at }] : [];
    });
    if (ladders.length === 0) return noPrices("No eligible resolver's ladder is fresh for this pair now.");
    const { fee, gas } = await this.host.charges(sellToken, buyToken, now);
    const gasFee = { token: gas.token, amount: gas.amount.toString(), source: gas.source };
    const point = (r: Rung) => {
      const amounts = quoteAmounts({ sellAmount: r.sellAmount, outputAmount: r.outputAmount, fee, gas });
      return amounts
        ? {
            sellAmount: r.sellAmount.toString(),
            buyAmount: r.outputAmount.toString(),
            received: amounts.received.toString(),
            fee: { token: fee.token, amount: amounts.fee.toString() },
          }
        : null;
    };
    const common = { chainId: ask.chainId, sellToken, buyToken, firm: false as const };
    if (ask.sellAmount === undefined) {
      const levels = bestLadder(ladders).flatMap((r) => point(r) ?? []);
      if (levels.length === 0) return noPrices("No eligible ladder pays more than the fees.");
      const at = new Date(Math.max(...ladders.map((l) => l.at))).toISOString();
      return { ...common, levels, gasFee, resolvers: ladders.length, at };
    }
    const sellAmount = BigInt(ask.sellAmount);
    const best = bestOutput(ladders, sellAmount);
    if (!best) return noPrices(`No eligible resolver's fresh ladder covers ${ask.sellAmount} now.`);
    const priced = point({ sellAmount, outputAmount: best.outputAmount });
    if (!priced) return noPrices(`The best ladder's output for ${ask.sellAmount} does not cover the fees.`);
    return { ...common, ...priced, gasFee, resolvers: best.covering, at: new Date(best.at).toISOString() };
  }

  /** Starts a read of the stored samples' verdict when one is due, behind the answer. */
  private refreshHonesty(now: number): void {
    const refreshed = this.honesty.refresh(now);
    if (refreshed) this.host.waitUntil(refreshed);
  }
}

const noPrices = (message: string): Refusal => refuse(404, "no_prices", message);
