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
}

/**
 * The legs of a quote's swap, as `quoteAmounts` defines its money (src/auction/amounts.ts):
 * - the taker pays `proceeds` (= sellAmount) of the sell token to the resolver;
 * - the resolver pays `received` of the buy token to the recipient and `fee` to the treasury;
 * - the gas fee goes to the keeper from the side it is charged on: in the buy token it is part of the
 *   resolver's output (`outputAmount = received + fee + gasFee`), so the resolver pays it; in the sell
 *   token the taker pays it on top of the sale (`takerPays = sellAmount + gasFee`).
 * Legs of 0 are left out. Throws when the amounts do not add up that way: the transaction must move
 * exactly what the quote says.
 */
export function swapLegs(parties: SwapParties, amounts: QuoteAmounts): SwapLeg[] {
  const { taker, resolver, sellToken, buyToken, gasFeeToken } = parties;
  if (sellToken === buyToken) throw new Error("a swap needs two tokens");
  if (gasFeeToken !== sellToken && gasFeeToken !== buyToken) {
    throw new Error("the gas fee token is neither side of the swap");
  }
  const gasOnSell = gasFeeToken === sellToken;
  const fromOutput = amounts.received + amounts.fee + (gasOnSell ? 0n : amounts.gasFee);
  const fromTaker = amounts.proceeds + (gasOnSell ? amounts.gasFee : 0n);
  const negative = [amounts.received, amounts.fee, amounts.gasFee, amounts.proceeds].some((a) => a < 0n);
  if (negative || amounts.proceeds !== parties.sellAmount || fromOutput !== amounts.outputAmount) {
    throw new Error("the quote's amounts do not add up to its output and sale");
  }
  if (fromTaker !== amounts.takerPays) throw new Error("the quote's takerPays is not its sale plus its gas fee");

  const legs: SwapLeg[] = [
    { role: "proceeds", token: sellToken, from: taker, to: resolver, amount: amounts.proceeds },
    { role: "received", token: buyToken, from: resolver, to: parties.recipient, amount: amounts.received },
    { role: "fee", token: buyToken, from: resolver, to: parties.treasury, amount: amounts.fee },
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
