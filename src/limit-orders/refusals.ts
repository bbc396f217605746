import { ChainUnavailableError } from "../chains";
import { countActiveLimitOrders } from "../db";
import { RelayError, retryLater } from "../errors";

/** The refusals prepare and place share (docs/limit-orders.md, "Prepare" and "Placing"). */

/** When a taker over `maxOpenPerTaker` may try again: orders close by filling, cancel or expiry, not soon. */
const TOO_MANY_OPEN_RETRY_SECONDS = 60;
/** When to try again after the chain did not answer a read. */
const CHAIN_RETRY_SECONDS = 5;

export async function refuseOverLimit(db: D1Database, taker: string, max: number, now: string): Promise<void> {
  const open = await countActiveLimitOrders(db, taker, now);
  if (open >= max) throw tooManyOpen(open, max);
}

export const tooManyOpen = (open: number, max: number) =>
  retryLater(
    429,
    "too_many_open",
    `This taker has ${open} open limit orders, the most allowed is ${max}.`,
    TOO_MANY_OPEN_RETRY_SECONDS,
    { open, max },
  );

/** The figures of a limit that does not cover the fees (docs/limit-orders.md, "Amounts"), in the buy token. */
export interface BelowFees {
  limitAmount: bigint;
  feeAtLimit: bigint;
  /** The most gas fee a fill may charge; it counts against the limit only when charged in the buy token. */
  maxGasFee: bigint;
  smallestLimit: bigint;
}

export const limitBelowFees = (f: BelowFees) =>
  new RelayError(
    400,
    "limit_below_fees",
    `The limit ${f.limitAmount} does not cover the protocol fee at it (${f.feeAtLimit}) and the most gas fee (${f.maxGasFee}); the smallest limit that does is ${f.smallestLimit}.`,
    { feeAtLimit: `${f.feeAtLimit}`, maxGasFee: `${f.maxGasFee}`, smallestLimit: `${f.smallestLimit}` },
  );

export const termsMismatch = (field: string, message: string) =>
  new RelayError(400, "terms_mismatch", message, { field });

export const nonceUsed = () =>
  new RelayError(409, "nonce_used", "The order's Permit2 nonce is already used: prepare a new draft.");

/** Runs chain reads; a chain that does not answer is 503 `chain_unavailable`. */
export async function readingChain<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ChainUnavailableError) {
      throw retryLater(503, "chain_unavailable", "The chain did not answer; try again shortly.", CHAIN_RETRY_SECONDS);
    }
    throw e;
  }
}
