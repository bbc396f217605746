import { corridorsOfQuoteId } from "../chains";
import type { RelayConfig } from "../config";
import type { Env } from "../env";
import type { FillNotice } from "../keeper";
import { errorText, log } from "../log";
import type { MovedLimitOrder } from "../schemas";
import { corridorStub } from "../stubs";

/**
 * Tells the objects hosting event streams that a subject changed (docs/api.md, "Event streams"): a quote's
 * corridor is named by its id's tag, an order's by its record. Each object reads D1 only if a stream of
 * that subject is open there. A settlement step's notice to the winner rides on the same call to its
 * corridor, so each step costs one call per corridor. Failures are logged, not thrown: a stream that
 * misses a change catches up at its host's next read, a few seconds later.
 */
export function announceQuote(env: Env, config: RelayConfig, quoteId: string, fill?: FillNotice): Promise<void> {
  const keys = corridorsOfQuoteId(config, quoteId);
  // The winner's corridor is the tag's unless the configuration dropped it since the quote was accepted.
  const all = fill && !keys.includes(fill.corridorKey) ? [...keys, fill.corridorKey] : keys;
  return settle(
    all.map((key) => {
      const notice =
        fill?.corridorKey === key
          ? { resolver: fill.resolver, status: fill.status, txHash: fill.txHash, fault: fill.fault }
          : undefined;
      return corridorStub(env, key).quoteChanged(quoteId, notice);
    }),
  );
}

export function announceLimitOrders(env: Env, moved: readonly MovedLimitOrder[]): Promise<void> {
  return settle(moved.map((m) => corridorStub(env, m.corridor).limitOrderChanged(m.limitOrderId)));
}

async function settle(calls: Promise<void>[]): Promise<void> {
  for (const r of await Promise.allSettled(calls)) {
    if (r.status === "rejected") log.warn("stream_announce_failed", { error: errorText(r.reason) });
  }
}
