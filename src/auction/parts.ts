import type { LegTerms } from "./compose-legs";
import type { CorridorPort } from "./corridor-port";
import type { LiveAuction } from "./live-auction";

/**
 * What a part of an rfq must be (docs/legs.md): whether the rfq takes parts at all, and the least a part
 * sells. An rfq takes parts on a chain whose settlement carries several makers' legs, for an RFQ quote (a
 * limit order's round is filled whole), when both its fees are taken from the output, so that legs are
 * weighed in one token.
 */
export interface PartRules {
  sellAmount: bigint;
  takesParts: boolean;
  /** The sold token's `minLegSellAmount`, else its `minimum`. */
  minLeg: bigint;
}

export function partRules(port: Pick<CorridorPort, "adapter">, live: Pick<LiveAuction, "terms" | "gas">): PartRules {
  const { terms, gas } = live;
  const token = port.adapter.token(terms.sellToken);
  const feesFromOutput = terms.fee.side === "buy" && gas.side === "buy";
  return {
    sellAmount: terms.sellAmount,
    takesParts: port.adapter.parts && !terms.limit && terms.chain.maxLegs > 1 && feesFromOutput,
    minLeg: BigInt(token?.minLegSellAmount ?? token?.minimum ?? 1),
  };
}

/** Why a bid's `sellAmount` cannot be one leg: null for a whole bid (absent, or the rfq's own) and for a part the rfq takes. */
export function partRefusal(
  part: bigint | undefined,
  rules: PartRules,
): "part_not_taken" | "part_too_large" | "part_below_minimum" | null {
  if (part === undefined || part === rules.sellAmount) return null;
  if (!rules.takesParts) return "part_not_taken";
  if (part > rules.sellAmount) return "part_too_large";
  return part < rules.minLeg ? "part_below_minimum" : null;
}

/**
 * The terms legs are composed on (src/auction/compose-legs.ts): the gas fee of a fill of legs from the
 * chain's price of one leg (the quote's own charge) and of two, the leg's part their difference.
 */
export async function legTerms(
  port: Pick<CorridorPort, "adapter" | "costs">,
  live: Pick<LiveAuction, "terms" | "gas">,
  now: number,
): Promise<LegTerms> {
  const { terms, gas } = live;
  const { sellToken, buyToken, recipient, taker, sellAmount } = terms;
  const payer = { taker, paysBeforeGas: sellAmount };
  const two = await port.costs.charge({ kind: "rfq", sellToken, buyToken, recipient, payer, legs: 2 }, now);
  const perLeg = two.amount > gas.amount ? two.amount - gas.amount : 0n;
  return {
    sellAmount,
    minLegSellAmount: partRules(port, live).minLeg,
    maxLegs: terms.chain.maxLegs,
    fee: terms.fee,
    gas: { perSwap: gas.amount - perLeg, perLeg },
  };
}
