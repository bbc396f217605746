import type { RelayConfig } from "../config";
import { type Refusal, refuse } from "../errors";
import { type ClientId, perPeriod, TokenBuckets } from "../limits";

/**
 * How many sockets a client may hold on a corridor and open a minute (docs/security.md, "Limits"): a
 * connect request over either is refused 429 `rate_limited`.
 */
export class SocketQuota {
  /** Sockets each client opened lately. */
  private readonly opened = new TokenBuckets();

  constructor(private readonly limits: Pick<RelayConfig["limits"], "socketsPerClient" | "newSocketsPerMinute">) {}

  /** Null when `opener`, holding `held` sockets here, may open one more at `now` (and counts it); else why not. */
  admit(opener: ClientId, held: number, now: number): Refusal | null {
    const { socketsPerClient, newSocketsPerMinute } = this.limits;
    if (held >= socketsPerClient) {
      return refuse(429, "rate_limited", `This client holds ${socketsPerClient} sockets here already.`, {
        retryAfter: 60,
      });
    }
    const opened = this.opened.take(opener, now, perPeriod(newSocketsPerMinute, 60));
    if (opened.ok) return null;
    return refuse(429, "rate_limited", "Too many sockets opened from this client; wait.", {
      retryAfter: opened.retryAfter,
    });
  }
}
