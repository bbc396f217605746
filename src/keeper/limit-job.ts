import type { TakerSide } from "../chains";
import type { Refusal } from "../errors";
import { type LimitAsk, limitRoundOf, withinWindow } from "../limit-orders";
import type { Band, LimitCheck, MovedLimitOrder, OpenLimitOrder } from "../schemas";
import { blamed, TAKER_BAD_SIGNATURE } from "../states";
import type { QuoteInput } from "../types";
import type { SubmitOutcome, SubmitRequest } from "./rpc";

/** The most open orders one pass reads; the least recently checked come first, so every order gets its turn. */
export const LIMIT_BATCH = 10_000;

/**
 * Where limit orders live (D1 behind it): every read and write of a pass is one statement or one batch,
 * so a pass's D1 round trips do not grow with the number of orders.
 */
export interface LimitBook {
  /** Open orders not past their expiry, least recently checked first, at most `limit`. */
  open(now: number, limit: number): Promise<OpenLimitOrder[]>;
  /** Records many checks' outcomes at once (`attempts` + 1 for each one auctioned). */
  recordChecks(checks: readonly LimitCheck[]): Promise<void>;
  /** `open → filling` with the round's quote; false when the order is no longer open (cancelled meanwhile). */
  startFilling(limitOrderId: string, quoteId: string, now: number): Promise<boolean>;
  /**
   * The fill in quote `quoteId` was refused before anything was sent: `filling → open` with why, or
   * `filling → cancelled` when why ends the order (`afterFailedFill`, src/states/limit-order-states.ts).
   */
  fillFailed(limitOrderId: string, quoteId: string, reason: string, now: number): Promise<void>;
  /**
   * Follows every `filling` order to its round's quote: `filled` once it settled, back to `open` (with the
   * reason) once it failed or was never sent before it expired. One statement per move.
   */
  followFilling(now: number): Promise<MovedLimitOrder[]>;
  /** `open → expired` for every open order past its expiry; the orders it expired. */
  sweepExpired(now: number): Promise<MovedLimitOrder[]>;
  /** `open → cancelled` with `reason` for orders whose nonce the chain shows spent; the orders it moved. */
  revoke(limitOrderIds: readonly string[], reason: string, now: number): Promise<MovedLimitOrder[]>;
}

export interface LimitJobPort {
  book: LimitBook;
  /** The corridor's latest band, or null. */
  band(corridorKey: string): Promise<Band | null>;
  /** What the window needs of an order's tokens: the band assets they track and their decimals. */
  ask(order: OpenLimitOrder): LimitAsk;
  /**
   * Each order's taker side, in order, read in one batch (docs/reliability.md, "Blame"); `whole` for an
   * order whose chain cannot be read now, whose round then finds out as before.
   */
  takerSides(orders: readonly OpenLimitOrder[]): Promise<TakerSide[]>;
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
 * expired orders swept, then (unless the keeper is paused) the taker sides of the open orders near the
 * market read, and a round for each whole one, its outcome recorded and a winning round's quote
 * submitted through the keeper. Idempotent: a pass repeated after a crash finds
 * orders already `filling` and leaves them to `followFilling`.
 */
export async function limitPass(port: LimitJobPort): Promise<void> {
  const { book } = port;
  const now = port.now();
  port.moved(await book.followFilling(now));
  port.moved(await book.sweepExpired(now));
  if (port.paused()) return;
  const open = await book.open(now, LIMIT_BATCH);
  const bands = new Map<string, Band | null>();
  const near: OpenLimitOrder[] = [];
  // An order whose corridor has no band (no source answering) cannot be placed against the market: it
  // says so rather than wait unexplained.
  const unpriced: LimitCheck[] = [];
  for (const order of open) {
    if (!bands.has(order.corridor)) bands.set(order.corridor, await port.band(order.corridor));
    const band = bands.get(order.corridor) ?? null;
    if (!band) unpriced.push(checkOf(port, order, false, null, NO_BAND));
    else if (withinWindow(band, port.ask(order))) near.push(order);
  }
  const sides = await port.takerSides(near);
  const revoked = near.filter((_, i) => sides[i]?.kind === "revoked").map((o) => o.limitOrderId);
  if (revoked.length > 0) port.moved(await book.revoke(revoked, NONCE_REVOKED, now));
  const checks = await Promise.all(
    near.map((order, i) => {
      const side = sides[i] ?? { kind: "whole" };
      if (side.kind === "whole") return round(port, order);
      // A taker short of funds, of a permit that grants them or of a recipient that takes the output is not
      // auctioned: no resolver is asked to fill what cannot settle.
      return side.kind === "short" ? checkOf(port, order, false, null, blamed("taker", side.reason)) : null;
    }),
  );
  await book.recordChecks([...unpriced, ...checks.filter((c): c is LimitCheck => c !== null)]);
}

/** The `lastError` of an order whose corridor has no band now: no rate source answers for its pair. */
export const NO_BAND = blamed("relay", "no_band");

/** The `lastError` of an order whose Permit2 nonce the taker spent or invalidated on chain. */
export const NONCE_REVOKED = blamed("taker", "nonce_revoked");

/**
 * The `lastError` of an order whose fill the recipient's leg failed: the buy token refuses the recipient
 * (a blacklist). Only the taker's recipient can mend that, so the order rests, and each pass asks the
 * token whether it takes a transfer to the recipient now (docs/limit-orders.md, "The keeper's job").
 */
export const RECIPIENT_REFUSED = blamed("taker", "recipient_refused");

/** What a pass found of one order, recorded on it. */
const checkOf = (
  port: LimitJobPort,
  order: OpenLimitOrder,
  auctioned: boolean,
  bestReceived: string | null,
  lastError: string | null,
): LimitCheck => ({
  limitOrderId: order.limitOrderId,
  lastCheckedAt: new Date(port.now()).toISOString(),
  auctioned,
  bestReceived,
  lastError,
});

async function round(port: LimitJobPort, order: OpenLimitOrder): Promise<LimitCheck> {
  const check = (bestReceived: string | null, lastError: string | null) =>
    checkOf(port, order, true, bestReceived, lastError);
  const outcome = await port.auction(order.corridor, {
    chainId: order.chainId,
    sellToken: order.sellToken,
    buyToken: order.buyToken,
    sellAmount: order.sellAmount,
    taker: order.taker,
    recipient: order.recipient,
    requestedAt: port.now(),
    limit: limitRoundOf(order),
  });
  if (outcome.kind !== "quoted") {
    const best = outcome.extras.bestReceived;
    return check(typeof best === "string" ? best : null, outcome.code);
  }
  const { quoteId, received } = outcome.quote;
  if (!(await port.book.startFilling(order.limitOrderId, quoteId, port.now()))) {
    return check(received, "not_open");
  }
  const moved = [{ limitOrderId: order.limitOrderId, corridor: order.corridor }];
  port.moved(moved);
  const submitted = await port.submit({
    quoteId,
    takerPart: { signature: order.signature },
    permit: order.erc2612,
    idempotencyKey: null,
  });
  if (submitted.kind === "submitted") return check(received, null);
  const why = whyNotSubmitted(submitted);
  await port.book.fillFailed(order.limitOrderId, quoteId, why, port.now());
  port.moved(moved);
  return check(received, why);
}

/**
 * Why the keeper did not send a round's fill, as the order records it: a refused submission's code, a
 * requote's reason. The keeper refuses `bad_signature` when the order's signature is not the taker's, or
 * the contracts refuse it (Permit2 asks a taker whose account now has code its ERC-1271 check): the
 * taker's, and for good (`taker:bad_signature`).
 */
function whyNotSubmitted(outcome: Exclude<SubmitOutcome, { kind: "submitted" }>): string {
  if (outcome.kind === "requote") return outcome.reason;
  if (outcome.kind === "duplicate") return "duplicate";
  return outcome.code === "bad_signature" ? TAKER_BAD_SIGNATURE : outcome.code;
}
