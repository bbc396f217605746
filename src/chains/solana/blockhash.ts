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
/** A read that takes longer is abandoned; the next refresh tries again. */
const READ_TIMEOUT_MS = 5_000;

export interface RecentBlockhash {
  blockhash: string;
  lastValidBlockHeight: number;
  /** When the read that returned it started (ms). */
  at: number;
}

/** Reads `getLatestBlockhash` at `confirmed` from a Solana JSON-RPC endpoint. */
export async function readLatestBlockhash(rpcUrl: string, now: () => number = Date.now): Promise<RecentBlockhash> {
  const at = now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), READ_TIMEOUT_MS);
  try {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "getLatestBlockhash",
        params: [{ commitment: "confirmed" }],
      }),
      signal: controller.signal,
    });
    if (!res.ok) throw new Error(`getLatestBlockhash answered HTTP ${res.status}`);
    const body = (await res.json()) as {
      result?: { value?: { blockhash?: unknown; lastValidBlockHeight?: unknown } };
      error?: { message?: string };
    };
    const value = body.result?.value;
    if (typeof value?.blockhash !== "string" || typeof value.lastValidBlockHeight !== "number") {
      throw new Error(`getLatestBlockhash failed: ${body.error?.message ?? "no blockhash in the answer"}`);
    }
    return { blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight, at };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Holds the last blockhash read and reads a new one when asked to refresh and the last is older than
 * `REFRESH_EVERY_MS` (one read at a time). `current` never reads: it answers what is held, or null when
 * nothing fresh enough is held (a quote then cannot be built: the chain's RPC is not answering).
 */
export class BlockhashKeeper {
  private latest: RecentBlockhash | null = null;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly read: () => Promise<RecentBlockhash>,
    private readonly onError: (e: unknown) => void = () => {},
  ) {}

  /** The held blockhash if it is at most `MAX_AGE_MS` old at `now`. */
  current(now: number): RecentBlockhash | null {
    return this.latest && now - this.latest.at <= MAX_AGE_MS ? this.latest : null;
  }

  /** Starts a read if the held blockhash is due for one; the promise settles when that read does. */
  refresh(now: number): Promise<void> {
    if (this.reading) return this.reading;
    if (this.latest && now - this.latest.at < REFRESH_EVERY_MS) return Promise.resolve();
    this.reading = this.read()
      .then((r) => {
        if (!this.latest || r.at >= this.latest.at) this.latest = r;
      })
      .catch((e: unknown) => this.onError(e))
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }
}
