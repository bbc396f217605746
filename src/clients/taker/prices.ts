import type { IndicativeLadder, IndicativePrice } from "../../schemas/prices";
import { type RelayCallOptions, relayCall } from "./relay";

/**
 * Indicative prices (docs/api.md, "Indicative prices"): what a swap would fetch now by the resolvers'
 * streamed ladders, with no auction and no promise; `POST /v1/quotes` gives a firm price.
 */

export interface PriceRequest {
  chainId?: number;
  sellToken: string;
  buyToken: string;
}

const pricesPath = (request: PriceRequest, sellAmount?: string) => {
  const query = new URLSearchParams({ sellToken: request.sellToken, buyToken: request.buyToken });
  if (request.chainId !== undefined) query.set("chainId", String(request.chainId));
  if (sellAmount !== undefined) query.set("sellAmount", sellAmount);
  return `/v1/prices?${query}`;
};

/** `GET /v1/prices` for `sellAmount`: the best indicative output and what the taker would receive after fees. */
export async function indicativePrice(
  relayUrl: string,
  request: PriceRequest & { sellAmount: string },
  options?: RelayCallOptions,
): Promise<IndicativePrice> {
  return (await relayCall<IndicativePrice>(relayUrl, pricesPath(request, request.sellAmount), {}, options)).body;
}

/** `GET /v1/prices` without an amount: the corridor's best ladder, by increasing sell amount. */
export async function indicativeLadder(
  relayUrl: string,
  request: PriceRequest,
  options?: RelayCallOptions,
): Promise<IndicativeLadder> {
  return (await relayCall<IndicativeLadder>(relayUrl, pricesPath(request), {}, options)).body;
}
