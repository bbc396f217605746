import type { RelayFrame } from "../protocol";
import { readStanding, type Standing, StandingCache } from "./standing";
import type { Demotion } from "./strike-policy";
import { strike } from "./strikes";

export interface CorridorStandingHost {
  db: D1Database;
  /** Sends a frame to the node with this address, if it is connected to the corridor. */
  send(address: string, frame: RelayFrame): void;
}

/**
 * Resolver standing as one corridor sees it (docs/reliability.md): the standing its auctions read
 * (cached, src/resolvers/standing.ts), strikes for what its nodes did in its auctions, and demotions,
 * which the demoted node hears of at once (`error strike`, then `demoted`).
 */
export class CorridorStanding {
  private readonly cache: StandingCache;

  constructor(private readonly host: CorridorStandingHost) {
    this.cache = new StandingCache((now) => readStanding(host.db, now));
  }

  /** Who is demoted and each resolver's reliability; reading it ahead of an auction keeps D1 off its path. */
  get(now?: number): Promise<Standing> {
    return this.cache.get(now);
  }

  /** The standing held now, without waiting for D1 (null before the first read): for `GET /v1/prices`. */
  held(now?: number): Standing | null {
    return this.cache.held(now);
  }

  /** A strike for a node that failed in one of this corridor's auctions; `event` makes it count once. */
  async strike(resolver: string, event: string, why: string, quoteId: string): Promise<void> {
    await strike(this.host.db, { resolver, event, quoteId, why, now: Date.now() }, (d) => this.demoted(resolver, d));
  }

  /** A resolver was demoted (here or by the keeper): it hears why, and auctions read standing afresh. */
  demoted(resolver: string, demotion: Demotion): void {
    this.cache.forget();
    this.host.send(resolver, { type: "error", code: "strike", message: demotion.reason });
    this.host.send(resolver, { type: "demoted", until: demotion.demotedUntil, reason: demotion.reason });
  }

  /** An admin changed a demotion: the next auction waits for a fresh read. */
  forget(): void {
    this.cache.forget();
  }
}
