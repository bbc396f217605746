import { STALE_AFTER_MS } from "../protocol";

/**
 * A node socket's uptime not yet written to its day's counters: from `since` on nothing is counted;
 * before it, `connectedMs` of authenticated time, `freshMs` of it within 35 s of a heartbeat.
 */
export interface Uptime {
  since: number;
  connectedMs: number;
  freshMs: number;
}

/** Nothing counted, from `now` on: at authentication, and after each write. */
export const startUptime = (now: number): Uptime => ({ since: now, connectedMs: 0, freshMs: 0 });

/**
 * Counts the time from `since` to `now`: connected throughout, fresh for as long as it was within 35 s
 * of `lastHeartbeat` (the heartbeat before `now`; null when none came yet).
 */
export function accrue(u: Uptime, lastHeartbeat: number | null, now: number): Uptime {
  if (now <= u.since) return u;
  const fresh =
    lastHeartbeat === null
      ? 0
      : Math.max(0, Math.min(now, lastHeartbeat + STALE_AFTER_MS) - Math.max(u.since, lastHeartbeat));
  return { since: now, connectedMs: u.connectedMs + (now - u.since), freshMs: u.freshMs + fresh };
}
