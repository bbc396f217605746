import type { LimitRound, QuoteInput } from "../auction/quote-input";
import type { MovedLimitOrder } from "../db/limit-orders";
import type { Refusal } from "../errors";
import type { LimitAsk } from "../limits/window";
import { withinWindow } from "../limits/window";
import type { BandValue } from "../schemas/quote";
import type { SubmitOutcome, SubmitRequest } from "./contract";

/** The most open orders one pass reads; the least recently checked come first, so every order gets its turn. */
export const LIMIT_BATCH = 500;
/** The most rounds one pass runs, at once (each an auction of up to one rfq window). */
export const LIMIT_ROUNDS_PER_PASS = 16;

/** An open limit order as the job needs it (docs/limit-orders.md, "The keeper's job"). */
export interface OpenLimitOrder {
  limitOrderId: string;
  chainId: number;
  corridorKey: string;
  taker: string;
  recipient: string;
  sellToken: string;
  buyToken: string;
  sellAmount: string;
  limitAmount: string;
  /** The order the taker signed (LimitAuth as JSON), its Permit2 nonce and the least the recipient gets. */
  round: LimitRound;
  /** The taker's signature over the order, and its EIP-2612 permit for Permit2 if it sent one. */
  signature: string;
  permit: SubmitRequest["permit"];
  /** Unix ms. */
  expiresAt: number;
}

/** What one round found, for the order's `attempts`, `lastCheckedAt`, `bestReceived` and `lastError`. */
export interface LimitCheck {
  limitOrderId: string;
  at: number;
  bestReceived: string | null;
  error: string | null;
}

/**
 * Where limit orders live (D1 behind it): every read and write of a pass is one statement or one batch,
 * so a pass's D1 round trips do not grow with the number of orders.
 */
export interface LimitBook {
  /** Open orders not past their expiry, least recently checked first, at most `limit`. */
  open(now: number, limit: number): Promise<OpenLimitOrder[]>;
  /** Records many rounds' outcomes at once (`attempts` + 1 each). */
  recordChecks(checks: readonly LimitCheck[]): Promise<void>;
  /** `open → filling` with the round's quote; false when the order is no longer open (cancelled meanwhile). */
  startFilling(limitOrderId: string, quoteId: string, now: number): Promise<boolean>;
  /** `filling → open` with why (the fill was refused before anything was sent). */
  reopen(limitOrderId: string, error: string, now: number): Promise<void>;
  /**
   * Follows every `filling` order to its round's quote: `filled` once it settled, back to `open` (with the
   * reason) once it failed or was never sent before it expired. One statement per move.
   */
  followFilling(now: number): Promise<MovedLimitOrder[]>;
  /** `open → expired` for every open order past its expiry; the orders it expired. */
  sweepExpired(now: number): Promise<MovedLimitOrder[]>;
}

export interface LimitJobPort {
  book: LimitBook;
  /** The corridor's latest band, or null. */
  band(corridorKey: string): Promise<BandValue | null>;
  /** What the window needs of an order's tokens: the band assets they track and their decimals. */
  ask(order: OpenLimitOrder): LimitAsk;
  /** One round on the order's corridor (the corridor object's `requestQuote` with `limit`). */
  auction(
    corridorKey: string,
    input: QuoteInput,
  ): Promise<{ kind: "quoted"; quote: { quoteId: string; received: string } } | Refusal>;
  /** The keeper's own submission of a round's quote (the same path as `POST /v1/executions`). */
  submit(request: SubmitRequest): Promise<SubmitOutcome>;
  /** Whether an operator paused the keeper: no round starts then (docs/operations.md, "Pausing"). */
  paused(): boolean;
  /** Orders that moved: their event streams are told (src/streams/announce.ts); never waited for. */
  moved(orders: readonly MovedLimitOrder[]): void;
  now(): number;
}

/**
 * One pass of the limit job (docs/limit-orders.md, "The keeper's job"): fillings followed to their end,
 * expired orders swept, then (unless the keeper is paused) a round for each open order near the market, its outcome recorded, and a
 * winning round's quote submitted through the keeper. Idempotent: a pass repeated after a crash finds
 * orders already `filling` and leaves them to `followFilling`.
 */
export async function limitPass(port: LimitJobPort): Promise<void> {
  const { book } = port;
  const now = port.now();
  port.moved(await book.followFilling(now));
  port.moved(await book.sweepExpired(now));
  if (port.paused()) return;
  const open = await book.open(now, LIMIT_BATCH);
  const bands = new Map<string, BandValue | null>();
  const near: OpenLimitOrder[] = [];
  for (const order of open) {
    if (!bands.has(order.corridorKey)) bands.set(order.corridorKey, await port.band(order.corridorKey));
    if (withinWindow(bands.get(order.corridorKey) ?? null, port.ask(order))) near.push(order);
    if (near.length === LIMIT_ROUNDS_PER_PASS) break;
  }
  const checks = await Promise.all(near.map((order) => round(port, order)));
  await book.recordChecks(checks);
}

async function round(port: LimitJobPort, order: OpenLimitOrder): Promise<LimitCheck> {
  const check = (bestReceived: string | null, error: string | null): LimitCheck => ({
    limitOrderId: order.limitOrderId,
    at: port.now(),
    bestReceived,
    error,
  });
  const outcome = await port.auction(order.corridorKey, {
    chainId: order.chainId,
    sellToken: order.sellToken,
    buyToken: order.buyToken,
    sellAmount: order.sellAmount,
    taker: order.taker,
    recipient: order.recipient,
    requestedAt: port.now(),
    limit: order.round,
  });
  if (outcome.kind !== "quoted") {
    const best = outcome.extras.bestReceived;
    return check(typeof best === "string" ? best : null, outcome.code);
  }
  const { quoteId, received } = outcome.quote;
  if (!(await port.book.startFilling(order.limitOrderId, quoteId, port.now()))) {
    return check(received, "not_open");
  }
  const moved = [{ limitOrderId: order.limitOrderId, corridor: order.corridorKey }];
  port.moved(moved);
  const submitted = await port.submit({
    quoteId,
    signature: order.signature,
    permit: order.permit,
    idempotencyKey: null,
  });
  if (submitted.kind === "submitted") return check(received, null);
  const why =
    submitted.kind === "refused" ? submitted.code : submitted.kind === "requote" ? submitted.reason : "duplicate";
  await port.book.reopen(order.limitOrderId, why, port.now());
  port.moved(moved);
  return check(received, why);
}
