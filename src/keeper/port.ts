import type { ChainSettler } from "../chains";
import type { ChainConfig, RelayConfig } from "../config";
import type { Demotion } from "../resolvers";
import type { FillNotice } from "./fill-notice";
import type { TxStore } from "./pending";

/** What the keeper needs from its Durable Object; tests hand it fakes (test/support/). */
export interface KeeperPort {
  config(): RelayConfig;
  /** `DB`: what is global (resolvers' standing and strikes). */
  db: D1Database;
  /**
   * The database of a quote's or execution's records, by its id's corridor tag (docs/capacity.md, "Records
   * by corridor"): its reads, claims and settlement steps, with the resolver counts a step makes.
   */
  records(id: string): D1Database;
  /** Every records database: what spans corridors (the relay's own fills of a resolver) is read in each. */
  allRecords(): readonly D1Database[];
  store: TxStore;
  /**
   * The keeper's wallets on the chain, one settler each (a pool of one or more, docs/settlement.md "The
   * wallet pool"); `no_key` without a (usable) keeper key for it.
   */
  settlers(chain: ChainConfig): readonly ChainSettler[] | "no_key";
  /**
   * A quote D1 does not have: its corridor copies its queued writes to D1 (src/quotes/read-through.ts).
   * False when no corridor of the configuration can hold it.
   */
  writeThrough(quoteId: string): Promise<boolean>;
  /** Makes sure the indexer runs within a second. */
  armIndexer(): Promise<void>;
  /**
   * Runs `write` once the answer being made has left the object (docs/settlement.md, "The fast path"):
   * resolves when the caller may answer, which the object lets do at once.
   */
  afterAnswer(write: () => Promise<void>): Promise<void>;
  /**
   * A settlement step moved the quote: its event streams get the new entries, and with `fill` its winning
   * resolver hears how the fill is going, in one call to its corridor (src/streams/announce.ts); never
   * waited for.
   */
  quoteMoved(quoteId: string, fill: FillNotice | null): void;
  /** A strike demoted the resolver: every corridor reads demotions afresh, and the resolver hears why. */
  demoted(corridorKey: string | null, resolver: string, demotion: Demotion): void;
  now(): number;
}
