/**
 * When the oracle recomputes. It polls public sources, so it only runs while someone uses it: a read
 * (`GET /v1/rates`, a band at quote time) keeps it going for a few minutes, a corridor's subscription
 * for as long as the corridor renews it.
 */

/** Spec part 8: bands are recomputed every 10 s. */
export const RECOMPUTE_INTERVAL_MS = 10_000;
/** A quote or a rates page tends to be followed by more; three minutes spares the next one a cold poll. */
export const READ_KEEPALIVE_MS = 3 * 60_000;
/** Corridors renew every minute while they hold sockets; two minutes survive one missed renewal. */
export const SUBSCRIPTION_TTL_MS = 2 * 60_000;
/** Alarms are at-least-once and a read may have recomputed just before: a round this close to due still runs. */
const DUE_SLACK_MS = 1_000;

export interface Activity {
  /** Reads keep the loop running until this time, unix ms. */
  readUntil: number;
  /** Corridor key → when its subscription lapses, unix ms. */
  subscriptions: Record<string, number>;
}

export const noActivity = (): Activity => ({ readUntil: 0, subscriptions: {} });

/**
 * After a read. Returns the same object when the extension is under one interval, so a busy rates
 * page does not write storage on every request.
 */
export function afterRead(a: Activity, now: number): Activity {
  const until = now + READ_KEEPALIVE_MS;
  return until - a.readUntil < RECOMPUTE_INTERVAL_MS ? a : { ...a, readUntil: until };
}

export function afterSubscribe(a: Activity, corridorKey: string, now: number): Activity {
  return { ...a, subscriptions: { ...a.subscriptions, [corridorKey]: now + SUBSCRIPTION_TTL_MS } };
}

/** Drops lapsed subscriptions. */
export function prune(a: Activity, now: number): Activity {
  const live = Object.entries(a.subscriptions).filter(([, until]) => until > now);
  return live.length === Object.keys(a.subscriptions).length ? a : { ...a, subscriptions: Object.fromEntries(live) };
}

/** Corridors that currently want pushes. */
export const subscribers = (a: Activity, now: number): string[] =>
  Object.entries(a.subscriptions)
    .filter(([, until]) => until > now)
    .map(([key]) => key);

export const isActive = (a: Activity, now: number): boolean => a.readUntil > now || subscribers(a, now).length > 0;

/** A read answers from the last round only if it is under one interval old. */
export const isFresh = (lastAt: number | null, now: number): boolean =>
  lastAt !== null && now - lastAt < RECOMPUTE_INTERVAL_MS;

/** Whether an alarm should poll, or whether a read already did this round's work. */
export const isDue = (lastAt: number | null, now: number): boolean =>
  lastAt === null || now - lastAt >= RECOMPUTE_INTERVAL_MS - DUE_SLACK_MS;

/** When the next round is due. */
export const nextRunAt = (lastAt: number | null, now: number): number =>
  lastAt === null ? now : Math.max(lastAt + RECOMPUTE_INTERVAL_MS, now + DUE_SLACK_MS);
