import { z } from "@hono/zod-openapi";

/** Rates are JS numbers (record 2.5, docs/api.md), unlike amounts: naira per dollar, quote units per base unit. */
const rate = (description: string, example: number) => z.number().openapi({ description, example });

/**
 * The advisory band of record 2.5 (the `Band` of quotes and resolver frames), plus the corridor it is for;
 * null for a band of the native prices that is no corridor's (docs/oracle.md, "Native prices").
 */
export const RateBand = z
  .object({
    corridor: z.string().nullable().openapi({
      description:
        "The corridor key `<chainId>:<tokenA>:<tokenB>`; corridors of one asset pair share a band. Null for a band that is no corridor's: a native token's price (e.g. ETH/USD) the gas fee is priced from",
      example: "31337:0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0:0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
    }),
    base: z.string().openapi({ description: "Base asset symbol", example: "USD" }),
    quote: z.string().openapi({ description: "Quote asset symbol", example: "NGN" }),
    mid: rate("Median of the usable sources' values", 1454),
    low: rate("Lowest usable source value", 1447.66),
    high: rate("Highest usable source value", 1456),
    sources: z.number().int().openapi({ description: "How many sources made the band", example: 5 }),
    at: z
      .number()
      .int()
      .openapi({ description: "When the band was computed, unix milliseconds", example: 1763726400000 }),
  })
  .openapi("RateBand");

export const RateSource = z
  .object({
    name: z.string().openapi({ example: "quidax" }),
    value: rate("The mid of bid and ask, or the one number the source publishes", 1454),
    bid: rate("Best bid; null for a source that publishes one number", 1452.1).nullable(),
    ask: rate("Best ask; null for a source that publishes one number", 1455.9).nullable(),
    ageSeconds: z.number().int().openapi({
      description:
        "Whole seconds since the figure was made, at the time of the answer: by the source's own time, or since the relay received it from a source that gives none",
      example: 2,
    }),
  })
  .openapi("RateSource");

export const Rates = z
  .object({
    bands: z.array(RateBand).openapi({
      description:
        "One per corridor that has a band, then each native price's band no corridor has (corridor null); advisory, never a quote's price",
    }),
    sources: z.array(RateSource).openapi({
      description:
        "Every polled source that has answered plausibly, in configuration order, stale ones included; a source failing now shows its last good figure with its age (and is in `unavailable`)",
    }),
    unavailable: z.array(z.string()).openapi({
      description:
        "Sources failing right now (error, timeout, malformed, implausible, stale or outlier), left out of every band",
    }),
  })
  .openapi("Rates");
