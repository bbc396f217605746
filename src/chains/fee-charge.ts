/**
 * Which token a quote's protocol fee and gas fee are charged in. Here, not in src/auction/, because the
 * chains need both too: a Solana swap's legs and the accounts a fill creates (src/chains/solana/costs.ts)
 * follow the same choice.
 */

/**
 * Which token a quote's protocol fee is charged in, and from which side of the swap (docs/api.md,
 * "Amounts"). A chain names the tokens it charges its fee in, in priority order (its adapter's
 * `feeTokens`): the fee is charged in the first of them that is a side of the swap, else in the buy
 * token. EVM names none, since its contracts charge the fee on the output; Solana names its `fee.tokens`
 * (docs/settlement.md, "Solana: the swap transaction").
 *
 * - In the buy token the fee is `bps` of the resolver's output, taken out of it.
 * - In the sell token it is `bps` of the sell amount, paid by the taker on top of the sale, as a gas fee
 *   in the sell token is: the resolver's proceeds stay the sell amount.
 */
export interface FeeCharge {
  token: string;
  /** Basis points of the output (buy side) or of the sell amount (sell side). */
  bps: number;
  side: "buy" | "sell";
}

/** The fee charge of a swap of `sellToken` for `buyToken` on a chain whose fee tokens are `fee.tokens`. */
export function feeChargeFor(
  fee: { tokens: readonly string[]; bps: number },
  sellToken: string,
  buyToken: string,
  sameToken: (a: string, b: string) => boolean,
): FeeCharge {
  const first = fee.tokens.find((t) => sameToken(t, sellToken) || sameToken(t, buyToken));
  if (first !== undefined && sameToken(first, sellToken)) return { token: sellToken, bps: fee.bps, side: "sell" };
  return { token: buyToken, bps: fee.bps, side: "buy" };
}

export interface GasCharge {
  token: string;
  amount: bigint;
  /** Which side of the swap the gas fee is taken from. */
  side: "buy" | "sell";
}

/**
 * Where a quote's gas fee is charged. A configured gas token that is neither side of the swap cannot
 * be collected from it, so the fee falls to the buy token (docs/configuration.md says to avoid that).
 */
export function gasChargeFor(
  gasFee: { fixed: string; token: string | null },
  sellToken: string,
  buyToken: string,
  sameToken: (a: string, b: string) => boolean,
): GasCharge {
  const amount = BigInt(gasFee.fixed);
  if (gasFee.token !== null && sameToken(gasFee.token, sellToken)) return { token: sellToken, amount, side: "sell" };
  return { token: buyToken, amount, side: "buy" };
}
