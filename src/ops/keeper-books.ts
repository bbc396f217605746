import { medianOf, tokenToNative } from "../costs";
import type { SettledFillBooks } from "../db";

/** The window of the keeper's books in the health check (docs/operations.md, "Health"). */
export const BOOKS_WINDOW_MS = 24 * 60 * 60 * 1000;
/** At most this many of a window's fills are read, the newest; past it the books say `capped`. */
export const BOOKS_LIMIT = 2_000;

/** A chain's keeper books over some settled fills, in the chain's native base units (wei, lamports). */
export interface KeeperBooks {
  fills: number;
  spent: bigint;
  /** What the priced fills charged, converted to native units at each quote's native price (rounded down). */
  charged: bigint;
  margin: bigint;
  /** Fills whose fee was the fallback (no native price) or is in a token the chain no longer names: not in `charged`. */
  unpriced: number;
  /** The median of what the fills cost, rounded up; null for none. */
  medianSpent: bigint | null;
}

const baseUnits = (v: string): bigint | null => (/^\d+$/.test(v) ? BigInt(v) : null);

/**
 * The books of `fills` (docs/settlement.md, "The keeper's books"): `spent` sums what every fill cost
 * the keeper; `charged` sums what the priced ones charged, each converted at its own quote's native
 * price with the charged token's decimals (`decimalsOf`, null for a token the chain does not name);
 * `margin = charged − spent`. A fallback fee has no price to convert at: it is counted in `unpriced`,
 * its spend still in `spent`, so with `unpriced > 0` the margin is short of the truth by those fees.
 */
export function keeperBooks(
  fills: readonly SettledFillBooks[],
  decimalsOf: (token: string) => number | null,
  nativeDecimals: number,
): KeeperBooks {
  let spent = 0n;
  let charged = 0n;
  let unpriced = 0;
  const costs: bigint[] = [];
  for (const fill of fills) {
    const cost = baseUnits(fill.spent);
    if (cost === null) continue;
    spent += cost;
    costs.push(cost);
    const amount = baseUnits(fill.charged.amount);
    const decimals = decimalsOf(fill.charged.token);
    const price = fill.nativePrice;
    if (amount === null || decimals === null || price === null || !Number.isFinite(price) || price <= 0) {
      unpriced++;
      continue;
    }
    charged += tokenToNative(amount, price, nativeDecimals, decimals);
  }
  return { fills: costs.length, spent, charged, margin: charged - spent, unpriced, medianSpent: medianOf(costs) };
}

/**
 * How many more fills `balance` pays for at the median cost of recent fills, rounded down; null when
 * there is no recent fill to take the cost from.
 */
export function fillsLeft(balance: bigint, medianSpent: bigint | null): number | null {
  if (medianSpent === null || medianSpent <= 0n) return null;
  return Number(balance / medianSpent);
}
