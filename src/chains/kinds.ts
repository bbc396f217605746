import { z } from "zod";
import { evmChainSchema } from "./evm/config";
import { evmKind } from "./evm/kind";
import type { ChainKind } from "./kind";
import { solanaChainSchema } from "./solana/config";
import { solanaKind } from "./solana/kind";

/**
 * The chain kinds (docs/architecture.md, "Adding a chain kind"): the one place that names each kind and
 * holds its implementations. A kind's configuration schema joins `chainSchema`, its entry joins
 * `CHAIN_KINDS`; the compiler refuses one without the other, and an entry that lacks what `ChainKind`
 * asks.
 */

/** A configured chain of any kind (docs/configuration.md), told apart by `kind`. */
export const chainSchema = z.discriminatedUnion("kind", [evmChainSchema, solanaChainSchema]);

export type ChainConfig = z.infer<typeof chainSchema>;
export type ChainKindName = ChainConfig["kind"];

/** Each kind's entry, keyed by its name. */
export const CHAIN_KINDS = { evm: evmKind, solana: solanaKind } satisfies {
  [K in ChainKindName]: ChainKind<Extract<ChainConfig, { kind: K }>>;
};

/** Record 2.6 of a chain of any kind. */
export type ChainRecord = ReturnType<(typeof CHAIN_KINDS)[ChainKindName]["record"]>;

/** The public view of one chain (record 2.6), as its kind's entry gives it. */
export const chainRecord = (chain: ChainConfig) => kindOf(chain).record(chain) as ChainRecord;

/** The kind a relay's limit orders, and record 2.6's inline fields, belong to (docs/limit-orders.md). */
const PRIMARY_KIND = "evm" satisfies ChainKindName;

/** The chain of the primary kind that comes first in the configuration, if any. */
export const firstPrimaryChain = (chains: readonly ChainConfig[]) =>
  chains.find((c): c is Extract<ChainConfig, { kind: typeof PRIMARY_KIND }> => c.kind === PRIMARY_KIND);

/** Record 2.6 of the primary chain, whose fields the record also gives inline. */
export const primaryChainRecord = (chain: Extract<ChainConfig, { kind: typeof PRIMARY_KIND }>) =>
  CHAIN_KINDS[PRIMARY_KIND].record(chain);

/**
 * The entry of the kind named `kind` (a chain, its record, or the name alone). The registry's type ties
 * each name to an entry for chains of that name, which the compiler cannot carry through an index by a
 * union; hence the cast, here and in `chainRecord` only.
 */
export const kindOf = ({ kind }: { kind: ChainKindName }): ChainKind<ChainConfig, unknown> =>
  CHAIN_KINDS[kind] as unknown as ChainKind<ChainConfig, unknown>;
