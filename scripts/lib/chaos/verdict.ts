/**
 * The chaos run's verdict (docs/operations.md, "Deploys and crashes"): what the takers were told, set
 * against what the relay answers at the end and what the chains themselves show. Pure.
 */

import type { BalanceView, ChainView, ChaosLedger, QuoteView, RelayView, SwapRecord } from "./ledger";
import type { Attempt } from "./retry";

export interface ChaosCounts {
  swaps: number;
  /** Swaps whose taker was answered with an execution. */
  answered: number;
  settled: number;
  crashes: number;
  /** A submission whose taker never learnt its execution though one exists (or the chain filled its quote). */
  lostAnswers: number;
  /** An answered key that, asked again, returns another execution or no duplicate. */
  keysAnsweredOtherwise: number;
  /** Quotes the chain filled more than once. */
  doubledFills: number;
  /** Fills on chain that are not a settled execution of their quote, with that transaction, in the relay. */
  fillsNotSettled: number;
  /** Executions answered 202 that are neither settled nor failed after the catch-up. */
  unresolved: number;
  /** Taker balances (per token) that moved other than the relay's settled quotes say. */
  balanceMismatches: number;
  /** Retries of a submission (same key) refused 429: a repeat must never be counted. */
  retriesRefusedForRate: number;
  /** First tries refused 429, though the takers keep under the published limits (pacing.ts). */
  submissionsRefusedForRate: number;
  quotesRefusedForRate: number;
  /** 5xx answers that are not the relay's own (`not_leader`, `broadcast_failed`, `corridor_busy`). */
  serverErrors: number;
  /** Quotes a taker could not sign, and other errors of the takers' own. */
  takerErrors: number;
  /** Submissions that stopped without an execution, when nothing exists for them anywhere (not a failure). */
  gaveUp: number;
  /** Limit orders the run set out to place, and those filled by the end. */
  limitOrders: number;
  limitOrdersFilled: number;
}

export interface Verdict {
  counts: ChaosCounts;
  /** Each failure, one line each, for the report. */
  problems: string[];
}

/** 5xx codes the relay answers on purpose, with `Retry-After` where the request may be sent again. */
const RELAY_5XX = new Set(["not_leader", "broadcast_failed", "corridor_busy"]);
const RESOLVED = new Set(["settled", "failed", "requote"]);

const norm = (address: string) => (address.startsWith("0x") ? address.toLowerCase() : address);
const refusals = (attempts: readonly Attempt[], status: number) =>
  attempts.filter((a) => a.kind === "refused" && a.status === status).length;
const strayServerErrors = (attempts: readonly Attempt[]) =>
  attempts.filter((a) => a.kind === "refused" && a.status >= 500 && !RELAY_5XX.has(a.code)).length;

export function chaosVerdict(ledger: ChaosLedger, relay: RelayView, chain: ChainView, crashes: number): Verdict {
  const problems: string[] = [];
  const filledOnChain = new Map<string, number>();
  for (const fill of chain.fills) {
    if (fill.quoteId) filledOnChain.set(fill.quoteId, (filledOnChain.get(fill.quoteId) ?? 0) + 1);
  }
  let lostAnswers = 0;
  let keysAnsweredOtherwise = 0;
  let gaveUp = 0;
  for (const swap of ledger.swaps) {
    const key = relay.keys.get(swap.idempotencyKey);
    const lost = lostAnswer(swap, key?.executionId ?? null, (filledOnChain.get(swap.quoteId) ?? 0) > 0);
    if (lost) {
      lostAnswers++;
      problems.push(`lost answer: ${swap.quoteId} (key ${swap.idempotencyKey}): ${lost}`);
    } else if (!swap.answer) {
      gaveUp++;
    }
    if (swap.answer && (key?.executionId !== swap.answer.executionId || !key.duplicate)) {
      keysAnsweredOtherwise++;
      problems.push(
        `key ${swap.idempotencyKey} of ${swap.quoteId} answered ${swap.answer.executionId} first, ` +
          `now ${key ? `${key.status} ${key.executionId ?? key.code} duplicate ${key.duplicate}` : "nothing"}`,
      );
    }
  }

  const answered = ledger.swaps.filter((s) => s.answer !== null);
  let unresolved = 0;
  for (const swap of answered) {
    const id = swap.answer?.executionId ?? "";
    const status = relay.executions.get(id) ?? "unknown";
    if (RESOLVED.has(status)) continue;
    unresolved++;
    problems.push(`unresolved: execution ${id} of ${swap.quoteId} is ${status}`);
  }

  let doubledFills = 0;
  for (const [quoteId, times] of filledOnChain) {
    if (times < 2) continue;
    doubledFills++;
    problems.push(`doubled fill: ${quoteId} filled ${times} times on chain`);
  }
  let fillsNotSettled = 0;
  for (const fill of chain.fills) {
    const quote = fill.quoteId ? relay.quotes.get(fill.quoteId) : undefined;
    if (quote?.status === "settled" && quote.txHash?.toLowerCase() === fill.txHash.toLowerCase()) continue;
    fillsNotSettled++;
    problems.push(
      `fill ${fill.txHash} of ${fill.quoteId ?? "no quote"} is not a settled execution: the relay says ${quote?.status ?? "nothing"}`,
    );
  }

  const balanceMismatches = mismatchedBalances(chain.balances, [...relay.quotes.values()], problems);
  const submissionAttempts = ledger.swaps.flatMap((s) => s.attempts);
  const retriesRefusedForRate = refusals(
    ledger.swaps.flatMap((s) => s.attempts.slice(1)),
    429,
  );
  const submissionsRefusedForRate = refusals(
    ledger.swaps.flatMap((s) => s.attempts.slice(0, 1)),
    429,
  );
  const quotesRefusedForRate = refusals(ledger.quoteAttempts, 429);
  const serverErrors = strayServerErrors([...submissionAttempts, ...ledger.quoteAttempts]);
  if (retriesRefusedForRate) problems.push(`${retriesRefusedForRate} retries refused 429`);
  if (submissionsRefusedForRate) problems.push(`${submissionsRefusedForRate} first submissions refused 429`);
  if (quotesRefusedForRate) problems.push(`${quotesRefusedForRate} quote requests refused 429`);
  if (serverErrors) problems.push(`${serverErrors} answers were a 5xx the relay does not answer on purpose`);
  problems.push(...ledger.takerErrors);
  const limitOrdersFilled = ledger.limitOrders.filter((o) => o.status === "filled").length;
  for (const order of ledger.limitOrders) {
    if (order.status !== "filled")
      problems.push(`limit order ${order.limitOrderId ?? "(not placed)"} is ${order.status}`);
  }

  return {
    counts: {
      swaps: ledger.swaps.length,
      answered: answered.length,
      settled: [...relay.quotes.values()].filter((q) => q.status === "settled").length,
      crashes,
      lostAnswers,
      keysAnsweredOtherwise,
      doubledFills,
      fillsNotSettled,
      unresolved,
      balanceMismatches,
      retriesRefusedForRate,
      submissionsRefusedForRate,
      quotesRefusedForRate,
      serverErrors,
      takerErrors: ledger.takerErrors.length,
      gaveUp,
      limitOrders: ledger.limitOrders.length,
      limitOrdersFilled,
    },
    problems,
  };
}

/**
 * Why the swap's answer was lost, or null: its taker holds no execution though the key has one now or the
 * chain filled its quote, or a retry of its own key was refused as if the quote had been taken by another.
 */
function lostAnswer(swap: SwapRecord, keyExecution: string | null, filled: boolean): string | null {
  const notOpen = swap.attempts.findIndex(
    (a, i) => i > 0 && a.kind === "refused" && a.status === 409 && a.code === "quote_not_open",
  );
  if (notOpen >= 0) return `attempt ${notOpen + 1}, a retry with its key, was answered 409 quote_not_open`;
  if (swap.answer) return null;
  const last = swap.attempts.at(-1);
  const told = last?.kind === "refused" ? `${last.status} ${last.code}` : (last?.kind ?? "nothing");
  if (keyExecution) return `its taker was last told ${told}, yet the key has execution ${keyExecution}`;
  if (filled) return `its taker was last told ${told}, yet the chain filled the quote`;
  return null;
}

/** Counts the (taker, token) pairs whose balance moved other than the sum of the taker's settled quotes. */
function mismatchedBalances(balances: readonly BalanceView[], quotes: readonly QuoteView[], problems: string[]) {
  let mismatches = 0;
  for (const b of balances) {
    const token = norm(b.token);
    let expected = 0n;
    for (const q of quotes) {
      if (q.status !== "settled" || norm(q.taker) !== norm(b.taker)) continue;
      if (norm(q.sellToken) === token) expected -= BigInt(q.takerPays);
      if (norm(q.buyToken) === token) expected += BigInt(q.received);
    }
    const moved = b.after - b.before;
    if (moved === expected) continue;
    mismatches++;
    problems.push(
      `balance: ${b.kind} taker ${b.taker} moved ${moved} of ${b.token}; its settled quotes say ${expected}`,
    );
  }
  return mismatches;
}

/** Whether any count says the relay lost, doubled or refused something it must not have. */
export function chaosFailed(counts: ChaosCounts): boolean {
  return (
    counts.lostAnswers +
      counts.keysAnsweredOtherwise +
      counts.doubledFills +
      counts.fillsNotSettled +
      counts.unresolved +
      counts.balanceMismatches +
      counts.retriesRefusedForRate +
      counts.submissionsRefusedForRate +
      counts.quotesRefusedForRate +
      counts.serverErrors +
      counts.takerErrors >
      0 || counts.limitOrdersFilled < counts.limitOrders
  );
}
