import { protocolFee } from "../auction";
import type { ChainAdapter, LimitOrderChain, SignedLimitTerms } from "../chains";
import { gasChargeFor, withBigintsAsStrings } from "../chains";
import type { LimitOrderDraft } from "../schemas";
import { expiresAtOf } from "./expiry";
import type { BelowFees } from "./refusals";
import { type LimitAmounts, limitAmountOf, limitAmounts, MAX_GAS_FEE_MULTIPLE, smallestLimit } from "./terms";

/**
 * Record 2.7 from the taker's inputs (docs/limit-orders.md, "Prepare"), and the inputs back from a
 * draft, so that placing derives every term again from what the taker signed and compares.
 */

/** What the taker chose, with the relay's nonce and deadline: everything a draft follows from. */
export interface LimitInputs {
  taker: string;
  recipient: string;
  /** Configured token addresses, as the chain's configuration spells them. */
  sellToken: string;
  buyToken: string;
  sellAmount: bigint;
  limitAmount: bigint;
  nonce: bigint;
  /** Unix seconds. */
  deadline: bigint;
  /** Today's gas fee of a fill, priced when the draft was prepared (docs/limit-orders.md, "Amounts"). */
  gasFeeNow: bigint;
}

export interface DraftChain {
  adapter: ChainAdapter;
  orders: LimitOrderChain;
}

export interface Draft {
  record: LimitOrderDraft;
  terms: SignedLimitTerms;
  amounts: LimitAmounts;
  feeToken: string | null;
  feeBps: number;
}

/** Where a fill's gas fee is charged, at `amount`. */
const gasOf = ({ adapter }: DraftChain, sellToken: string, buyToken: string, amount: bigint) => ({
  ...gasChargeFor(adapter.chain.gasFee, sellToken, buyToken, adapter.sameAddress),
  amount,
});

/** Why these inputs' limit does not cover the fees: the figures `limit_below_fees` answers. */
export function belowFees(chain: DraftChain, inputs: Omit<LimitInputs, "nonce">): BelowFees {
  const feeBps = chain.adapter.chain.fee.bps;
  const gas = gasOf(chain, inputs.sellToken, inputs.buyToken, inputs.gasFeeNow);
  const maxGasFee = MAX_GAS_FEE_MULTIPLE * gas.amount;
  const feeAtLimit = protocolFee(inputs.limitAmount, feeBps);
  const smallest = smallestLimit(feeBps, gas.side === "buy" ? maxGasFee : 0n);
  return { limitAmount: inputs.limitAmount, feeAtLimit, maxGasFee, smallestLimit: smallest };
}

/** The draft of these inputs; null when the limit does not cover the fees (`limit_below_fees`). */
export function buildDraft(chain: DraftChain, inputs: LimitInputs): Draft | null {
  const { adapter, orders } = chain;
  const gas = gasOf(chain, inputs.sellToken, inputs.buyToken, inputs.gasFeeNow);
  const feeBps = adapter.chain.fee.bps;
  const amounts = limitAmounts({ sellAmount: inputs.sellAmount, limitAmount: inputs.limitAmount, feeBps, gas });
  if (!amounts) return null;
  const terms: SignedLimitTerms = {
    taker: inputs.taker,
    recipient: inputs.recipient,
    sellToken: inputs.sellToken,
    buyToken: inputs.buyToken,
    sellAmount: inputs.sellAmount,
    minOut: amounts.minOut,
    gasFeeToken: gas.token,
    maxGasFee: amounts.maxGasFee,
    permitAmount: amounts.permitAmount,
    nonce: inputs.nonce,
    deadline: inputs.deadline,
  };
  const feeToken = feeBps > 0 ? inputs.buyToken : null;
  const record: LimitOrderDraft = {
    chainId: adapter.chain.chainId,
    executor: orders.executor,
    permit2: orders.permit2,
    draft: withBigintsAsStrings({
      minOut: amounts.minOut,
      gasFeeToken: gas.token,
      maxGasFee: amounts.maxGasFee,
      permitAmount: amounts.permitAmount,
      nonce: inputs.nonce,
      deadline: inputs.deadline,
    }) as LimitOrderDraft["draft"],
    typedData: orders.typedData(terms),
    fee: { token: feeToken, bps: feeBps, atLimit: amounts.feeAtLimit.toString() },
    gasFeeNow: amounts.gasFeeNow.toString(),
    expiresAt: expiresAtOf(inputs.deadline),
  };
  return { record, terms, amounts, feeToken, feeBps };
}

/**
 * The inputs a draft was made from: the signed terms of its typed data, the tokens as configured, and
 * the limit read back from `minOut` and `fee.atLimit`. Null when its typed data is not a limit order's
 * on this chain, or names a token the chain does not configure.
 */
export function inputsOfDraft(chain: DraftChain, draft: LimitOrderDraft): LimitInputs | null {
  const terms = chain.orders.termsOf(draft.typedData);
  if (!terms) return null;
  const sellToken = chain.adapter.token(terms.sellToken)?.address;
  const buyToken = chain.adapter.token(terms.buyToken)?.address;
  if (!sellToken || !buyToken) return null;
  // maxGasFee is the signed multiple of the gas fee the draft was prepared with.
  if (terms.maxGasFee % MAX_GAS_FEE_MULTIPLE !== 0n) return null;
  const gasFeeNow = terms.maxGasFee / MAX_GAS_FEE_MULTIPLE;
  const limitAmount = limitAmountOf({
    minOut: terms.minOut,
    feeAtLimit: BigInt(draft.fee.atLimit),
    maxGasFee: terms.maxGasFee,
    gas: gasOf(chain, sellToken, buyToken, gasFeeNow),
  });
  return {
    taker: terms.taker,
    recipient: terms.recipient,
    sellToken,
    buyToken,
    sellAmount: terms.sellAmount,
    limitAmount,
    nonce: terms.nonce,
    deadline: terms.deadline,
    gasFeeNow,
  };
}

/** The path of the first value where two JSON values differ (`draft.minOut`, `typedData.domain`); null if equal. */
export function firstDifference(a: unknown, b: unknown, path = ""): string | null {
  if (a === b) return null;
  const here = path || "(the whole value)";
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return here;
  if (Array.isArray(a) !== Array.isArray(b)) return here;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(ra), ...Object.keys(rb)])];
  for (const key of keys) {
    const sub = path ? `${path}.${key}` : key;
    if (!(key in ra) || !(key in rb)) return sub;
    const diff = firstDifference(ra[key], rb[key], sub);
    if (diff) return diff;
  }
  return null;
}
