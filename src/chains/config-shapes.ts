import { z } from "zod";
import type { AddressRules } from "./address-rules";

/**
 * Field shapes the chain kinds' configuration schemas share (docs/configuration.md). Amounts are decimal
 * strings in base units, never JS numbers.
 */

export const addressOf = (rules: AddressRules) =>
  z.string().refine((v) => rules.test(v), `must be ${rules.description}`);
export const baseUnits = z
  .string()
  .regex(/^(0|[1-9]\d*)$/, "must be a non-negative integer in base units, as a string");
export const bps = z.number().int().min(0).max(10_000);
export const chainId = z.number().int().positive();

/**
 * The most legs (makers) one fill of the chain may have, at most `most`, the kind's own bound
 * (docs/legs.md, "How many legs a fill may have"). Published in `GET /v1/config`.
 */
export const maxLegs = (most: number) => z.number().int().min(1).max(most).default(most);

/**
 * The least of a token one leg of a fill may sell when the token is sold: a part below it is no leg
 * (docs/legs.md). Null means the token's `minimum`, the least a whole swap sells.
 */
export const minLegSellAmount = baseUnits.nullable().default(null);

export const gasFee = <T extends z.ZodType>(token: T) =>
  z.object({
    /** The fallback gas fee charged on each settlement, in base units of `token`. */
    fixed: baseUnits,
    /** The token the gas fee is charged in; null means the buy token of each quote. */
    token: token.nullable(),
  });

/** Reports a configuration problem at `path` inside the chain's entry. */
export type ConfigIssue = (path: (string | number)[], message: string) => void;
