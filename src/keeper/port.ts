import type { ChainAdapter, ChainSettler } from "../chains";
import { adapterFor } from "../chains";
import type { ChainConfig, RelayConfig } from "../config";
import { log as relayLog } from "../log";
import type { Demotion } from "../resolvers";
import { blameOf } from "../states";
import type { TxStore } from "./pending";

/** What the keeper needs from its Durable Object; tests hand it fakes (test/support/). */
export interface KeeperPort {
  config(): RelayConfig;
  db: D1Database;
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

/**
 * The `fault` of a failed fill's notice: its reason when that blames the relay, so the corridor shows
 * itself degraded (docs/reliability.md, "Blame"); none for the taker's or the resolver's.
 */
export const relayFault = (reason: string): Pick<FillNotice, "fault"> =>
  blameOf(reason) === "relay" ? { fault: reason } : {};

/** How a winning resolver's fill is going, for its `execution` frame on the corridor it quoted on. */
export interface FillNotice {
  corridorKey: string;
  resolver: string;
  status: "submitted" | "settled" | "failed";
  txHash: string | null;
  /** A failure for the relay's own reason: that reason, so the corridor shows itself degraded. */
  fault?: string;
}

const line =
  (level: "info" | "warn" | "error") =>
  (event: string, detail: Record<string, unknown>): void =>
    relayLog[level](event, { component: "keeper", ...detail });

/**
 * The keeper's log lines, at the level of what each says (docs/operations.md, "Logs"): `info` for its
 * routine work, `warn` for what the chain did that the keeper follows, `error` for what failed; inside a
 * submission they carry its request id.
 */
export const keeperLog = { info: line("info"), warn: line("warn"), error: line("error") };

/**
 * A fill failed for the relay's own reason (docs/reliability.md, "Blame"): the operator hears of each,
 * whether the simulation found it (a requote) or the indexer after broadcast (with its `txHash`).
 */
export function logIfRelayFault(fault: { quoteId: string; corridor: string | null; reason: string; txHash?: string }) {
  if (blameOf(fault.reason) === "relay") keeperLog.error("relay_fault", fault);
}

export const iso = (ms: number) => new Date(ms).toISOString();

export interface SettlingChain {
  chain: ChainConfig;
  adapter: ChainAdapter;
  /** The keeper's wallets there, at least one. */
  settlers: readonly ChainSettler[];
}

/** A configured chain with its adapter and the keeper's wallets there; null when the keeper cannot settle on it. */
export function settlingChain(port: KeeperPort, chainId: number): SettlingChain | null {
  const chain = port.config().chains.find((c) => c.chainId === chainId);
  const settlers = chain ? port.settlers(chain) : "no_key";
  return chain && typeof settlers !== "string" && settlers.length > 0
    ? { chain, adapter: adapterFor(chain), settlers }
    : null;
}

/** The wallet that signed a transaction (`keeper`, its address), if the pool still holds its key. */
export function walletOf(settling: SettlingChain, keeper: string): ChainSettler | null {
  return settling.settlers.find((s) => settling.adapter.sameAddress(s.keeper, keeper)) ?? null;
}
