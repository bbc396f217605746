import { z } from "@hono/zod-openapi";
import { Address, Amount, ChainIdQuery, Timestamp } from "./common";
import { QuoteGasFee } from "./quote";

/** `GET /v1/prices` (docs/api.md, "Indicative prices"): the pair, and the amount sold if one is asked. */
export const PriceQuery = z.object({
  chainId: ChainIdQuery.openapi({ type: "string", description: "The chain; the relay's first EVM chain if absent" }),
  sellToken: z.string().min(1).max(64).openapi({ description: "The token sold", example: "0xe7f1..." }),
  buyToken: z.string().min(1).max(64).openapi({ description: "The token bought", example: "0x9fe4..." }),
  sellAmount: Amount.refine((v) => v !== "0", "must be more than zero")
    .optional()
    .openapi({ description: "Base units sold; without it the answer is the corridor's best ladder" }),
});
export type PriceQuery = z.infer<typeof PriceQuery>;

const priceCommon = {
  chainId: z.number().int(),
  sellToken: Address,
  buyToken: Address,
  resolvers: z.number().int().openapi({
    description:
      "How many eligible resolvers' fresh ladders the answer was made from (that cover the amount, if one is asked)",
  }),
  at: Timestamp.openapi({ description: "When the freshest of those ladders came in" }),
  firm: z
    .literal(false)
    .openapi({ description: "Always false: an indicative price, not a quote; ask POST /v1/quotes for one" }),
};

/** One point of an indicative price: what `sellAmount` buys, and what the taker would receive after the fees. */
const PricePoint = z.object({
  sellAmount: Amount,
  buyAmount: Amount.openapi({ description: "The best ladder output for `sellAmount`, before fees" }),
  received: Amount.openapi({ description: "`buyAmount` less the fees a quote would charge in the buy token" }),
  fee: z.object({ token: Address, amount: Amount }).openapi({ description: "The protocol fee, as a quote charges it" }),
});

export const IndicativePrice = z
  .object({ ...priceCommon, ...PricePoint.shape, gasFee: QuoteGasFee })
  .openapi("IndicativePrice", { description: "The best indicative price for one amount (docs/api.md)" });
export type IndicativePrice = z.infer<typeof IndicativePrice>;

export const IndicativeLadder = z
  .object({
    ...priceCommon,
    levels: z.array(PricePoint).openapi({
      description: "The best output over the eligible ladders at each of their rungs, by increasing sellAmount",
    }),
    gasFee: QuoteGasFee,
  })
  .openapi("IndicativeLadder", { description: "The corridor's best ladder (docs/api.md)" });
export type IndicativeLadder = z.infer<typeof IndicativeLadder>;
