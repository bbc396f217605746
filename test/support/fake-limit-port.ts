import type { TakerSide } from "../../src/chains/limit-orders";
import { refuse } from "../../src/errors";
import type { LimitBook, LimitJobPort } from "../../src/keeper/limit-job";
import type { SubmitOutcome, SubmitRequest } from "../../src/keeper/rpc";
import type { LimitAsk } from "../../src/limit-orders/window";
import type { LimitCheck, LimitOrderRow, MovedLimitOrder, OpenLimitOrder } from "../../src/schemas/limit-order";
import type { Band } from "../../src/schemas/quote";
import { afterFailedFill, LIMIT_MOVES } from "../../src/states/limit-order-states";
import type { QuoteInput } from "../../src/types";

const iso = (ms: number) => new Date(ms).toISOString();
const movedOf = (o: LimitOrderRow): MovedLimitOrder => ({ limitOrderId: o.limitOrderId, corridor: o.corridor });
const NEVER_SETTLES = new Set(["failed", "expired", "cancelled"]);

/**
 * Limit orders in memory for the keeper job's tests: the book of `limitJobPort` (src/keeper/limit-port.ts)
 * with the moves of src/db/limit-moves.ts, each under the same condition. The round quotes' statuses are set
 * by the test (`quoteStatus`), as the indexer would record them. Counts its calls, so a test can tell a
 * pass's round trips.
 */
export class FakeLimitBook implements LimitBook {
  readonly orders = new Map<string, LimitOrderRow>();
  readonly quoteStatus = new Map<string, string>();
  calls = 0;

  add(order: LimitOrderRow): void {
    this.orders.set(order.limitOrderId, { ...order });
  }

  get(id: string): LimitOrderRow {
    const found = this.orders.get(id);
    if (!found) throw new Error(`no order ${id}`);
    return found;
  }

  /** A taker's cancel (src/db/limit-moves.ts `cancelLimitOrder`): only an open, unexpired order. */
  cancel(id: string, now: number): boolean {
    const o = this.get(id);
    if (o.status !== "open" || Date.parse(o.expiresAt) <= now) return false;
    Object.assign(o, { status: "cancelled", updatedAt: iso(now) });
    return true;
  }

  async open(now: number, limit: number): Promise<OpenLimitOrder[]> {
    this.calls++;
    return [...this.orders.values()]
      .filter((o): o is OpenLimitOrder => o.status === "open" && Date.parse(o.expiresAt) > now)
      .sort((a, b) => (a.lastCheckedAt ?? "").localeCompare(b.lastCheckedAt ?? ""))
      .slice(0, limit);
  }

  async recordChecks(checks: readonly LimitCheck[]): Promise<void> {
    this.calls++;
    for (const c of checks) {
      const o = this.get(c.limitOrderId);
      if (o.status !== "open" && o.status !== "filling") continue;
      Object.assign(o, { ...c, attempts: o.attempts + (c.auctioned ? 1 : 0), updatedAt: c.lastCheckedAt });
    }
  }

  async startFilling(id: string, quoteId: string, now: number): Promise<boolean> {
    this.calls++;
    const o = this.get(id);
    if (o.status !== "open" || Date.parse(o.expiresAt) <= now) return false;
    Object.assign(o, { status: "filling", quoteId, updatedAt: iso(now) });
    return true;
  }

  async fillFailed(id: string, quoteId: string, reason: string, now: number): Promise<void> {
    this.calls++;
    const o = this.get(id);
    if (o.status !== "filling" || o.quoteId !== quoteId) return;
    const status = LIMIT_MOVES[afterFailedFill(reason)].to;
    Object.assign(o, { status, quoteId: null, lastError: reason, updatedAt: iso(now) });
  }

  async followFilling(now: number): Promise<MovedLimitOrder[]> {
    this.calls++;
    const moved: MovedLimitOrder[] = [];
    for (const o of this.orders.values()) {
      if (o.status !== "filling" || !o.quoteId) continue;
      const status = this.quoteStatus.get(o.quoteId) ?? "";
      if (status === "settled") Object.assign(o, { status: "filled", updatedAt: iso(now) });
      else if (NEVER_SETTLES.has(status)) {
        Object.assign(o, { status: "open", quoteId: null, lastError: `fill_${status}`, updatedAt: iso(now) });
      } else continue;
      moved.push(movedOf(o));
    }
    return moved;
  }

  async revoke(ids: readonly string[], reason: string, now: number): Promise<MovedLimitOrder[]> {
    this.calls++;
    const moved: MovedLimitOrder[] = [];
    for (const id of ids) {
      const o = this.get(id);
      if (o.status !== "open") continue;
      Object.assign(o, { status: "cancelled", lastError: reason, updatedAt: iso(now) });
      moved.push(movedOf(o));
    }
    return moved;
  }

  async sweepExpired(now: number): Promise<MovedLimitOrder[]> {
    this.calls++;
    const moved: MovedLimitOrder[] = [];
    for (const o of this.orders.values()) {
      if (o.status === "open" && Date.parse(o.expiresAt) <= now) {
        Object.assign(o, { status: "expired", updatedAt: o.expiresAt });
        moved.push(movedOf(o));
      }
    }
    return moved;
  }
}

export interface FakeLimitPortOptions {
  /** What every round's best bid gives the recipient; a round under the order's `minOut` is refused. */
  received?: bigint;
  submit?: (request: SubmitRequest) => SubmitOutcome;
  paused?: () => boolean;
}

/**
 * The limit job's port (`LimitJobPort`, real one `limitJobPort` in src/keeper/limit-port.ts) in memory:
 * the book above, one band for every corridor, rounds that quote `received`, submissions that succeed
 * unless the test says otherwise, and a clock the test moves.
 */
export class FakeLimitPort implements LimitJobPort {
  static readonly band: Band = { base: "USD", quote: "NGN", mid: 1580, low: 1570, high: 1590, sources: 3, at: 0 };

  readonly book = new FakeLimitBook();
  readonly auctions: QuoteInput[] = [];
  readonly submissions: SubmitRequest[] = [];
  /** Moves announced, as `<limitOrderId>@<corridor>`. */
  readonly moves: string[] = [];
  /** What the chain shows of each order's taker side, by order id; whole unless the test says otherwise. */
  readonly sides = new Map<string, TakerSide>();
  /** How many times the job read taker sides, and how many orders in all. */
  sideReads = { calls: 0, orders: 0 };
  clock = 1_000_000;
  private quotes = 0;

  constructor(private readonly options: FakeLimitPortOptions = {}) {}

  /** The band every corridor has; null: no source answers. */
  bandNow: Band | null = FakeLimitPort.band;

  async band(): Promise<Band | null> {
    return this.bandNow;
  }

  async takerSides(orders: readonly OpenLimitOrder[]): Promise<TakerSide[]> {
    this.sideReads.calls++;
    this.sideReads.orders += orders.length;
    return orders.map((o) => this.sides.get(o.limitOrderId) ?? { kind: "whole" });
  }

  /** Every order sells naira-tracking units for dollar-tracking ones, both of 6 decimals. */
  ask(order: OpenLimitOrder): LimitAsk {
    return {
      sellAmount: BigInt(order.sellAmount),
      limitAmount: BigInt(order.limitAmount),
      sellAsset: "NGN",
      buyAsset: "USD",
      sellDecimals: 6,
      buyDecimals: 6,
    };
  }

  async auction(_corridorKey: string, input: QuoteInput) {
    this.auctions.push(input);
    const received = this.options.received ?? 949_000n;
    if (received < BigInt(input.limit?.minOut ?? "0")) {
      return refuse(404, "below_limit", "below", { bestReceived: received.toString() });
    }
    return { kind: "quoted" as const, quote: { quoteId: `q_${++this.quotes}`, received: received.toString() } };
  }

  async submit(request: SubmitRequest): Promise<SubmitOutcome> {
    this.submissions.push(request);
    return (
      this.options.submit?.(request) ?? { kind: "submitted", quoteId: request.quoteId, executionId: "x", txHash: "0x" }
    );
  }

  paused(): boolean {
    return this.options.paused?.() ?? false;
  }

  moved(orders: readonly MovedLimitOrder[]): void {
    this.moves.push(...orders.map((o) => `${o.limitOrderId}@${o.corridor}`));
  }

  now(): number {
    return this.clock;
  }

  tick(ms: number): void {
    this.clock += ms;
  }
}
