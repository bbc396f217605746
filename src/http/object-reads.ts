import type { Context } from "hono";
import type { AppEnv } from "../env";
import { retryLater } from "../errors";
import { TokenBuckets } from "../limits";
import { requestClient } from "./client";

/** Reads that reach a Durable Object, per client, in this isolate's memory (docs/security.md, "Reads that reach objects"). */
const reads = new TokenBuckets();

/**
 * What a read calls before it reaches an object (a corridor's or the keeper's write-through, the nodes of
 * every corridor, the oracle): counts it against the request's client at its rate (an API key's own
 * first), 429 `rate_limited` past it. A read D1 answers alone costs nothing.
 */
export function objectRead(c: Context<AppEnv>): () => Promise<void> {
  return async () => {
    const { client, quotas } = await requestClient(c);
    const limits = c.get("config").limits;
    const rate = {
      perSecond: quotas?.objectReadsPerSecond ?? limits.objectReadsPerSecond,
      burst: quotas?.objectReadBurst ?? limits.objectReadBurst,
    };
    const spent = reads.take(client, Date.now(), rate);
    if (!spent.ok) {
      throw retryLater(429, "rate_limited", "Too many reads from this client; wait.", spent.retryAfter);
    }
  };
}

/** Counts a read that always reaches an object (`GET /v1/nodes`, `/v1/corridors`, …) before it does. */
export const countObjectRead = (c: Context<AppEnv>): Promise<void> => objectRead(c)();
