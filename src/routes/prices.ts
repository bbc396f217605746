import { createRoute, z } from "@hono/zod-openapi";
import { adapterFor, findCorridor } from "../chains";
import { primaryEvmChain } from "../config";
import { invalidRequest, RelayError } from "../errors";
import { API_KEY_SECURITY, createRouter, requestClient } from "../http";
import { CORRIDOR_UNREACHABLE, callObject, corridorStub } from "../objects";
import { addressIssues } from "../quotes";
import { errorResponses, IndicativeLadder, IndicativePrice, jsonContent, PriceQuery } from "../schemas";

export const priceRoutes = createRouter().openapi(
  createRoute({
    method: "get",
    path: "/v1/prices",
    operationId: "getPrices",
    security: API_KEY_SECURITY,
    tags: ["quotes"],
    summary:
      "An indicative price from the resolvers' streamed ladders: no auction, not firm; without sellAmount, the best ladder",
    request: { query: PriceQuery },
    responses: {
      200: jsonContent(z.union([IndicativePrice, IndicativeLadder]), "The best indicative price, or the best ladder"),
      ...errorResponses(400, 401, 404, 429, 503),
    },
  }),
  async (c) => {
    const query = c.req.valid("query");
    const config = c.get("config");
    const chainId = query.chainId ?? primaryEvmChain(config).chainId;
    const chainConfig = config.chains.find((ch) => ch.chainId === chainId);
    if (!chainConfig) throw new RelayError(400, "unsupported_pair", `The relay does not serve chain ${chainId}.`);
    const chain = adapterFor(chainConfig);
    const issues = addressIssues(chain, { sellToken: query.sellToken, buyToken: query.buyToken });
    if (issues.length) throw invalidRequest(issues, "The request failed validation.");
    const corridor = findCorridor(config, chainId, query.sellToken, query.buyToken);
    if (!corridor) {
      throw new RelayError(
        400,
        "unsupported_pair",
        `The relay does not trade ${query.sellToken} for ${query.buyToken}.`,
      );
    }
    const ask = {
      chainId,
      // Answered in the chain's own spelling (EIP-55 on EVM), as a quote is.
      sellToken: chain.canonical(query.sellToken),
      buyToken: chain.canonical(query.buyToken),
      ...(query.sellAmount === undefined ? {} : { sellAmount: query.sellAmount }),
    };
    const client = await requestClient(c);
    // One call, counted and answered from the corridor object's memory: no auction, no D1, no chain read.
    const answer = await callObject(
      async () => await corridorStub(c.env, corridor.key).prices(ask, client),
      CORRIDOR_UNREACHABLE,
    );
    if ("kind" in answer) throw RelayError.from(answer);
    return c.json(answer, 200);
  },
);
