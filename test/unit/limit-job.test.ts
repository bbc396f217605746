import { describe, expect, it } from "vitest";
import { refuse } from "../../src/errors";
import { limitPass } from "../../src/keeper/limit-job";
import type { SubmitOutcome, SubmitRequest } from "../../src/keeper/rpc";
import type { LimitOrderRow } from "../../src/schemas/limit-order";
import { FakeLimitPort } from "../support/fake-limit-port";
import { sampleLimitOrder } from "../support/limit-records";

/** An order selling 1,580 cNGN, whose mid output is 1 USDC, asking `limitAmount` (USDC base units). */
function order(id: string, limitAmount: bigint, expiresAt = 10_000_000): LimitOrderRow {
  return sampleLimitOrder({
    limitOrderId: id,
    corridor: "corridor",
    sellAmount: "1580000000",
    limitAmount: limitAmount.toString(),
    minOut: "900000",
    signature: `0xsig-${id}`,
    erc2612: null,
    expiresAt: new Date(expiresAt).toISOString(),
  });
}

/** The job's port in memory and a fake clock; `auction` and `submit` answer as the test says. */
function harness(
  options: { received?: bigint; submit?: (r: SubmitRequest) => SubmitOutcome; paused?: () => boolean } = {},
) {
  const port = new FakeLimitPort(options);
  return {
    book: port.book,
    port,
    auctions: port.auctions,
    submissions: port.submissions,
    moved: port.moves,
    tick: (ms: number) => port.tick(ms),
    now: () => port.now(),
  };
}

describe("the keeper's limit job", () => {
  it("drives an order open → filling → filled, submitting the round's quote with the taker's signature", async () => {
    const h = harness();
    h.book.add(order("lo_1", 1_000_000n));
    await limitPass(h.port);
    expect(h.book.get("lo_1")).toMatchObject({
      status: "filling",
      quoteId: "q_1",
      attempts: 1,
      bestReceived: "949000",
    });
    expect(h.submissions).toEqual([
      { quoteId: "q_1", takerPart: { signature: "0xsig-lo_1" }, permit: null, idempotencyKey: null },
    ]);
    h.tick(5_000);
    h.book.quoteStatus.set("q_1", "settled");
    await limitPass(h.port);
    expect(h.book.get("lo_1").status).toBe("filled");
    expect(h.auctions).toHaveLength(1);
    // Each move is announced to the order's corridor, which hosts its event stream.
    expect(h.moved).toEqual(["lo_1@corridor", "lo_1@corridor"]);
  });

  it("reads every due order's taker side in one batch before asking any resolver", async () => {
    const h = harness();
    for (const id of ["lo_1", "lo_2", "lo_3"]) h.book.add(order(id, 1_000_000n));
    await limitPass(h.port);
    expect(h.port.sideReads).toEqual({ calls: 1, orders: 3 });
  });

  it("ends an order whose nonce the taker revoked on chain, asking no resolver and striking nobody", async () => {
    const h = harness();
    h.book.add(order("lo_1", 1_000_000n));
    h.port.sides.set("lo_1", { kind: "revoked" });
    for (let pass = 0; pass < 5; pass++) {
      await limitPass(h.port);
      h.tick(5_000);
    }
    expect(h.book.get("lo_1")).toMatchObject({ status: "cancelled", lastError: "taker:nonce_revoked" });
    expect(h.auctions).toEqual([]);
    expect(h.submissions).toEqual([]);
    // Its event stream hears it ended, once.
    expect(h.moved).toEqual(["lo_1@corridor"]);
  });

  it("says why an order is not auctioned when its corridor has no band, and auctions it once there is one", async () => {
    const h = harness();
    h.book.add(order("lo_1", 1_000_000n));
    h.port.bandNow = null;
    await limitPass(h.port);
    expect(h.book.get("lo_1")).toMatchObject({ status: "open", lastError: "relay:no_band", attempts: 0 });
    expect(h.auctions).toEqual([]);
    h.port.bandNow = FakeLimitPort.band;
    h.tick(5_000);
    await limitPass(h.port);
    expect(h.book.get("lo_1")).toMatchObject({ status: "filling", attempts: 1, lastError: null });
  });

  it("keeps a short taker's order open but unauctioned, saying why, until a pass finds it whole", async () => {
    const h = harness();
    h.book.add(order("lo_1", 1_000_000n));
    h.port.sides.set("lo_1", { kind: "short", reason: "insufficient_balance" });
    await limitPass(h.port);
    expect(h.book.get("lo_1")).toMatchObject({ status: "open", lastError: "taker:insufficient_balance", attempts: 0 });
    expect(h.auctions).toEqual([]);
    h.port.sides.delete("lo_1");
    h.tick(5_000);
    await limitPass(h.port);
    expect(h.book.get("lo_1")).toMatchObject({ status: "filling", quoteId: "q_1" });
  });

  it("sends a failed fill back to open, and auctions it again on the next pass", async () => {
    const h = harness();
    h.book.add(order("lo_1", 1_000_000n));
    await limitPass(h.port);
    h.book.quoteStatus.set("q_1", "failed");
    h.tick(5_000);
    await limitPass(h.port);
    expect(h.book.get("lo_1")).toMatchObject({ status: "filling", quoteId: "q_2", attempts: 2 });
    // filling, back to open, filling again.
    expect(h.moved).toEqual(["lo_1@corridor", "lo_1@corridor", "lo_1@corridor"]);
  });

  it("starts no round while the keeper is paused, still following fills and sweeping expiries, and resumes after", async () => {
    let paused = true;
    const h = harness({ paused: () => paused });
    h.book.add(order("lo_1", 1_000_000n));
    h.book.add(order("lo_2", 1_000_000n, 1_002_000));
    h.tick(3_000);
    await limitPass(h.port);
    expect(h.auctions).toEqual([]);
    expect(h.book.get("lo_1")).toMatchObject({ status: "open", attempts: 0 });
    expect(h.book.get("lo_2").status).toBe("expired");
    paused = false;
    await limitPass(h.port);
    expect(h.book.get("lo_1")).toMatchObject({ status: "filling", attempts: 1 });
  });

  it("reopens an order whose round the keeper refused, with the reason", async () => {
    const h = harness({ submit: () => refuse(503, "not_leader", "down") });
    h.book.add(order("lo_1", 1_000_000n));
    await limitPass(h.port);
    expect(h.book.get("lo_1")).toMatchObject({ status: "open", lastError: "not_leader", attempts: 1 });
  });

  it("ends an order whose signature the keeper refuses: cancelled, taker:bad_signature, never auctioned again", async () => {
    const h = harness({
      submit: () => refuse(400, "bad_signature", "The settlement contracts refuse the taker's signature."),
    });
    h.book.add(order("lo_1", 1_000_000n));
    await limitPass(h.port);
    expect(h.book.get("lo_1")).toMatchObject({ status: "cancelled", quoteId: null, lastError: "taker:bad_signature" });
    for (let pass = 0; pass < 3; pass++) {
      h.tick(5_000);
      await limitPass(h.port);
    }
    expect(h.auctions).toHaveLength(1);
    expect(h.submissions).toHaveLength(1);
    // filling, then cancelled: each announced to its stream.
    expect(h.moved).toEqual(["lo_1@corridor", "lo_1@corridor"]);
  });

  it("records a round no bid won, with the best the recipient was offered", async () => {
    const h = harness({ received: 880_000n });
    h.book.add(order("lo_1", 1_000_000n));
    await limitPass(h.port);
    expect(h.book.get("lo_1")).toMatchObject({
      status: "open",
      attempts: 1,
      bestReceived: "880000",
      lastError: "below_limit",
      lastCheckedAt: new Date(h.now()).toISOString(),
    });
    expect(h.submissions).toEqual([]);
  });

  it("sweeps an open order past its expiry, and never auctions it", async () => {
    const h = harness();
    h.book.add(order("lo_1", 1_000_000n, 1_002_000));
    h.tick(3_000);
    await limitPass(h.port);
    expect(h.book.get("lo_1").status).toBe("expired");
    expect(h.auctions).toEqual([]);
  });

  it("does not auction an order asking more than 150 bps over the mid", async () => {
    const h = harness();
    h.book.add(order("far", 1_015_001n));
    h.book.add(order("near", 1_015_000n));
    await limitPass(h.port);
    expect(h.auctions.map((a) => a.limit?.limitOrderId)).toEqual(["near"]);
    expect(h.book.get("far")).toMatchObject({ status: "open", attempts: 0 });
  });

  it("leaves a cancelled order alone, and a cancel while filling is refused", async () => {
    const h = harness();
    h.book.add(order("lo_1", 1_000_000n));
    h.book.add(order("lo_2", 1_000_000n));
    expect(h.book.cancel("lo_1", h.now())).toBe(true);
    await limitPass(h.port);
    expect(h.auctions.map((a) => a.limit?.limitOrderId)).toEqual(["lo_2"]);
    expect(h.book.cancel("lo_2", h.now())).toBe(false);
    expect(h.book.get("lo_2").status).toBe("filling");
  });

  it("auctions every one of 200 open orders near the market in one pass", async () => {
    const h = harness({ received: 0n });
    for (let i = 0; i < 200; i++) h.book.add(order(`lo_${i}`, 1_000_000n));
    await limitPass(h.port);
    expect(new Set(h.auctions.map((a) => a.limit?.limitOrderId)).size).toBe(200);
  });

  it("reads and writes the book a fixed number of times, however many orders are open", async () => {
    const h = harness({ received: 0n });
    for (let i = 0; i < 10_000; i++) h.book.add(order(`lo_${i}`, 1_000_000n));
    await limitPass(h.port);
    // followFilling, sweepExpired, open, recordChecks: no round reached filling.
    expect(h.book.calls).toBe(4);
    // Every order near the market gets its round in this pass: no cap leaves some waiting.
    expect(h.auctions).toHaveLength(10_000);
  });
});
