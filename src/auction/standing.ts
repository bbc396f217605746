import type { Totals } from "../db/resolver-days";
import { detailOf, reliabilityOf } from "../nodes/reliability";

/** How long a read of the resolvers' standing serves auctions before it is read again. */
const STANDING_TTL_MS = 10_000;

/** What an auction needs to know of its bidders beyond their bids. */
export interface Standing {
  /** Lowercase addresses of the resolvers demoted now: they are asked but cannot win. */
  demoted: ReadonlySet<string>;
  /** Reliability by lowercase address, of the resolvers that have one: it breaks ties on `received`. */
  reliability: ReadonlyMap<string, number>;
}

/** Nobody demoted, nobody's reliability known. */
export const NO_STANDING: Standing = { demoted: new Set(), reliability: new Map() };

/** The standing from the demoted addresses and each resolver's counters over the reliability window. */
export function standingOf(demoted: Iterable<string>, totals: ReadonlyMap<string, Totals>): Standing {
  const reliability = new Map<string, number>();
  for (const [address, t] of totals) {
    const r = reliabilityOf(detailOf(t));
    if (r !== null) reliability.set(address.toLowerCase(), r);
  }
  return { demoted: new Set([...demoted].map((a) => a.toLowerCase())), reliability };
}

/**
 * Demotions and reliability change slowly: auctions read them from a short-lived cache instead of D1
 * each time, so no quote waits on the directory. A failed read counts as nobody demoted and nobody's
 * reliability known, until the next read.
 */
export class StandingCache {
  private cached: { at: number; standing: Promise<Standing> } | null = null;

  constructor(private readonly read: (now: number) => Promise<Standing>) {}

  get(now = Date.now()): Promise<Standing> {
    if (!this.cached || now - this.cached.at > STANDING_TTL_MS) {
      const standing = this.read(now).catch(() => NO_STANDING);
      this.cached = { at: now, standing };
    }
    return this.cached.standing;
  }

  /** An admin changed a demotion: the next auction reads afresh. */
  forget(): void {
    this.cached = null;
  }
}
