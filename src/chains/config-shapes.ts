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

export const gasFee = <T extends z.ZodType>(token: T) =>
  z.object({
    /** The fallback gas fee charged on each settlement, in base units of `token`. */
    fixed: baseUnits,
    /** The token the gas fee is charged in; null means the buy token of each quote. */
    token: token.nullable(),
  });

/** Reports a configuration problem at `path` inside the chain's entry. */
export type ConfigIssue = (path: (string | number)[], message: string) => void;
