import type { MovedLimitOrder } from "../../src/db/limit-orders";
import type { LimitBook, LimitCheck, OpenLimitOrder } from "../../src/keeper/limit-job";

const movedOf = (o: OpenLimitOrder): MovedLimitOrder => ({ limitOrderId: o.limitOrderId, corridor: o.corridorKey });

export type FakeStatus = "open" | "filling" | "filled" | "cancelled" | "expired";

export interface FakeOrder {
  order: OpenLimitOrder;
  status: FakeStatus;
  quoteId: string | null;
  attempts: number;
  lastCheckedAt: number | null;
  bestReceived: string | null;
  lastError: string | null;
}

/**
 * Limit orders in memory, with the state moves of docs/limit-orders.md, for the keeper job's tests; the
 * round quotes' statuses are set by the test (`quoteStatus`), as the indexer would record them. Counts
 * its calls, so a test can tell a pass's round trips.
 */
export class FakeLimitBook implements LimitBook {
  readonly orders = new Map<string, FakeOrder>();
  readonly quoteStatus = new Map<string, string>();
  calls = 0;

  add(order: OpenLimitOrder): void {
    this.orders.set(order.limitOrderId, {
      order,
      status: "open",
      quoteId: null,
      attempts: 0,
      lastCheckedAt: null,
      bestReceived: null,
      lastError: null,
    });
  }

  get(id: string): FakeOrder {
    const found = this.orders.get(id);
    if (!found) throw new Error(`no order ${id}`);
    return found;
  }

  /** A taker's cancel: only an open order can be cancelled. */
  cancel(id: string): boolean {
    const o = this.get(id);
    if (o.status !== "open") return false;
    o.status = "cancelled";
    return true;
  }

  async open(now: number, limit: number): Promise<OpenLimitOrder[]> {
    this.calls++;
    return [...this.orders.values()]
      .filter((o) => o.status === "open" && o.order.expiresAt > now)
      .sort((a, b) => (a.lastCheckedAt ?? 0) - (b.lastCheckedAt ?? 0))
      .slice(0, limit)
      .map((o) => o.order);
  }

  async recordChecks(checks: readonly LimitCheck[]): Promise<void> {
    this.calls++;
    for (const c of checks) {
      const o = this.get(c.limitOrderId);
      o.attempts++;
      o.lastCheckedAt = c.at;
      if (c.bestReceived !== null) o.bestReceived = c.bestReceived;
      o.lastError = c.error;
    }
  }

  async startFilling(id: string, quoteId: string): Promise<boolean> {
    this.calls++;
    const o = this.get(id);
    if (o.status !== "open") return false;
    o.status = "filling";
    o.quoteId = quoteId;
    return true;
  }

  async reopen(id: string, error: string): Promise<void> {
    this.calls++;
    const o = this.get(id);
    if (o.status !== "filling") return;
    o.status = "open";
    o.lastError = error;
  }

  async followFilling(): Promise<MovedLimitOrder[]> {
    this.calls++;
    const moved: MovedLimitOrder[] = [];
    for (const o of this.orders.values()) {
      if (o.status !== "filling" || !o.quoteId) continue;
      const status = this.quoteStatus.get(o.quoteId);
      if (status === "settled") o.status = "filled";
      else if (status === "failed" || status === "expired") {
        o.status = "open";
        o.lastError = `fill_${status}`;
      } else continue;
      moved.push(movedOf(o.order));
    }
    return moved;
  }

  async sweepExpired(now: number): Promise<MovedLimitOrder[]> {
    this.calls++;
    const moved: MovedLimitOrder[] = [];
    for (const o of this.orders.values()) {
      if (o.status === "open" && o.order.expiresAt <= now) {
        o.status = "expired";
        moved.push(movedOf(o.order));
      }
    }
    return moved;
  }
}
