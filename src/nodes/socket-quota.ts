import type { RelayConfig } from "../config";
import { type Refusal, refuse } from "../errors";
import { resolverKey } from "../ids";
import { type ClientId, overShare, perPeriod, TokenBuckets } from "../limits";

type SocketLimits = Pick<RelayConfig["limits"], "socketsPerClient" | "newSocketsPerMinute" | "socketsPerCorridor">;

/** Who a registered resolver's sockets count against: the resolver itself, not the address it connects from. */
export const resolverClient = (address: string): ClientId => `resolver:${resolverKey(address)}`;

/**
 * How many sockets a client may hold on a corridor and open a minute, and how many the corridor holds for
 * all clients (docs/security.md, "Limits"): a connect request over the client's limits is refused 429
 * `rate_limited`, one over the corridor's 503 `corridor_busy`. A connect request is counted against the
 * address it comes from, the only client known before auth; a socket that authenticates as a registered
 * resolver is then counted against the resolver (`claim`), and gives its address the slot back.
 */
export class SocketQuota {
  /** Sockets each client opened lately. */
  private readonly opened = new TokenBuckets();

  constructor(private readonly limits: SocketLimits) {}

  /**
   * Null when `opener`, holding `held` of the `total` sockets here, may open one more at `now` (and
   * counts it); else why not.
   */
  admit(opener: ClientId, held: number, total: number, now: number): Refusal | null {
    const { socketsPerClient, socketsPerCorridor } = this.limits;
    const over = overShare(held, total, socketsPerClient, socketsPerCorridor);
    if (over === "client") {
      return refuse(429, "rate_limited", `This client holds ${socketsPerClient} sockets here already.`, {
        retryAfter: 60,
      });
    }
    if (over === "corridor") {
      return refuse(503, "corridor_busy", "The corridor holds as many resolver sockets as it takes; retry shortly.", {
        retryAfter: 10,
      });
    }
    const opened = this.opened.take(opener, now, this.rate());
    if (opened.ok) return null;
    return refuse(429, "rate_limited", "Too many sockets opened from this client; wait.", {
      retryAfter: opened.retryAfter,
    });
  }

  /**
   * A socket `opener` opened at `now` authenticated as the registered resolver `address`: it counts
   * against the resolver's own new-socket rate, and the opener's is given back. Who the socket counts
   * against from now on: the resolver, or still its opener (as a stranger's) when the resolver is over
   * its own rate.
   */
  claim(opener: ClientId, address: string, now: number): ClientId {
    const resolver = resolverClient(address);
    if (!this.opened.take(resolver, now, this.rate()).ok) return opener;
    this.opened.give(opener, now, this.rate());
    return resolver;
  }

  private rate() {
    return perPeriod(this.limits.newSocketsPerMinute, 60);
  }
}
