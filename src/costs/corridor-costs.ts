import type { QuoteGasCharge } from "../auction";
import type { ChainCosts, FillToPrice } from "../chains";
import { adapterFor, costsFor, type GasCharge, gasChargeFor, KeptInput } from "../chains";
import type { ChainConfig } from "../config";
import { recentGasUsed } from "../db";
import { log } from "../log";
import type { FillKind } from "../types";
import { type ChargedGasFee, chargedGasFee, medianOf } from "./gas-fee";

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
  /** The configured gas units of each kind, until the chain has settled fills of it. */
  seedUnits: Record<FillKind, bigint>;
  /** The median `gasUsed` of the chain's last settled fills of `kind` (D1), or null when there are none. */
  readUnits(kind: FillKind): Promise<bigint | null>;
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

/** A fill to price outside an auction (`CorridorDO.gasFeeNow`). */
export type GasFeeAsk = Omit<FillToPrice, "units">;

/**
 * What a corridor's fills cost (docs/api.md, "The gas fee"): the chain's inputs (src/chains/costs.ts),
 * the median gas of recent fills and the oracle's native prices, each kept fresh in the background by
 * `keepFresh` (called on node heartbeats and on each quote), so a quote only reads what is held.
 */
export class CorridorCosts {
  /** The median gas of each kind's recent fills (null: none yet), read each on its own. */
  private readonly units: Record<FillKind, KeptInput<bigint | null>>;
  private readonly rates: KeptInput<NativeRates | null>;

  constructor(private readonly deps: CorridorCostsDeps) {
    const unitsOf = (kind: FillKind) =>
      new KeptInput(
        () => deps.readUnits(kind),
        UNITS_EVERY_MS,
        (e) => log.error("gas_units_failed", { kind, error: String(e) }),
      );
    this.units = { rfq: unitsOf("rfq"), limit: unitsOf("limit") };
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
      units.limit.refresh(now),
      rates.refresh(now),
    ];
    const all = Promise.all(reads).then(() => {});
    this.deps.waitUntil(all);
    return all;
  }

  /** The gas units a fill of `kind` is priced at: the recent median, or the configured seed. */
  unitsOf(kind: FillKind): bigint {
    return this.units[kind].current()?.value ?? this.deps.seedUnits[kind];
  }

  /** The gas fee of one fill charged in `token`, priced from what is held or `fallback`, with the rate used. */
  private async gasFee(
    fill: Omit<FillToPrice, "units">,
    token: string,
    fallback: bigint,
    now: number,
  ): Promise<ChargedGasFee & { nativePrice: number | null }> {
    const { deps } = this;
    const cost = await deps.costs.fillCost({ ...fill, units: this.unitsOf(fill.kind) }, now);
    const price = this.rates.current()?.value?.tokens.find((t) => deps.sameAddress(t.token, token)) ?? null;
    const inputs = {
      cost,
      price,
      nativeDecimals: deps.costs.nativeDecimals,
      tokenDecimals: deps.tokenDecimals(token),
    };
    const charged = chargedGasFee(inputs, fallback, now);
    return { ...charged, nativePrice: charged.source === "priced" ? (price?.rate ?? null) : null };
  }

  /**
   * A fill's gas charge on its side of the swap, priced from what is held, or the configured fallback; a
   * limit fill's never above the `maxGasFee` its taker signed (`cap`).
   */
  async charge(fill: GasFeeAsk, now: number, cap?: bigint): Promise<QuoteGasCharge> {
    const fallback = this.deps.fallbackCharge(fill.sellToken, fill.buyToken);
    const priced = await this.gasFee(fill, fallback.token, fallback.amount, now);
    const amount = cap !== undefined && priced.amount > cap ? cap : priced.amount;
    return { ...fallback, amount, source: priced.source, nativePrice: priced.nativePrice };
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
  const units = "units" in chain.gasFee ? chain.gasFee.units : { rfq: 0, limit: 0 };
  return new CorridorCosts({
    costs: costsFor(chain),
    seedUnits: { rfq: BigInt(units.rfq), limit: BigInt(units.limit) },
    readUnits: async (kind) => medianOf(await recentGasUsed(deps.db, chain.chainId, kind)),
    readRates: deps.readRates,
    fallbackCharge: (sellToken, buyToken) => gasChargeFor(chain.gasFee, sellToken, buyToken, adapter.sameAddress),
    configuredFeeBps: chain.fee.bps,
    tokenDecimals: (token) => adapter.token(token)?.decimals ?? 0,
    sameAddress: adapter.sameAddress,
    waitUntil: deps.waitUntil,
  });
}
