/**
 * A careful client keeps under the limits the relay publishes (`limits` in `GET /v1/config`,
 * docs/security.md "Limits"), so a 429 during a chaos run can only be the relay counting what it must not
 * (a repeated key): the takers of one client share its quote rate on each corridor, and each taker paces
 * its own submissions. Each pace is 80 % of the limit, room for the retries a crash causes.
 */
import type { Limits } from "../../../src/schemas/limits";

const SHARE = 0.8;

/** Spaces turns at least `intervalMs` apart, whoever takes them. */
export class Pacer {
  private next = 0;

  constructor(
    readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when the caller's turn comes. */
  turn(): Promise<void> {
    const at = Math.max(this.now(), this.next);
    this.next = at + this.intervalMs;
    const wait = at - this.now();
    return wait > 0 ? new Promise((r) => setTimeout(r, wait)) : Promise.resolve();
  }
}

export interface Pacing {
  /** The quote requests of every taker on one chain (one corridor each here) wait their turn here. */
  quote(chainId: number): Promise<void>;
  /** Between one taker's submissions. */
  submissionIntervalMs: number;
}

export function pacing(
  limits: Pick<Limits, "quotesPerSecond" | "takerQuotesPer10s" | "takerSubmissionsPer10s">,
): Pacing {
  const quoteRate = Math.min(limits.quotesPerSecond, limits.takerQuotesPer10s / 10) * SHARE;
  const pacers = new Map<number, Pacer>();
  return {
    quote: (chainId) => {
      const pacer = pacers.get(chainId) ?? new Pacer(1_000 / quoteRate);
      pacers.set(chainId, pacer);
      return pacer.turn();
    },
    submissionIntervalMs: 10_000 / (limits.takerSubmissionsPer10s * SHARE),
  };
}
