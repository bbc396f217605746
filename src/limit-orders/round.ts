import type { OpenLimitOrder } from "../schemas";
import type { LimitRound } from "../types";

/**
 * What a round of the keeper's job asks the corridor with (docs/limit-orders.md, "The keeper's job"): the
 * order the taker signed (`LimitAuth`, amounts as decimal strings), its Permit2 nonce, the least the
 * recipient must get and the taker's price, which the winning bid's output must meet.
 */
export function limitRoundOf(order: OpenLimitOrder): LimitRound {
  return {
    limitOrderId: order.limitOrderId,
    order: {
      taker: order.taker,
      recipient: order.recipient,
      sellToken: order.sellToken,
      buyToken: order.buyToken,
      sellAmount: order.sellAmount,
      minOut: order.minOut,
      gasFeeToken: order.gasFeeToken,
      maxGasFee: order.maxGasFee,
      deadline: order.deadline,
    },
    nonce: order.nonce,
    minOut: order.minOut,
    limitAmount: order.limitAmount,
  };
}
