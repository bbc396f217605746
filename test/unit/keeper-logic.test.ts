import { describe, expect, it } from "vitest";
import { evmAdapter } from "../../src/chains/evm/adapter";
import { isFinal } from "../../src/chains/evm/finality";
import { parseKeeperKey } from "../../src/chains/evm/keeper-key";
import { takerReadiness } from "../../src/chains/evm/taker-readiness";
import type { FillEvent, TxReceipt } from "../../src/chains/settler";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { KeyedLocks } from "../../src/keeper/locks";
import { notLeader } from "../../src/keeper/outcomes";
import { settledFill } from "../../src/keeper/settlement-record";
import { acceptedAnswer } from "../../src/routes/execution-answer";
import { EXECUTION_TRANSITIONS, OPEN_STATUSES, QUOTE_MOVES, type SettlementStep } from "../../src/states/quote-states";

const CNGN = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const USDC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const { sameAddress } = evmAdapter(primaryEvmChain(localConfig));

describe("takerReadiness", () => {
  const base = { takerPays: 1_000n, now: 1_000, token: "cNGN" };
  const funded = { balance: 1_000n, nonceUsed: false };
  const permit = (value: string, deadline: string) => ({ value, deadline, v: 27, r: "0x", s: "0x" });

  it("is ready when Permit2 may spend what the quote takes", () => {
    expect(takerReadiness({ ...base, funds: { ...funded, permit2Allowance: 1_000n }, permit: null })).toEqual({
      ready: true,
    });
  });

  it("asks for an approval or a permit when Permit2 may spend nothing, or too little", () => {
    const none = takerReadiness({ ...base, funds: { ...funded, permit2Allowance: 0n }, permit: null });
    expect(none).toMatchObject({ ready: false, reason: "permit2_not_approved" });
    expect(none.ready || ("detail" in none && none.detail)).toContain("1000 cNGN");
    expect(takerReadiness({ ...base, funds: { ...funded, permit2Allowance: 999n }, permit: null })).toMatchObject({
      reason: "permit2_allowance_too_low",
    });
  });

  it("takes a permit that covers the quote and has not expired", () => {
    const funds = { ...funded, permit2Allowance: 0n };
    expect(takerReadiness({ ...base, funds, permit: permit("1000", "1000") })).toEqual({ ready: true });
    expect(takerReadiness({ ...base, funds, permit: permit("1000", "999") })).toMatchObject({
      reason: "permit_expired",
    });
    expect(takerReadiness({ ...base, funds, permit: permit("999", "2000") })).toMatchObject({
      reason: "permit_value_too_low",
    });
  });

  it("sends the taker back, blamed, when its nonce is used or its balance short: before the allowance", () => {
    const funds = (over: object) => ({ ...funded, permit2Allowance: 0n, ...over });
    expect(takerReadiness({ ...base, funds: funds({ nonceUsed: true }), permit: null })).toEqual({
      ready: false,
      requote: "taker:nonce_used",
    });
    expect(takerReadiness({ ...base, funds: funds({ balance: 999n }), permit: null })).toEqual({
      ready: false,
      requote: "taker:insufficient_balance",
    });
  });
});

describe("settledFill: the settlement record from a receipt", () => {
  const event = (over: Partial<FillEvent> = {}): FillEvent => ({
    orderHash: `0x${"aa".repeat(32)}`,
    quoteId: "q_1",
    resolver: "0x2222222222222222222222222222222222222222",
    filler: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
    taker: "0x1111111111111111111111111111111111111111",
    sellToken: CNGN,
    sellAmount: 1_580_000_000n,
    buyToken: USDC,
    outputAmount: 1_000_000n,
    received: 949_000n,
    fee: 1_000n,
    gasFee: 50_000n,
    logIndex: 3,
    ...over,
  });
  const receipt = (fills: FillEvent[]): TxReceipt => ({
    hash: `0x${"cd".repeat(32)}`,
    status: "success",
    block: 42,
    blockTime: "2026-11-22T10:00:00.000Z",
    keeperSpent: 21_000n * 2_000_000_000n,
    gasUsed: 180_000n,
    from: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
    fills,
  });

  it("records what moved, unconfirmed until final, with the quote's fills only", () => {
    const r = receipt([event({ quoteId: "q_other", logIndex: 1 }), event()]);
    expect(settledFill(r, { quoteId: "q_1", gasFeeToken: USDC }, sameAddress)).toEqual({
      settlement: {
        txHash: r.hash,
        block: 42,
        blockTime: "2026-11-22T10:00:00.000Z",
        confirmed: false,
        confirmedAt: null,
        takerPays: "1580000000",
        proceeds: "1580000000",
        gasFee: { token: USDC, amount: "50000" },
        submitter: r.from,
      },
      fills: [
        {
          orderHash: `0x${"aa".repeat(32)}`,
          resolver: "0x2222222222222222222222222222222222222222",
          filler: r.from,
          logIndex: 3,
        },
      ],
      proceeds: "1580000000",
      takerPays: "1580000000",
    });
  });

  it("adds a gas fee charged in the sell token to what the taker paid", () => {
    const fill = settledFill(receipt([event()]), { quoteId: "q_1", gasFeeToken: CNGN.toLowerCase() }, sameAddress);
    expect(fill?.takerPays).toBe("1580050000");
    expect(fill?.proceeds).toBe("1580000000");
    expect(fill?.settlement.gasFee).toEqual({ token: CNGN.toLowerCase(), amount: "50000" });
  });

  it("adds a protocol fee charged in the sell token to what the taker paid (Solana), and none in the buy token", () => {
    const sold = event({ fee: 1_580_000n });
    const both = settledFill(receipt([sold]), { quoteId: "q_1", gasFeeToken: CNGN, feeToken: CNGN }, sameAddress);
    expect(both?.takerPays).toBe("1581630000");
    expect(both?.proceeds).toBe("1580000000");
    const onOutput = settledFill(receipt([sold]), { quoteId: "q_1", gasFeeToken: USDC, feeToken: USDC }, sameAddress);
    expect(onOutput?.takerPays).toBe("1580000000");
  });

  it("sums a fill's legs, an event each, and records every leg's fill", () => {
    const second = "0x3333333333333333333333333333333333333333";
    const legs = [
      event({ sellAmount: 1_000_000_000n }),
      event({ quoteId: "q_other", logIndex: 4 }),
      event({ resolver: second, sellAmount: 580_000_000n, fee: 600n, gasFee: 0n, logIndex: 5 }),
    ];
    const fill = settledFill(receipt(legs), { quoteId: "q_1", gasFeeToken: CNGN, feeToken: CNGN }, sameAddress);
    expect(fill?.proceeds).toBe("1580000000");
    expect(fill?.takerPays).toBe(String(1_580_000_000n + 1_600n + 50_000n));
    expect(fill?.settlement.gasFee.amount).toBe("50000");
    expect(fill?.fills.map((f) => [f.resolver, f.logIndex])).toEqual([
      ["0x2222222222222222222222222222222222222222", 3],
      [second, 5],
    ]);
  });

  it("is null when the receipt holds no fill of the quote", () => {
    expect(
      settledFill(receipt([event({ quoteId: "q_other" })]), { quoteId: "q_1", gasFeeToken: USDC }, sameAddress),
    ).toBeNull();
  });

  it("counts the settlement's own block toward finality", () => {
    expect(isFinal(10, 10, 1)).toBe(true);
    expect(isFinal(10, 10, 2)).toBe(false);
    expect(isFinal(10, 11, 2)).toBe(true);
  });
});

describe("the settlement moves table", () => {
  it("leaves the quote open on a taker requote and closes it on any other", () => {
    const open = (step: SettlementStep) => QUOTE_MOVES[step].to;
    expect(open("takerRequote")).toBeNull();
    expect(QUOTE_MOVES.takerRequote.from).toEqual(OPEN_STATUSES);
    expect(open("requote")).toBe("failed");
    expect(QUOTE_MOVES.requote.events).toEqual(["requote", "failed"]);
  });

  it("settles or fails only a submitted execution, and takes a settlement back only to submitted (a reorg)", () => {
    expect(EXECUTION_TRANSITIONS.submitted).toEqual(["settled", "failed"]);
    expect(EXECUTION_TRANSITIONS.settled).toEqual(["submitted"]);
    for (const status of ["failed", "requote"] as const) expect(EXECUTION_TRANSITIONS[status]).toEqual([]);
    expect(QUOTE_MOVES.reorged).toMatchObject({ from: ["settled"], to: "submitted", events: ["submitted"] });
    expect(QUOTE_MOVES.replaced).toMatchObject({ from: ["submitted"], to: null, events: ["submitted"] });
  });
});

describe("KeyedLocks", () => {
  /** A task's await: a few turns of the microtask queue, so the others' starts interleave with it, no timer. */
  const tick = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  it("runs tasks that share a key one at a time, in order, and others alongside", async () => {
    const locks = new KeyedLocks();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name}:start`);
      await tick();
      log.push(`${name}:end`);
      return name;
    };
    const results = await Promise.all([
      locks.run(["q1"], task("a")),
      locks.run(["q1", "k1"], task("b")),
      locks.run(["k1"], task("c")),
      locks.run(["q2"], task("d")),
    ]);
    expect(results).toEqual(["a", "b", "c", "d"]);
    expect(log.indexOf("b:start")).toBeGreaterThan(log.indexOf("a:end"));
    expect(log.indexOf("c:start")).toBeGreaterThan(log.indexOf("b:end"));
    expect(log.indexOf("d:start")).toBeLessThan(log.indexOf("a:end"));
  });

  it("releases a key when its task throws", async () => {
    const locks = new KeyedLocks();
    await expect(locks.run(["k"], async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(await locks.run(["k"], async () => "next")).toBe("next");
  });
});

describe("answers", () => {
  it("answers 202 for a broadcast, 200 for a requote and a duplicate", () => {
    expect(acceptedAnswer({ kind: "submitted", quoteId: "q", executionId: "x", txHash: "0x1" })).toEqual({
      status: 202,
      body: { quoteId: "q", executionId: "x", status: "submitted", txHash: "0x1" },
    });
    expect(acceptedAnswer({ kind: "requote", quoteId: "q", executionId: "x", reason: "r" })).toEqual({
      status: 200,
      body: { quoteId: "q", executionId: "x", status: "requote", reason: "r" },
    });
    expect(
      acceptedAnswer({
        kind: "duplicate",
        quoteId: "q",
        executionId: "x",
        status: "settled",
        txHash: "0x1",
        reason: null,
      }).body,
    ).toMatchObject({ duplicate: true, status: "settled" });
  });

  it("tells a not_leader caller to retry in 2 s and why", () => {
    expect(notLeader("recovering")).toMatchObject({
      status: 503,
      code: "not_leader",
      extras: { reason: "recovering", retryAfter: 2 },
    });
  });

  it("reads a keeper key with or without 0x, and nothing else", () => {
    const hex = "2a".repeat(32);
    expect(parseKeeperKey(`0x${hex}`)).toBe(`0x${hex}`);
    expect(parseKeeperKey(` ${hex} `)).toBe(`0x${hex}`);
    expect(parseKeeperKey("")).toBeNull();
    expect(parseKeeperKey(undefined)).toBeNull();
    expect(parseKeeperKey("0x1234")).toBeNull();
  });
});
