import { type Address, encodeFunctionData, erc20Abi } from "viem";
import { LruCache } from "../../lru-cache";
import { FAILED_READ_RETRY_MS, KeptInput } from "../kept-input";
import { ethCallBatch, type Fetcher, uintOf } from "./call-batch";

/** How often a taker's allowance is read again while it asks for quotes: about a block. */
export const ALLOWANCE_EVERY_MS = 4_000;

/** An allowance read longer ago than this says nothing: the fill is priced as if it carried a permit. */
export const ALLOWANCE_MAX_AGE_MS = 60_000;

/** The takers whose allowances one chain keeps in an isolate, the least recently asked dropped first. */
export const ALLOWANCES_HELD = 4_096;

/**
 * What Permit2 may spend of each taker's sell token (`allowance(taker, permit2)`), read in the background
 * when a taker asks for a quote and held for its next ones (docs/settlement.md, "The gas of each kind of
 * fill"): whether a fill will carry an EIP-2612 permit, known without a read on the quote's path. One
 * read per taker and token at a time, at most every `ALLOWANCE_EVERY_MS`; a failed one is logged and
 * leaves what was held, and no taker's is read for `FAILED_READ_RETRY_MS` after it, so a chain that does
 * not answer is not asked once per new taker.
 */
export class TakerAllowances {
  private readonly held = new LruCache<string, KeptInput<bigint>>(ALLOWANCES_HELD);
  private failedAt = Number.NEGATIVE_INFINITY;
  private startedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly chain: { rpcUrl: string; permit2: string },
    private readonly onError: (e: unknown) => void,
    private readonly fetcher?: Fetcher,
  ) {}

  /** Starts a read of `taker`'s allowance of `token` if one is due; settles (never rejects) when it does. */
  keepFresh(taker: string, token: string, now: number): Promise<void> {
    if (now - this.failedAt < FAILED_READ_RETRY_MS) return Promise.resolve();
    this.startedAt = now;
    return this.of(taker, token).refresh(now);
  }

  /**
   * Whether a fill by `taker` paying `takerPays` of `token` will carry a permit: false when an allowance
   * read in the last `ALLOWANCE_MAX_AGE_MS` covers it, true when it does not, null when none was.
   */
  carriesPermit(taker: string, token: string, takerPays: bigint, now: number): boolean | null {
    const read = this.of(taker, token).current();
    if (!read || now - read.at > ALLOWANCE_MAX_AGE_MS) return null;
    return read.value < takerPays;
  }

  private of(taker: string, token: string): KeptInput<bigint> {
    const key = `${taker.toLowerCase()}:${token.toLowerCase()}`;
    return this.held.getOrMake(
      key,
      () => new KeptInput(() => this.read(taker, token), ALLOWANCE_EVERY_MS, this.onError),
    );
  }

  private async read(taker: string, token: string): Promise<bigint> {
    const at = this.startedAt;
    const args = [taker as Address, this.chain.permit2 as Address] as const;
    const data = encodeFunctionData({ abi: erc20Abi, functionName: "allowance", args });
    try {
      const [answer] = await ethCallBatch(this.chain.rpcUrl, [{ to: token as Address, data }], this.fetcher);
      return uintOf(answer, "the taker's Permit2 allowance");
    } catch (e) {
      this.failedAt = Math.max(this.failedAt, at);
      throw e;
    }
  }
}
