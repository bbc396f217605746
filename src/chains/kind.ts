import type { z } from "zod";
import type { ChainAdapter } from "./adapter";
import type { AddressRules } from "./address-rules";
import type { ConfigIssue } from "./config-shapes";
import type { ChainCosts } from "./costs";
import type { ChainHead } from "./head";
import type { InventoryReader } from "./inventory";
import type { LimitOrderChain } from "./limit-orders";
import type { TokenFeeBps } from "./protocol-fee";
import type { SettlementScheme } from "./settler";

/** What decides a chain's corridors: its tokens and, where it configures them, its pairs (record 2.6 or configuration). */
export interface PairSource {
  tokens: readonly { address: string }[];
  pairs?: readonly (readonly string[])[];
}

/**
 * What a chain kind must provide (docs/architecture.md, "Adding a chain kind"), for its chains'
 * configuration `C`: one entry of `CHAIN_KINDS` (src/chains/kinds.ts), built in the kind's own folder.
 * Everything about a chain that differs between kinds is here or behind the adapter it makes; no other
 * file asks a chain's `kind`.
 */
export interface ChainKind<C extends { kind: string }, LimitReads = never> {
  /** Its chains' configuration (docs/configuration.md), `kind` the literal of its name. */
  readonly configSchema: z.ZodType<C, unknown>;
  /** What its configuration must hold beyond the schema, each token it names one of `isKnown`. */
  checkConfig(chain: C, isKnown: (address: string) => boolean, issue: ConfigIssue): void;
  /** Its chains' public view (record 2.6): no RPC URLs or internal knobs. */
  record(chain: C): { kind: C["kind"] };
  /** What its addresses look like, how they are compared and shown. */
  readonly address: AddressRules;
  /** Every unordered token pair a chain of the kind quotes, as configured (not normalised). */
  pairs(chain: PairSource): [string, string][];
  /** Decimals of its native unit (wei of ether, lamports of SOL). */
  readonly nativeDecimals: number;
  /** The chain adapter (src/chains/adapter.ts): addresses, signatures, bids and quote signing. */
  adapter(chain: C): ChainAdapter;
  /** What fills cost the keeper, from inputs kept fresh in the background. */
  costs(chain: C): ChainCosts;
  /** How the keeper settles. */
  settlement(chain: C): SettlementScheme;
  /** How nodes' inventory is read (docs/resolver-protocol.md, "Inventory checked on chain"). */
  inventoryReader(chain: C): InventoryReader;
  /** Limit orders, the chain read through `reads` when given; null where the kind has none. */
  limitOrders: ((chain: C, reads?: (chain: C) => LimitReads) => LimitOrderChain) | null;
  /** The chain's latest block (number or slot) and its time, through its RPC (docs/operations.md). */
  readHead(rpcUrl: string, signal: AbortSignal): Promise<ChainHead>;
  /** What `addresses` hold together in the native unit's base units, through the RPC. */
  readNativeBalance(rpcUrl: string, addresses: readonly string[], signal: AbortSignal): Promise<bigint>;
  /** The protocol fee the chain's own contracts charge on each token; null where they keep none. */
  readContractFeeBps: ((chain: C, signal?: AbortSignal) => Promise<TokenFeeBps[]>) | null;
}
