import type { Address, LocalAccount } from "viem";
import { quoteIdToBytes32, quoteNonce, type RfqBid, type RfqOrder } from "../../src/chains/evm/typed-data";
import { type Chain, FEE_BPS, latestTimestamp, newQuoteId, signResolver, signTaker } from "./chain";

/** A leg as a test writes it: its resolver, its part, its output, and the part its signature signs if not its own. */
export interface Leg {
  resolver: LocalAccount;
  sellAmount: bigint;
  outputAmount: bigint;
  signedSellAmount?: bigint;
}

export interface LegSwapTerms {
  taker: LocalAccount;
  recipient: Address;
  legs: Leg[];
  gasFee: bigint;
  /** What the taker signs to sell; default the legs' whole. */
  sellAmount?: bigint;
  /** The token the gas fee is charged in; default the buy token. */
  gasIn?: "buy" | "sell";
}

/** A leg's protocol fee at the deployment's rate: its own, rounded down (docs/legs.md's fee_i). */
export const feeOf = (outputAmount: bigint) => (outputAmount * FEE_BPS) / 10_000n;

/**
 * A swap of cNGN for USDC as the relay would compose it from `legs` (docs/legs.md): the taker signs for the
 * legs' whole (or `sellAmount`), with `minReceived` all of Σ(out_i − fee_i) − gasFee; each resolver signs its
 * own leg.
 */
export async function legSwap(chain: Chain, terms: LegSwapTerms) {
  const { taker, recipient, legs, gasFee } = terms;
  const { cngn: sellToken, usdc: buyToken } = chain.deployment;
  const gasInSell = terms.gasIn === "sell";
  const quoteId = newQuoteId();
  const deadline = (await latestTimestamp(chain)) + 300n;
  const sellAmount = terms.sellAmount ?? legs.reduce((sum, leg) => sum + leg.sellAmount, 0n);
  const fees = legs.map((leg) => feeOf(leg.outputAmount));
  const net = legs.reduce((sum, leg, i) => sum + leg.outputAmount - (fees[i] ?? 0n), 0n);
  const received = net - (gasInSell ? 0n : gasFee);
  const order: RfqOrder = {
    quoteId: quoteIdToBytes32(quoteId),
    recipient,
    buyToken,
    minReceived: received > 0n ? received : 0n,
    gasFeeToken: gasInSell ? sellToken : buyToken,
    gasFee,
    deadline,
  };
  const takerPays = sellAmount + (gasInSell ? gasFee : 0n);
  const permit = { permitted: { token: sellToken, amount: takerPays }, nonce: quoteNonce(quoteId), deadline };
  const bids: RfqBid[] = [];
  for (const leg of legs) {
    const fill = {
      quoteId: order.quoteId,
      taker: taker.address,
      sellToken,
      sellAmount: leg.signedSellAmount ?? leg.sellAmount,
      buyToken,
      outputAmount: leg.outputAmount,
      deadline,
    };
    const signature = await signResolver(chain, leg.resolver, fill);
    bids.push({
      resolver: leg.resolver.address,
      sellAmount: leg.sellAmount,
      outputAmount: leg.outputAmount,
      signature,
    });
  }
  const takerSignature = await signTaker(chain, taker, order, permit);
  return { order, permit, bids, takerSignature, received, fees, takerPays };
}
