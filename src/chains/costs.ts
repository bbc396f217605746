/**
 * What a fill costs the keeper on a chain, from inputs kept fresh in the background (docs/api.md, "The
 * gas fee"). The corridor asks each quote's cost here and converts it into the charged token
 * with the oracle's native price (src/costs/gas-fee.ts).
 */

import type { FillKind } from "../types";

/** One fill to price. */
export interface FillToPrice {
  kind: FillKind;
  /** The median gas the chain's last settled fills of this kind used (EVM), or null when none is known. */
  units: bigint | null;
  sellToken: string;
  buyToken: string;
  /**
   * Who receives the buy token: on Solana, whether its token account exists decides a rent. Null for an
   * indicative price (`GET /v1/prices`), which has no recipient and charges as if its account existed.
   */
  recipient: string | null;
  /** The makers whose legs it fills; one when absent. On Solana each further maker adds its signature (docs/legs.md). */
  legs?: number;
}

/** A fill's cost in the chain's native units (wei, lamports), and when the oldest input was read (unix ms). */
export interface NativeCost {
  native: bigint;
  at: number;
}

export interface ChainCosts {
  /** Decimals of the chain's native unit (EVM 18, Solana 9). */
  readonly nativeDecimals: number;
  /** Starts a background read of the inputs if one is due; settles when it does. Never awaited on a quote's path. */
  keepFresh(now: number): Promise<void>;
  /** What the fill would cost now, from the inputs held; null when one is missing. */
  fillCost(fill: FillToPrice, now: number): Promise<NativeCost | null>;
  /**
   * Starts a background read of what decides how `taker`'s fill of `token` will be sent (EVM: its Permit2
   * allowance), if one is due; settles when it does. Never awaited on a quote's path.
   */
  keepTakerFresh(taker: string, token: string, now: number): Promise<void>;
  /**
   * Whether `taker`'s fill paying `takerPays` of `token` will carry a permit, from what was last read (EVM:
   * an EIP-2612 permit when Permit2 may not pull it; docs/settlement.md, "The gas of each kind of fill");
   * null when that is not known. A chain without permits answers false.
   */
  carriesPermit(taker: string, token: string, takerPays: bigint, now: number): boolean | null;
  /**
   * The protocol fee, in bps of the output, that the chain's own contracts charge for `token` (EVM: the
   * FeeController's), as last read; null when not read yet (the configured bps then stand).
   */
  feeBps(token: string): number | null;
}
