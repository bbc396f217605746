/**
 * Which of an auction's unchecked bids have their signatures checked after the answer
 * (docs/resolver-protocol.md, "When signatures are checked"): at most `count` of them, drawn uniformly at
 * random, so that an auction's checks do not grow with its bidders and a bidder cannot tell which of its bids
 * will be checked. A bidder among n is checked in an auction with probability count/n (1 when n ≤ count); a
 * forged bid caught is rejected and struck as every forged bid is (src/auction/bid-signatures.ts).
 */
export function sampleBids<T>(bids: readonly T[], count: number, randomBelow: (n: number) => number): T[] {
  const pool = [...bids];
  const take = Math.min(count, pool.length);
  // The first `take` steps of a Fisher–Yates shuffle: each subset of `take` bids is equally likely.
  for (let i = 0; i < take; i++) {
    const j = i + randomBelow(pool.length - i);
    [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
  }
  return pool.slice(0, take);
}

/** A uniform integer in [0, n), from the runtime's cryptographic source: bidders cannot predict the draw. */
export function secureRandomBelow(n: number): number {
  const [word] = crypto.getRandomValues(new Uint32Array(1));
  // 2³² is a multiple of no n here but the bias (n / 2³²) is far below any auction's sample.
  return (word as number) % n;
}
