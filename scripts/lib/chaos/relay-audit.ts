/**
 * What the relay says at the end of a chaos run, read through its public API: each Idempotency-Key asked
 * again with its request (the first execution, `duplicate: true`, is the only right answer), each answered
 * execution's status, and each quote's record.
 */
import { relayCall, type Submission, submitExecution } from "../../../src/clients/taker/relay";
import type { Execution, Quote } from "../../../src/schemas/quote";
import { carefully } from "./careful-client";
import type { ChaosLedger, KeyAnswer, QuoteView, RelayView, SwapRecord } from "./ledger";

/** Requests in flight at once while reading: the relay's limits count one client, and the run is over. */
const AT_ONCE = 4;
/** How long one read may keep failing (a relay still coming back) before the audit stops trying. */
const READ_DEADLINE_MS = 60_000;

/** Runs `each` over `items`, `AT_ONCE` at a time. */
async function inTurn<T>(items: readonly T[], each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await each(items[next++] as T);
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
}

/** A GET read as a careful client reads it; null when it never answered 2xx. */
async function read<T>(relayUrl: string, path: string): Promise<T | null> {
  const answered = await carefully(
    async (signal) => {
      const { status, body } = await relayCall<T>(relayUrl, path, {}, { signal });
      return { status, value: body };
    },
    { deadline: Date.now() + READ_DEADLINE_MS },
  );
  return answered.value;
}

/**
 * Waits until no answered execution is still `submitted` (the indexer has caught up) or `timeoutMs` has
 * passed; the statuses last read.
 */
export async function catchUp(relayUrl: string, ledger: ChaosLedger, timeoutMs: number): Promise<Map<string, string>> {
  const ids = ledger.swaps.flatMap((s) => (s.answer ? [s.answer.executionId] : []));
  const statuses = new Map<string, string>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = ids.filter((id) => !["settled", "failed", "requote"].includes(statuses.get(id) ?? ""));
    await inTurn(open, async (id) => {
      const execution = await read<Execution>(relayUrl, `/v1/executions/${encodeURIComponent(id)}`);
      statuses.set(id, execution?.status ?? "unreadable");
    });
    const left = ids.filter((id) => statuses.get(id) === "submitted").length;
    if (left === 0 || Date.now() > deadline) return statuses;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** The key asked again with the same request, as its taker would retry it. */
async function askAgain(relayUrl: string, swap: SwapRecord): Promise<KeyAnswer> {
  const answered = await carefully(
    async (signal) => {
      const submission: Submission = await submitExecution(relayUrl, swap.request, {
        idempotencyKey: swap.idempotencyKey,
        notLeaderRetries: 0,
        signal,
      });
      return { status: submission.httpStatus, value: submission };
    },
    { deadline: Date.now() + READ_DEADLINE_MS },
  );
  const last = answered.attempts.at(-1);
  if (answered.value) {
    const { answer, httpStatus } = answered.value;
    return { status: httpStatus, executionId: answer.executionId, duplicate: answer.duplicate === true, code: null };
  }
  return {
    status: last?.kind === "refused" ? last.status : 0,
    executionId: null,
    duplicate: false,
    code: last?.kind === "refused" ? last.code : (last?.kind ?? "unasked"),
  };
}

/** The relay's view of every key, execution and quote of the run (and of `moreQuotes`, fills it never named). */
export async function readRelay(
  relayUrl: string,
  ledger: ChaosLedger,
  executions: ReadonlyMap<string, string>,
  moreQuotes: readonly string[] = [],
): Promise<RelayView> {
  const keys = new Map<string, KeyAnswer>();
  await inTurn(ledger.swaps, async (swap) => {
    keys.set(swap.idempotencyKey, await askAgain(relayUrl, swap));
  });
  const quoteIds = new Set([
    ...ledger.swaps.map((s) => s.quoteId),
    ...ledger.limitOrders.flatMap((o) => (o.quoteId ? [o.quoteId] : [])),
    ...moreQuotes,
  ]);
  const quotes = new Map<string, QuoteView>();
  await inTurn([...quoteIds], async (quoteId) => {
    const quote = await read<Quote>(relayUrl, `/v1/quotes/${encodeURIComponent(quoteId)}`);
    if (!quote) return;
    quotes.set(quoteId, {
      quoteId,
      taker: quote.taker,
      status: quote.status,
      sellToken: quote.sellToken,
      buyToken: quote.buyToken,
      takerPays: quote.takerPays,
      received: quote.received,
      txHash: quote.settlement?.txHash ?? null,
    });
  });
  return { keys, quotes, executions };
}
