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

/** One maker's part of a swap of several (docs/legs.md): its resolver's key, the part it buys and its output. */
export interface SwapMaker {
  resolver: string;
  sellAmount: bigint;
  outputAmount: bigint;
}

/**
 * The legs of a swap filled by several makers (docs/settlement.md, "Solana: the swap transaction"), maker by
 * maker in their order: the taker pays the maker its part (`proceeds`), the maker pays the recipient its
 * output less its fees (`received`), the treasury its protocol fee (`outputAmount × feeBps ÷ 10000`, rounded
 * down, as `composeLegs` weighs it) and the keeper what is still owed of the gas fee, which comes out of the
 * makers' outputs in order (all of it from the first, as its output covers it). Both fees are in the buy token
 * when parts are taken (`partRules`, src/auction/parts.ts). Legs of 0 are left out. Throws when the makers'
 * parts, outputs and fees do not add up to the quote's amounts.
 */
export function makerLegs(
  parties: Omit<SwapParties, "resolver">,
  amounts: QuoteAmounts,
  makers: readonly SwapMaker[],
  feeBps: number,
): SwapLeg[] {
  const { taker, sellToken, buyToken } = parties;
  if (sellToken === buyToken) throw new Error("a swap needs two tokens");
  if (parties.gasFeeToken !== buyToken || parties.feeToken !== buyToken) {
    throw new Error("a swap of several makers takes both fees in the buy token");
  }
  if (new Set(makers.map((m) => m.resolver)).size !== makers.length) throw new Error("a maker in two legs");
  let owed = amounts.gasFee;
  const legs: SwapLeg[] = [];
  const sums = { sold: 0n, output: 0n, fee: 0n, received: 0n };
  for (const maker of makers) {
    const fee = (maker.outputAmount * BigInt(feeBps)) / 10_000n;
    const gasFee = owed < maker.outputAmount - fee ? owed : maker.outputAmount - fee;
    owed -= gasFee;
    const received = maker.outputAmount - fee - gasFee;
    sums.sold += maker.sellAmount;
    sums.output += maker.outputAmount;
    sums.fee += fee;
    sums.received += received;
    const { resolver } = maker;
    legs.push(
      { role: "proceeds", token: sellToken, from: taker, to: resolver, amount: maker.sellAmount },
      { role: "received", token: buyToken, from: resolver, to: parties.recipient, amount: received },
      { role: "fee", token: buyToken, from: resolver, to: parties.treasury, amount: fee },
      { role: "gasFee", token: buyToken, from: resolver, to: parties.keeper, amount: gasFee },
    );
  }
  const adds =
    owed === 0n &&
    sums.sold === parties.sellAmount &&
    sums.sold === amounts.proceeds &&
    sums.output === amounts.outputAmount &&
    sums.fee === amounts.fee &&
    sums.received === amounts.received &&
    amounts.takerPays === amounts.proceeds;
  if (!adds || makers.some((m) => m.sellAmount <= 0n || m.outputAmount <= 0n)) {
    throw new Error("the makers' legs do not add up to the quote's output and sale");
  }
  return legs.filter((leg) => leg.amount > 0n);
}
