import { z } from "zod";
import { bps, type ChainConfig, chainSchema, firstPrimaryChain, kindOf, normaliseAddress } from "../chains";
import { Limits } from "../schemas";
import { checkOracleConfig, oracleSchema } from "./oracle";

export const limitOrdersSchema = z.object({
  minExpirySeconds: z.number().int().min(300).max(2_592_000),
  maxExpirySeconds: z.number().int().min(300).max(2_592_000),
  maxOpenPerTaker: z.number().int().min(1).max(1_000),
});

/**
 * How long D1 keeps a quote after it ended (docs/operations.md, "Retention"): one never submitted
 * (expired, cancelled, or failed before a broadcast) whole for `unfilledHours`, then in the archive, still
 * answered by id until `unfilledDays`; one submitted with its executions whole for `filledDays`, then in
 * the archive. `unfilledHours` is chosen from D1's bytes per quote (docs/capacity.md, "Storage").
 * Published in record 2.6.
 */
export const retentionSchema = z.object({
  unfilledHours: z.number().int().min(1).max(87_600).default(3),
  unfilledDays: z.number().int().min(1).max(3_650).default(7),
  filledDays: z.number().int().min(1).max(3_650).default(400),
});

/** The binding of the D1 database holding the global tables, and the records of every corridor not listed. */
const MAIN_DB = "DB";

/**
 * Which D1 database holds a corridor's records (docs/capacity.md, "Records by corridor"): each entry a D1
 * binding of the Worker (wrangler.toml) and the keys of the corridors whose quotes, offers, timelines and
 * executions it holds; every corridor not listed is in `DB`. A corridor's records never move, so a
 * corridor stays listed after the relay stops serving it. Internal, not in record 2.6.
 */
export const recordsSchema = z
  .array(
    z.object({
      binding: z.string().regex(/^[A-Z][A-Z0-9_]*$/, "must be a binding name, e.g. RECORDS_2"),
      corridors: z
        .array(z.string().regex(/^\d+:[^:]+:[^:]+$/, "must be a corridor key <chainId>:<token>:<token>"))
        .min(1),
    }),
  )
  .max(100)
  .default([]);

export const relayConfigSchema = z
  .object({
    chains: z.array(chainSchema).min(1),
    rfqWindowMs: z.number().int().min(50).max(10_000).default(1500),
    requireTakerProof: z.boolean().default(false),
    requireRegistration: z.boolean().default(false),
    maxOutstandingRfqs: z.number().int().min(1).max(100).default(3),
    quoteTtlSeconds: z.number().int().min(5).max(3_600).default(30),
    bandGuardBps: bps.default(300),
    limitOrders: limitOrdersSchema.nullable().default(null),
    /** Per-client limits (docs/security.md, "Limits"); every field has its default. */
    limits: Limits.prefault({}),
    retention: retentionSchema.prefault({}),
    /**
     * Fills the keeper's balance on a chain must still pay for, at the median cost of its recent fills;
     * under it the health check calls the chain degraded (docs/operations.md, "Health"). Internal, not in
     * record 2.6.
     */
    keeperFloorFills: z.number().int().min(0).max(1_000_000).default(20),
    /** Advisory rate bands (src/config/oracle.ts); internal, not in record 2.6. */
    oracle: oracleSchema.prefault({}),
    records: recordsSchema,
  })
  .superRefine((config, ctx) => {
    const seen = new Set<number>();
    config.chains.forEach((chain, i) => {
      if (seen.has(chain.chainId)) {
        ctx.addIssue({ code: "custom", path: ["chains", i, "chainId"], message: "duplicate chainId" });
      }
      seen.add(chain.chainId);
      checkChainTokens(chain, (path, message) =>
        ctx.addIssue({ code: "custom", path: ["chains", i, ...path], message }),
      );
    });
    if (!firstPrimaryChain(config.chains)) {
      ctx.addIssue({ code: "custom", path: ["chains"], message: "at least one EVM chain is required" });
    }
    const lo = config.limitOrders;
    if (lo && lo.minExpirySeconds > lo.maxExpirySeconds) {
      ctx.addIssue({
        code: "custom",
        path: ["limitOrders", "minExpirySeconds"],
        message: "must not exceed maxExpirySeconds",
      });
    }
    checkOracleConfig(config, (path, message) => ctx.addIssue({ code: "custom", path, message }));
    checkRecords(config, (path, message) => ctx.addIssue({ code: "custom", path: ["records", ...path], message }));
  });

/**
 * Each database once, never `DB` (it holds every corridor not listed), and each corridor in one database.
 * Limit orders are followed in `DB` with their quotes (src/db/limit-moves.ts), so while they are on, no
 * corridor of a chain whose kind has them is listed.
 */
function checkRecords(
  config: { records: z.infer<typeof recordsSchema>; limitOrders: unknown; chains: readonly ChainConfig[] },
  issue: (path: (string | number)[], message: string) => void,
): void {
  const bindings = new Set<string>();
  const corridors = new Set<string>();
  const limitChains = new Set(
    config.limitOrders ? config.chains.filter((c) => kindOf(c).limitOrders !== null).map((c) => c.chainId) : [],
  );
  config.records.forEach(({ binding, corridors: keys }, i) => {
    if (binding === MAIN_DB) issue([i, "binding"], "DB holds every corridor not listed; name another database");
    if (bindings.has(binding)) issue([i, "binding"], "duplicate binding");
    bindings.add(binding);
    keys.forEach((key, j) => {
      if (corridors.has(key)) issue([i, "corridors", j], "a corridor's records are in one database");
      if (limitChains.has(Number(key.split(":")[0])))
        issue([i, "corridors", j], "limit orders are on: their chain's corridors keep their records in DB");
      corridors.add(key);
    });
  });
}

/** Every token a chain names elsewhere (gas fee, its kind's own fields) must be one of its configured tokens. */
function checkChainTokens(chain: ChainConfig, issue: (path: (string | number)[], message: string) => void): void {
  const known = new Set(chain.tokens.map((t) => normaliseAddress(chain.kind, t.address)));
  if (known.size !== chain.tokens.length) issue(["tokens"], "duplicate token address");
  const symbols = new Set(chain.tokens.map((t) => t.symbol));
  if (symbols.size !== chain.tokens.length) issue(["tokens"], "duplicate token symbol");
  const isKnown = (a: string) => known.has(normaliseAddress(chain.kind, a));
  if (chain.gasFee.token !== null && !isKnown(chain.gasFee.token)) {
    issue(["gasFee", "token"], "is not one of the chain's tokens");
  }
  kindOf(chain).checkConfig(chain, isKnown, issue);
}

export type RelayConfig = z.infer<typeof relayConfigSchema>;
export type { ChainConfig, EvmChain, SolanaChain } from "../chains";
