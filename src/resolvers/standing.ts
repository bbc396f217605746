import type { Totals } from "../db";
import { readStandingRows } from "../db";
import { resolverKey } from "../ids";
import { detailOf, reliabilityOf, windowStart } from "./reliability";

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
    if (r !== null) reliability.set(resolverKey(address), r);
  }
  return { demoted: new Set([...demoted].map((a) => resolverKey(a))), reliability };
}

/** Who is demoted at `now` and each resolver's reliability over the window, read from D1 in one round trip. */
export async function readStanding(db: D1Database, now: number): Promise<Standing> {
  const { demoted, totals } = await readStandingRows(db, now, windowStart(now));
  return standingOf(demoted, totals);
}

/**
 * Demotions and reliability change slowly: auctions read them from a short-lived cache instead of D1
 * each time, so no quote waits on the directory. Past 10 s the cached standing still serves while a new
 * read runs behind it; only the first read, and the first after `forget`, is waited for. A failed read
 * keeps the last standing (nobody demoted, nobody's reliability known, when there is none) until the
 * next read.
 */
export class StandingCache {
  private current: Standing | null = null;
  private readAt = Number.NEGATIVE_INFINITY;
  private reading: Promise<Standing> | null = null;

  constructor(private readonly read: (now: number) => Promise<Standing>) {}

  get(now = Date.now()): Promise<Standing> {
    if (now - this.readAt > STANDING_TTL_MS && !this.reading) {
      this.readAt = now;
      const reading = this.read(now)
        .catch(() => this.current ?? NO_STANDING)
        .then((standing) => {
          if (this.reading === reading) {
            this.current = standing;
            this.reading = null;
          }
          return standing;
        });
      this.reading = reading;
    }
    return this.current ? Promise.resolve(this.current) : (this.reading ?? Promise.resolve(NO_STANDING));
  }

  /**
   * The standing held now, never waiting: null before the first read has come in (that read is started
   * if it is not running, so a later call finds it).
   */
  held(now = Date.now()): Standing | null {
    void this.get(now);
    return this.current;
  }

  /** An admin changed a demotion: the next auction waits for a fresh read. */
  forget(): void {
    this.current = null;
    this.reading = null;
    this.readAt = Number.NEGATIVE_INFINITY;
  }
}
