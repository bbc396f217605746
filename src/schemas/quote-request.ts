import { z } from "@hono/zod-openapi";
import { Amount } from "./common";

export const QuoteRequest = z
  .object({
    chainId: z.number().int().positive().optional().openapi({ description: "defaults to the primary EVM chain" }),
    sellToken: z.string().min(1).max(64),
    buyToken: z.string().min(1).max(64),
    sellAmount: Amount.refine((v) => v !== "0", "must be more than zero"),
    taker: z.string().min(1).max(64),
    recipient: z.string().min(1).max(64).optional().openapi({ description: "defaults to the taker" }),
    slippageBps: z.number().int().min(0).max(10_000).optional().openapi({
      description:
        "the taker's tolerance in basis points of `received`, 0 by default, at most the configuration's `limits.maxSlippageBps`: the quote's `minReceived` is `received` less this share, rounded down (docs/settlement.md, \"When the winner fades\")",
    }),
    takerProof: z
      .object({
        signature: z.string().max(200),
        timestamp: z.number().int().openapi({ description: "unix seconds" }),
      })
      .optional()
      .openapi({ description: "required when requireTakerProof; see docs/api.md" }),
  })
  .openapi("QuoteRequest");

export const CancelQuoteRequest = z.object({ signature: z.string().max(200) }).openapi("CancelQuoteRequest");
