import { KeptInput } from "../kept-input";
import { solanaRpc } from "./rpc";

/**
 * A Solana chain's recent blockhash, kept fresh in the background (docs/settlement.md): the quote's
 * transaction is built with it once the winner is known, so it is never fetched on a quote's path. A
 * blockhash stays valid for 150 slots (about 60 s); the relay uses one at most `MAX_AGE_MS` old, which
 * leaves the taker and the keeper most of that time.
 */

/** How often a corridor that serves Solana quotes reads a new blockhash. */
export const REFRESH_EVERY_MS = 5_000;
/** The oldest blockhash a quote is built with. */
export const MAX_AGE_MS = 20_000;

export interface RecentBlockhash {
  blockhash: string;
  lastValidBlockHeight: number;
  /** When the read that returned it started (ms). */
  at: number;
}

/** Reads `getLatestBlockhash` at `confirmed` from a Solana JSON-RPC endpoint (errors as `solanaRpc`'s). */
export async function readLatestBlockhash(rpcUrl: string, now: () => number = Date.now): Promise<RecentBlockhash> {
  const at = now();
  const { value } = await solanaRpc<{ value: { blockhash: string; lastValidBlockHeight: number } }>(
    rpcUrl,
    "getLatestBlockhash",
    [{ commitment: "confirmed" }],
  );
  return { blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight, at };
}

/**
 * Holds the last blockhash read and reads a new one when asked to refresh and the last is older than
 * `REFRESH_EVERY_MS` (`KeptInput`: one read at a time, a failed one retried no sooner than a second later).
 * `current` never reads: it answers what is held, or null when nothing fresh enough is held (a quote then
 * cannot be built: the chain's RPC is not answering).
 */
export class BlockhashKeeper {
  private readonly kept: KeptInput<RecentBlockhash>;

  constructor(read: () => Promise<RecentBlockhash>, onError: (e: unknown) => void = () => {}) {
    this.kept = new KeptInput(read, REFRESH_EVERY_MS, onError);
  }

  /** The held blockhash if it is at most `MAX_AGE_MS` old at `now`. */
  current(now: number): RecentBlockhash | null {
    const held = this.kept.current()?.value ?? null;
    return held && now - held.at <= MAX_AGE_MS ? held : null;
  }

  /** Starts a read if the held blockhash is due for one; the promise settles when that read does. */
  refresh(now: number): Promise<void> {
    return this.kept.refresh(now);
  }
}
