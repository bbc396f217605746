/**
 * Token buckets by key, the one counter behind every rate the relay limits (docs/security.md, "Limits"):
 * a key may spend `burst` at once and earns `perSecond` back. In memory: a bucket that has filled up again
 * is the same as none, so the map only holds keys heard from lately.
 */
export interface Rate {
  perSecond: number;
  burst: number;
}

export type Spent = { ok: true } | { ok: false; retryAfter: number };

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets are dropped once this many are held and they have had time to fill up again. */
const PRUNE_AT = 10_000;

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  /** Spends one token of `key`'s bucket at `now` (ms); refused, when one will be there again (whole seconds). */
  take(key: string, now: number, rate: Rate): Spent {
    const tokens = this.level(key, now, rate);
    if (tokens < 1) return { ok: false, retryAfter: Math.max(1, Math.ceil((1 - tokens) / rate.perSecond)) };
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    if (this.buckets.size > PRUNE_AT) this.prune(now, rate);
    return { ok: true };
  }

  /** Gives back a token `key` spent (never above its burst). */
  give(key: string, now: number, rate: Rate): void {
    const bucket = this.buckets.get(key);
    if (bucket) this.buckets.set(key, { tokens: Math.min(rate.burst, this.level(key, now, rate) + 1), at: now });
  }

  /**
   * Spends one token of `key`'s bucket whatever it holds: a bucket may go below zero, so what a burst let
   * through at once is earned back before its key passes again (a refusal counted after the fact).
   */
  charge(key: string, now: number, rate: Rate): void {
    this.buckets.set(key, { tokens: this.level(key, now, rate) - 1, at: now });
    if (this.buckets.size > PRUNE_AT) this.prune(now, rate);
  }

  /** Whether `key`'s bucket is full: it spent nothing it has not earned back. */
  full(key: string, now: number, rate: Rate): boolean {
    return this.level(key, now, rate) >= rate.burst;
  }

  /** Whether `key` could spend a token now, spending nothing. */
  peek(key: string, now: number, rate: Rate): Spent {
    const tokens = this.level(key, now, rate);
    return tokens >= 1
      ? { ok: true }
      : { ok: false, retryAfter: Math.max(1, Math.ceil((1 - tokens) / rate.perSecond)) };
  }

  private level(key: string, now: number, rate: Rate): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return rate.burst;
    return Math.min(rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * rate.perSecond);
  }

  /** Drops the buckets that have filled up again (one in debt takes longer than its burst to). */
  private prune(now: number, rate: Rate): void {
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.at >= ((rate.burst - bucket.tokens) / rate.perSecond) * 1000) this.buckets.delete(key);
    }
  }
}

/** `count` per `seconds`, as a bucket: all of them at once, earned back over the period. */
export const perPeriod = (count: number, seconds: number): Rate => ({ perSecond: count / seconds, burst: count });
