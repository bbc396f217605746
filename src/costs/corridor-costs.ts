import type { QuoteGasCharge } from "../auction";
import type { ChainCosts, FillToPrice } from "../chains";
import { adapterFor, costsFor, type GasCharge, gasChargeFor, KeptInput } from "../chains";
import type { ChainConfig } from "../config";
import { recentGasUsed } from "../db";
import { log } from "../log";
import type { FillKind } from "../types";
import { type FillShape, fillUnits, kindUnits, LEG_GAS } from "./fill-units";
import { type ChargedGasFee, chargedGasFee, fillGasOf } from "./gas-fee";

/** How often the median gas of recent fills is read again from D1. */
const UNITS_EVERY_MS = 60_000;
/** How often the native prices are asked of the oracle (it recomputes its bands every 10 s). */
const PRICES_EVERY_MS = 10_000;

/** Whole tokens per whole native unit, per token of the chain, as the oracle last gave them. */
export interface NativeRates {
  tokens: readonly { token: string; rate: number; at: number }[];
}

export interface CorridorCostsDeps {
  costs: ChainCosts;
  /**
   * The configured gas units of each kind, until the chain has settled fills of it; `permit`, what a permit
   * adds to an RFQ fill (`gasFee.units`).
   */
  seedUnits: Record<FillKind | "permit", bigint>;
  /**
   * The gas of the chain's last settled fills of `kind` (D1) that carried a permit (`permit` true), did not
   * (false) or either (null), as a fill is priced from them (`fillGasOf`); null when there are none.
   */
  readUnits(kind: FillKind, permit: boolean | null): Promise<bigint | null>;
  /** The native token's price in the chain's tokens (the oracle), or null when it has none. */
  readRates(): Promise<NativeRates | null>;
  /** The configured gas fee of a swap, on its side (`gasChargeFor`): what a fill falls back to. */
  fallbackCharge(sellToken: string, buyToken: string): GasCharge;
  /** The configured protocol fee's bps, standing until the chain's own is read. */
  configuredFeeBps: number;
  tokenDecimals(token: string): number;
  sameAddress(a: string, b: string): boolean;
  waitUntil(p: Promise<unknown>): void;
}

/** A fill to price: in an auction, for an indicative price, or outside them (`CorridorDO.gasFeeNow`). */
export type GasFeeAsk = Omit<FillToPrice, "units"> & {
  /**
   * An RFQ quote's taker and what it pays of the sell token before any gas fee: whether its fill will carry
   * a permit is read from them. Absent (an indicative price), the fill is priced as if it did.
   */
  payer?: { taker: string; paysBeforeGas: bigint };
  /** The makers whose legs the fill takes; one when not said (docs/settlement.md, "The gas of each kind of fill"). */
  legs?: number;
};

/** The recent medians a corridor keeps: an RFQ fill's plain and with a permit, a limit fill's. */
type MedianKey = "rfq" | "rfqPermit" | "limit";

/**
 * What a corridor's fills cost (docs/api.md, "The gas fee"): the chain's inputs (src/chains/costs.ts),
 * the median gas of recent fills and the oracle's native prices, each kept fresh in the background by
 * `keepFresh` (called on node heartbeats and on each quote), so a quote only reads what is held.
 */
export class CorridorCosts {
  /**
   * The median gas of each kind's recent fills (null: none yet), read each on its own. A limit fill's is
   * taken over all of them, with a permit or not (docs/settlement.md, "The gas of each kind of fill").
   */
  private readonly units: Record<MedianKey, KeptInput<bigint | null>>;
  private readonly rates: KeptInput<NativeRates | null>;

  constructor(private readonly deps: CorridorCostsDeps) {
    const unitsOf = (kind: FillKind, permit: boolean | null) =>
      new KeptInput(
        () => deps.readUnits(kind, permit),
        UNITS_EVERY_MS,
        (e) => log.error("gas_units_failed", { kind, permit, error: String(e) }),
      );
    this.units = { rfq: unitsOf("rfq", false), rfqPermit: unitsOf("rfq", true), limit: unitsOf("limit", null) };
    this.rates = new KeptInput(
      () => deps.readRates(),
      PRICES_EVERY_MS,
      (e) => log.error("native_prices_failed", { error: String(e) }),
    );
  }

  /**
   * Starts whatever read is due, each handed to `waitUntil`; the promise settles when they have (a quote
   * never waits for it; a limit draft does, `gasFeeNow`).
   */
  keepFresh(now: number): Promise<void> {
    const { units, rates } = this;
    const reads = [
      this.deps.costs.keepFresh(now),
      units.rfq.refresh(now),
      units.rfqPermit.refresh(now),
      units.limit.refresh(now),
      rates.refresh(now),
    ];
    const all = Promise.all(reads).then(() => {});
    this.deps.waitUntil(all);
    return all;
  }

  /**
   * The gas units a fill of `kind` sent as `shape` is priced at (`fillUnits`): each kind's recent median,
   * or its configured seed.
   */
  unitsFor(kind: FillKind, shape: FillShape): bigint {
    const { seedUnits } = this.deps;
    const median = (key: MedianKey) => this.units[key].current()?.value ?? null;
    if (kind === "limit") {
      const limit = median("limit") ?? seedUnits.limit;
      return fillUnits({ plain: limit, permit: limit }, shape);
    }
    const medians = { plain: median("rfq"), permit: median("rfqPermit") };
    return fillUnits(kindUnits(medians, { plain: seedUnits.rfq, permit: seedUnits.permit }), shape);
  }

  /** The gas fee of one fill charged in `token`, priced from what is held or `fallback`, with the rate used. */
  private async gasFee(
    fill: GasFeeAsk,
    shape: FillShape,
    token: string,
    fallback: bigint,
    now: number,
  ): Promise<ChargedGasFee & { nativePrice: number | null }> {
    const { deps } = this;
    const { kind, sellToken, buyToken, recipient } = fill;
    const units = this.unitsFor(kind, shape);
    const cost = await deps.costs.fillCost({ kind, sellToken, buyToken, recipient, units, legs: shape.legs }, now);
    // The configured fallback is one leg's: a fill of several makers falls back to it in proportion to its gas.
    const oneLeg = shape.legs > 1 ? this.unitsFor(kind, { ...shape, legs: 1 }) : units;
    const scaled = oneLeg > 0n ? (fallback * units) / oneLeg : fallback;
    const price = this.rates.current()?.value?.tokens.find((t) => deps.sameAddress(t.token, token)) ?? null;
    const inputs = {
      cost,
      price,
      nativeDecimals: deps.costs.nativeDecimals,
      tokenDecimals: deps.tokenDecimals(token),
    };
    const charged = chargedGasFee(inputs, scaled, now);
    return { ...charged, nativePrice: charged.source === "priced" ? (price?.rate ?? null) : null };
  }

  /**
   * A fill's gas charge on its side of the swap, priced from what is held, or the configured fallback; a
   * limit fill's never above the `maxGasFee` its taker signed (`cap`). Priced as the fill will be sent
   * (docs/settlement.md, "The gas of each kind of fill"): plain when the taker's allowance is known to
   * cover what it pays, else as the dearer kind.
   */
  async charge(fill: GasFeeAsk, now: number, cap?: bigint): Promise<QuoteGasCharge> {
    const fallback = this.deps.fallbackCharge(fill.sellToken, fill.buyToken);
    const legs = fill.legs ?? 1;
    const price = (permit: boolean | null) => this.gasFee(fill, { permit, legs }, fallback.token, fallback.amount, now);
    // A gas fee the taker pays in the sell token is part of what its allowance must cover: the plain one
    // first, the fill being plain only if the allowance covers that too.
    const plain = fallback.side === "sell" && fill.payer ? await price(false) : null;
    const permit = this.carriesPermit(fill, plain?.amount ?? 0n, now);
    const priced = permit === false && plain ? plain : await price(permit);
    const amount = cap !== undefined && priced.amount > cap ? cap : priced.amount;
    return { ...fallback, amount, source: priced.source, nativePrice: priced.nativePrice };
  }

  /**
   * Whether the fill will carry a permit, from the taker's allowance as last read (a read of it started in
   * the background, for the next quotes); `gasFromSell`, the plain fill's gas fee when the taker pays it
   * in the sell token. A limit fill is priced from all limit fills' median alike (false); a fill without
   * a known taker may (null).
   */
  private carriesPermit(fill: GasFeeAsk, gasFromSell: bigint, now: number): boolean | null {
    const { costs, waitUntil } = this.deps;
    if (fill.kind === "limit") return false;
    if (!fill.payer) return null;
    const { taker, paysBeforeGas } = fill.payer;
    waitUntil(costs.keepTakerFresh(taker, fill.sellToken, now));
    return costs.carriesPermit(taker, fill.sellToken, paysBeforeGas + gasFromSell, now);
  }

  /** The protocol fee in bps of the output in `buyToken`: the chain's own when read, else the configured. */
  feeBps(buyToken: string): number {
    return this.deps.costs.feeBps(buyToken) ?? this.deps.configuredFeeBps;
  }
}

/** A corridor's costs on its chain: the chain's reader (`costsFor`), D1's recent fills, the oracle's prices. */
export function corridorCostsOn(
  chain: ChainConfig,
  deps: { db: D1Database; readRates(): Promise<NativeRates | null>; waitUntil(p: Promise<unknown>): void },
): CorridorCosts {
  const adapter = adapterFor(chain);
  const units = "units" in chain.gasFee ? chain.gasFee.units : { rfq: 0, limit: 0, permit: 0 };
  return new CorridorCosts({
    costs: costsFor(chain),
    seedUnits: { rfq: BigInt(units.rfq), limit: BigInt(units.limit), permit: BigInt(units.permit) },
    // Each fill's gas as one leg's, where fills are priced in gas units: a fill of several makers is priced
    // from it with `LEG_GAS` a further leg (docs/legs.md).
    readUnits: async (kind, permit) =>
      fillGasOf(await recentGasUsed(deps.db, chain.chainId, kind, permit, "units" in chain.gasFee ? LEG_GAS : 0n)),
    readRates: deps.readRates,
    fallbackCharge: (sellToken, buyToken) => gasChargeFor(chain.gasFee, sellToken, buyToken, adapter.sameAddress),
    configuredFeeBps: chain.fee.bps,
    tokenDecimals: (token) => adapter.token(token)?.decimals ?? 0,
    sameAddress: adapter.sameAddress,
    waitUntil: deps.waitUntil,
  });
}
