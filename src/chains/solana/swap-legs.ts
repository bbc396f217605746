import type { QuoteAmounts } from "../../types";

/** One token movement of a Solana swap: `amount` base units of `token` from `from`'s account to `to`'s. */
export interface SwapLeg {
  /** What the leg pays, in the words of docs/api.md, "Amounts". */
  role: "proceeds" | "received" | "fee" | "gasFee";
  token: string;
  /** The owner of the source account, who signs for the leg. */
  from: string;
  /** The owner of the destination account. */
  to: string;
  amount: bigint;
}

export interface SwapParties {
  taker: string;
  resolver: string;
  recipient: string;
  treasury: string;
  keeper: string;
  sellToken: string;
  buyToken: string;
  sellAmount: bigint;
  /** The token the gas fee is charged in: the sell token or the buy token (`gasChargeFor`). */
  gasFeeToken: string;
  /** The token the protocol fee is charged in: the sell token or the buy token (`feeChargeFor`). */
  feeToken: string;
}

/**
 * The legs of a quote's swap, as `quoteAmounts` defines its money (src/auction/amounts.ts):
 * - the taker pays `proceeds` (= sellAmount) of the sell token to the resolver;
 * - the resolver pays `received` of the buy token to the recipient;
 * - the protocol fee goes to the treasury and the gas fee to the keeper, each from the side it is charged
 *   on: in the buy token it is part of the resolver's output (`outputAmount = received + fee + gasFee`
 *   when both are), so the resolver pays it; in the sell token the taker pays it on top of the sale
 *   (`takerPays = sellAmount + fee + gasFee` when both are).
 * Legs of 0 are left out. Throws when the amounts do not add up that way: the transaction must move
 * exactly what the quote says.
 */
export function swapLegs(parties: SwapParties, amounts: QuoteAmounts): SwapLeg[] {
  const { taker, resolver, sellToken, buyToken, gasFeeToken, feeToken } = parties;
  if (sellToken === buyToken) throw new Error("a swap needs two tokens");
  const onSell = (token: string, what: string) => {
    if (token !== sellToken && token !== buyToken) throw new Error(`the ${what} token is neither side of the swap`);
    return token === sellToken;
  };
  const gasOnSell = onSell(gasFeeToken, "gas fee");
  const feeOnSell = onSell(feeToken, "fee");
  const fromOutput = amounts.received + (feeOnSell ? 0n : amounts.fee) + (gasOnSell ? 0n : amounts.gasFee);
  const fromTaker = amounts.proceeds + (feeOnSell ? amounts.fee : 0n) + (gasOnSell ? amounts.gasFee : 0n);
  const negative = [amounts.received, amounts.fee, amounts.gasFee, amounts.proceeds].some((a) => a < 0n);
  if (negative || amounts.proceeds !== parties.sellAmount || fromOutput !== amounts.outputAmount) {
    throw new Error("the quote's amounts do not add up to its output and sale");
  }
  if (fromTaker !== amounts.takerPays) throw new Error("the quote's takerPays is not its sale plus its fees");

  const legs: SwapLeg[] = [
    { role: "proceeds", token: sellToken, from: taker, to: resolver, amount: amounts.proceeds },
    { role: "received", token: buyToken, from: resolver, to: parties.recipient, amount: amounts.received },
    {
      role: "fee",
      token: feeToken,
      from: feeOnSell ? taker : resolver,
      to: parties.treasury,
      amount: amounts.fee,
    },
    {
      role: "gasFee",
      token: gasFeeToken,
      from: gasOnSell ? taker : resolver,
      to: parties.keeper,
      amount: amounts.gasFee,
    },
  ];
  return legs.filter((leg) => leg.amount > 0n);
}
