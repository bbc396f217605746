import { z } from "zod";
import { corridorKey, normaliseAddress, quotesPair } from "../chains";
import { adapterNames, chainTokenAssets, publicRateSources, routeBetween } from "../oracle";
import type { ChainConfig } from "./schema";

/**
 * The oracle's section of the configuration. Internal: it is not part of record 2.6, so
 * `GET /v1/config` never shows it.
 */

const assetSymbol = z.string().regex(/^[A-Z][A-Z0-9]{1,9}$/, "must be an upper-case asset symbol such as USD");
/** A week: anything older is no reference for a rate, whatever the source's publishing clock. */
const ageSeconds = z.number().int().min(1).max(604_800);

export const oracleSourceSchema = z.object({
  /** Shown in `GET /v1/rates` (`sources[].name`, `unavailable`). */
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, "must be 1 to 32 lower-case letters, digits or dashes"),
  /** The response format (src/oracle/sources). */
  adapter: z.enum(adapterNames),
  url: z.url({ protocol: /^https?$/ }),
  /** The pair the source prices: quote units per base unit. */
  base: assetSymbol.default("USD"),
  quote: assetSymbol.default("NGN"),
  /** Overrides `oracle.maxAgeSeconds` for a source on a slower clock, such as a daily reference rate. */
  maxAgeSeconds: ageSeconds.optional(),
});

export const oracleCorridorSchema = z.object({
  chainId: z.number().int().positive(),
  /** Symbols of the chain's two tokens: `base` tracks `baseAsset`, `quote` tracks `quoteAsset`. */
  base: z.string().min(1).max(16),
  quote: z.string().min(1).max(16),
  baseAsset: assetSymbol.default("USD"),
  quoteAsset: assetSymbol.default("NGN"),
});

/** A chain's native token, priced in the chain's tokens from the bands (docs/oracle.md, "Native prices"). */
export const oracleNativeSchema = z.object({
  chainId: z.number().int().positive(),
  /** The native token's asset symbol, e.g. ETH or SOL, as the sources' `base` or `quote` name it. */
  asset: assetSymbol,
});

export const oracleSchema = z.object({
  sources: z
    .array(oracleSourceSchema)
    .min(1)
    .prefault(() => publicRateSources.map((s) => ({ ...s }))),
  /** Per source and poll; under the 10 s recompute interval so one round never overlaps the next. */
  timeoutMs: z.number().int().min(100).max(9_000).default(3_000),
  /** A source whose own timestamp is older than this is left out of the band. */
  maxAgeSeconds: ageSeconds.default(60),
  /** With three or more sources, one further than this from their median is left out as an outlier. */
  outlierBps: z.number().int().min(1).max(10_000).default(1_000),
  /** Which corridors get which pair's band; a corridor not listed has none. */
  corridors: z.array(oracleCorridorSchema).default([]),
  /** Which chains' native tokens get a price; a chain not listed has none (its gas fee is the fixed one). */
  natives: z.array(oracleNativeSchema).default([]),
});

export type OracleConfig = z.infer<typeof oracleSchema>;
export type OracleSourceConfig = z.infer<typeof oracleSourceSchema>;
export type OracleNativeConfig = z.infer<typeof oracleNativeSchema>;

/**
 * Source names are unique; every corridor names served tokens and has at least one source for its pair;
 * every native names a configured chain once, and sources whose pairs price it into the asset of each of
 * that chain's tokens (`checkNatives`).
 */
export function checkOracleConfig(
  config: { chains: ChainConfig[]; oracle: OracleConfig },
  issue: (path: (string | number)[], message: string) => void,
): void {
  const { sources, corridors } = config.oracle;
  const names = new Set<string>();
  sources.forEach((s, i) => {
    if (names.has(s.name)) issue(["oracle", "sources", i, "name"], "duplicate source name");
    names.add(s.name);
  });
  const mapped = new Set<string>();
  for (const [j, c] of corridors.entries()) {
    const at = (field: string) => ["oracle", "corridors", j, field];
    if (c.baseAsset === c.quoteAsset) issue(at("quoteAsset"), "must differ from baseAsset");
    if (!sources.some((s) => s.base === c.baseAsset && s.quote === c.quoteAsset)) {
      issue(at("baseAsset"), `no source publishes ${c.baseAsset}/${c.quoteAsset}`);
    }
    const chain = config.chains.find((ch) => ch.chainId === c.chainId);
    if (!chain) {
      issue(at("chainId"), "is not a configured chain");
      continue;
    }
    const base = chain.tokens.find((t) => t.symbol === c.base);
    const quote = chain.tokens.find((t) => t.symbol === c.quote);
    if (!base) issue(at("base"), `is not a token symbol of chain ${c.chainId}`);
    if (!quote) issue(at("quote"), `is not a token symbol of chain ${c.chainId}`);
    if (!base || !quote) continue;
    if (!quotesPair(chain, base.address, quote.address)) {
      issue(at("quote"), `chain ${c.chainId} does not quote ${c.base}/${c.quote}`);
      continue;
    }
    const key = corridorKey(
      c.chainId,
      normaliseAddress(chain.kind, base.address),
      normaliseAddress(chain.kind, quote.address),
    );
    if (mapped.has(key)) issue(at("quote"), "maps a corridor another entry already maps");
    mapped.add(key);
  }
  checkNatives(config, issue);
}

/**
 * A native is priced by the bands of the configured sources' pairs, directly or through one asset
 * (src/oracle/native-prices.ts), into the assets `oracle.corridors` gives the chain's tokens: a native
 * with no such token, or an asset no pair reaches, could never be priced.
 */
function checkNatives(
  config: { chains: ChainConfig[]; oracle: OracleConfig },
  issue: (path: (string | number)[], message: string) => void,
): void {
  const pairs = config.oracle.sources.map((s) => ({ base: s.base, quote: s.quote }));
  const named = new Set<number>();
  for (const [i, native] of config.oracle.natives.entries()) {
    const at = (field: string) => ["oracle", "natives", i, field];
    if (named.has(native.chainId)) issue(at("chainId"), "names a chain another entry already names");
    named.add(native.chainId);
    if (!config.chains.some((c) => c.chainId === native.chainId)) {
      issue(at("chainId"), "is not a configured chain");
      continue;
    }
    const assets = [...new Set(chainTokenAssets(config, native.chainId).map((t) => t.asset))];
    if (assets.length === 0) {
      issue(at("chainId"), `no token of chain ${native.chainId} is in oracle.corridors to price ${native.asset} in`);
    }
    for (const asset of assets) {
      if (!routeBetween(native.asset, asset, pairs)) {
        issue(at("asset"), `no source pair prices ${native.asset} in ${asset}, directly or through one asset`);
      }
    }
  }
}
