import { type LadderBid, type QuoteGasCharge, quoteAmounts } from "../auction";
import type { FeeCharge } from "../chains";
import { dayOf } from "../db";
import { type Refusal, refuse } from "../errors";
import { resolverKey } from "../ids";
import type { NodeSession } from "../nodes";
import type { LevelsFrame } from "../protocol";
import type { IndicativeLadder, IndicativePrice } from "../schemas";
import { bestLadder, bestOutput, type PricedLadder } from "./best-price";
import { bucketOf, LevelsHonesty } from "./honesty";
import { type BoundsAt, type LevelsRefusal, type Rung, slippageBps, withinBand } from "./ladder";
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
  /** The outputs a bid for `sellAmount` may win within by the band guard now (the auction's own); null when none steers. */
  bounds(sellToken: string, buyToken: string, sellAmount: bigint, now: number): { min: bigint; max: bigint } | null;
  /** Stores an auction's slippage samples, counted in their day's buckets (D1), behind the answer. */
  store(counts: LevelCount[]): void;
  /** The lowercase addresses the stored counts from `sinceDay` on leave out (D1), read behind the answers. */
  readSloppy(sinceDay: string): Promise<string[]>;
  waitUntil(p: Promise<unknown>): void;
}

/** What `GET /v1/prices` asks a corridor. */
export interface PriceAsk {
  chainId: number;
  sellToken: string;
  buyToken: string;
  sellAmount?: string;
}

/** Samples of a resolver on a UTC day in one slippage bucket (migrations/0020_level_days.sql). */
export interface LevelCount {
  resolver: string;
  day: string;
  bucketBps: number;
  samples: number;
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

  /**
   * An auction's samples, each node's bid against its ladder (src/auction/ladder-samples.ts): counted in
   * memory for the prices, and stored. A value of nothing measures nothing, and costs no other sample.
   */
  sampled(bids: readonly LadderBid[], now: number): void {
    const day = dayOf(new Date(now).toISOString());
    const counts = new Map<string, LevelCount>();
    for (const b of bids) {
      const bps = slippageBps(b.ladderOutput, b.outputAmount);
      if (bps === null) continue;
      const resolver = resolverKey(b.resolver);
      this.honesty.add(resolver, bps, now);
      const bucketBps = bucketOf(bps);
      const key = `${resolver}|${bucketBps}`;
      const count = counts.get(key) ?? { resolver, day, bucketBps, samples: 0 };
      count.samples++;
      counts.set(key, count);
    }
    if (counts.size) this.host.store([...counts.values()]);
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
    const inBand = bandCheck((amount) => this.host.bounds(sellToken, buyToken, amount, now));
    const ladders: PricedLadder[] = fresh.flatMap((l) => {
      const node = nodes.get(l.node);
      if (!node || demoted.has(l.node) || this.honesty.excluded(l.node, now) || !inBand(l.rungs)) return [];
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

/**
 * Whether a ladder is within the band guard (`withinBand`), the bounds of each amount worked out once per
 * answer: the ladders of a corridor's nodes mostly share their rung amounts.
 */
function bandCheck(boundsAt: BoundsAt): (rungs: readonly Rung[]) => boolean {
  const known = new Map<bigint, ReturnType<BoundsAt>>();
  const once: BoundsAt = (amount) => {
    if (!known.has(amount)) known.set(amount, boundsAt(amount));
    return known.get(amount) ?? null;
  };
  return (rungs) => withinBand(rungs, once);
}
