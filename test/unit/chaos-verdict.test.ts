import { describe, expect, it } from "vitest";
import {
  type BalanceView,
  type ChainFill,
  type ChaosLedger,
  emptyLedger,
  type KeyAnswer,
  type QuoteView,
  type RelayView,
  type SwapRecord,
} from "../../scripts/lib/chaos/ledger";
import { chaosReport } from "../../scripts/lib/chaos/report";
import { chaosFailed, chaosVerdict } from "../../scripts/lib/chaos/verdict";

/**
 * The chaos run's verdict (docs/operations.md, "Deploys and crashes"): each way the relay could lose,
 * double or refuse what it must not is counted, from what the takers were told, what the relay answers at
 * the end and what the chains show.
 */

const TAKER = "0x00000000000000000000000000000000000000aa";
const CNGN = "0x00000000000000000000000000000000000000c1";
const USDC = "0x00000000000000000000000000000000000000d1";

function swap(n: number, overrides: Partial<SwapRecord> = {}): SwapRecord {
  return {
    kind: "evm",
    taker: TAKER,
    quoteId: `q_${n}`,
    idempotencyKey: `key-${n}`,
    request: { quoteId: `q_${n}`, signature: "0x" },
    attempts: [{ kind: "answered", status: 202 }],
    answer: { quoteId: `q_${n}`, executionId: `x_${n}`, status: "submitted", txHash: `0x${n}` },
    ...overrides,
  };
}

const quote = (n: number, status = "settled"): QuoteView => ({
  quoteId: `q_${n}`,
  taker: TAKER,
  status,
  sellToken: CNGN,
  buyToken: USDC,
  takerPays: "1580",
  received: "1",
  txHash: status === "settled" ? `0x${n}` : null,
});

const fill = (n: number, txHash = `0x${n}`): ChainFill => ({ kind: "evm", taker: TAKER, quoteId: `q_${n}`, txHash });
const duplicate = (n: number): KeyAnswer => ({ status: 200, executionId: `x_${n}`, duplicate: true, code: null });

/** A run of `swaps`, all settled, the relay and the chain agreeing. */
function agreeing(swaps: SwapRecord[]): { ledger: ChaosLedger; relay: RelayView; fills: ChainFill[] } {
  const ledger = { ...emptyLedger(), swaps };
  const n = swaps.map((_, i) => i + 1);
  return {
    ledger,
    relay: {
      keys: new Map(n.map((i) => [`key-${i}`, duplicate(i)])),
      quotes: new Map(n.map((i) => [`q_${i}`, quote(i)])),
      executions: new Map(n.map((i) => [`x_${i}`, "settled"])),
    },
    fills: n.map((i) => fill(i)),
  };
}

const balances = (cngn: bigint, usdc: bigint): BalanceView[] => [
  { kind: "evm", taker: TAKER, token: CNGN, before: 1_000_000n, after: 1_000_000n + cngn },
  { kind: "evm", taker: TAKER, token: USDC, before: 0n, after: usdc },
];

describe("the chaos verdict", () => {
  it("is all zeros when every answer, key, fill and balance agrees", () => {
    const { ledger, relay, fills } = agreeing([swap(1), swap(2)]);
    const verdict = chaosVerdict(ledger, relay, { fills, balances: balances(-3160n, 2n) }, 1);
    expect(verdict.problems).toEqual([]);
    expect(verdict.counts).toMatchObject({ swaps: 2, answered: 2, settled: 2, crashes: 1, lostAnswers: 0 });
    expect(chaosFailed(verdict.counts)).toBe(false);
    expect(chaosReport(verdict, 30).at(-1)).toBe("ok: every count is zero");
  });

  it("counts a retry answered 409 quote_not_open, and a taker never told of an execution its key has", () => {
    const refusedRetry = swap(1, {
      attempts: [
        { kind: "dropped", error: "UND_ERR_SOCKET" },
        { kind: "refused", status: 409, code: "quote_not_open", retryAfterS: null },
      ],
      answer: null,
    });
    const untold = swap(2, { attempts: [{ kind: "dropped", error: "timeout" }], answer: null });
    const { ledger, relay, fills } = agreeing([refusedRetry, untold]);
    const verdict = chaosVerdict(ledger, relay, { fills, balances: balances(-3160n, 2n) }, 1);
    expect(verdict.counts.lostAnswers).toBe(2);
    expect(verdict.problems[0]).toContain("attempt 2, a retry with its key, was answered 409 quote_not_open");
    expect(verdict.problems[1]).toContain("yet the key has execution x_2");
    expect(chaosFailed(verdict.counts)).toBe(true);
  });

  it("does not count a submission that gave up when nothing exists for it anywhere", () => {
    const expired = swap(1, {
      attempts: [{ kind: "refused", status: 409, code: "quote_expired", retryAfterS: null }],
      answer: null,
    });
    const ledger = { ...emptyLedger(), swaps: [expired] };
    const relay: RelayView = {
      keys: new Map([["key-1", { status: 409, executionId: null, duplicate: false, code: "quote_expired" }]]),
      quotes: new Map([["q_1", quote(1, "expired")]]),
      executions: new Map(),
    };
    const verdict = chaosVerdict(ledger, relay, { fills: [], balances: balances(0n, 0n) }, 0);
    expect(verdict.counts).toMatchObject({ lostAnswers: 0, gaveUp: 1 });
    expect(chaosFailed(verdict.counts)).toBe(false);
  });

  it("counts a key answering another execution, a doubled fill, a fill the relay did not settle, and an unresolved execution", () => {
    const { ledger, relay, fills } = agreeing([swap(1), swap(2), swap(3)]);
    const keys = new Map(relay.keys);
    keys.set("key-1", duplicate(9));
    const quotes = new Map(relay.quotes);
    quotes.set("q_3", quote(3, "submitted"));
    const verdict = chaosVerdict(
      ledger,
      { keys, quotes, executions: new Map([...relay.executions, ["x_3", "submitted"]]) },
      { fills: [...fills, fill(2, "0xother")], balances: [] },
      2,
    );
    expect(verdict.counts).toMatchObject({
      keysAnsweredOtherwise: 1,
      doubledFills: 1,
      fillsNotSettled: 2,
      unresolved: 1,
    });
  });

  it("counts balances that moved other than the settled quotes say", () => {
    const { ledger, relay, fills } = agreeing([swap(1)]);
    const verdict = chaosVerdict(ledger, relay, { fills, balances: balances(-3160n, 1n) }, 0);
    expect(verdict.counts.balanceMismatches).toBe(1);
    expect(verdict.problems).toEqual([expect.stringContaining(`moved -3160 of ${CNGN}; its settled quotes say -1580`)]);
  });

  it("counts 429s on retries and first tries, and 5xx answers that are not the relay's own", () => {
    const rated = swap(1, {
      attempts: [
        { kind: "refused", status: 429, code: "rate_limited", retryAfterS: 1 },
        { kind: "refused", status: 502, code: "http_502", retryAfterS: null },
        { kind: "refused", status: 503, code: "not_leader", retryAfterS: 2 },
        { kind: "refused", status: 429, code: "rate_limited", retryAfterS: 1 },
        { kind: "answered", status: 202 },
      ],
    });
    const { ledger, relay, fills } = agreeing([rated]);
    const verdict = chaosVerdict(ledger, relay, { fills, balances: [] }, 0);
    expect(verdict.counts).toMatchObject({ retriesRefusedForRate: 1, submissionsRefusedForRate: 1, serverErrors: 1 });
  });

  it("fails a run whose limit order did not fill", () => {
    const ledger = {
      ...emptyLedger(),
      limitOrders: [{ taker: TAKER, limitOrderId: "lo_1", status: "open", quoteId: null }],
    };
    const verdict = chaosVerdict(
      ledger,
      { keys: new Map(), quotes: new Map(), executions: new Map() },
      { fills: [], balances: [] },
      0,
    );
    expect(verdict.counts).toMatchObject({ limitOrders: 1, limitOrdersFilled: 0 });
    expect(chaosFailed(verdict.counts)).toBe(true);
  });
});
