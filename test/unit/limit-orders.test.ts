import { decodeFunctionData, getAddress, recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { adapterFor, limitOrdersFor } from "../../src/chains";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { type JsonTypedData, typedDataFromJson } from "../../src/chains/evm/json-typed-data";
import { newLimitNonce, nonceWord } from "../../src/chains/evm/limit-orders";
import { limitReadiness } from "../../src/chains/evm/limit-readiness";
import { gasChargeFor } from "../../src/chains/fee-charge";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { decodeCursor, encodeCursor } from "../../src/db/page-cursor";
import { buildDraft, firstDifference, inputsOfDraft, type LimitInputs } from "../../src/limit-orders/draft";
import { CLOCK_SKEW_SECONDS, deadlineAccepted, expiryAccepted } from "../../src/limit-orders/expiry";
import { limitOrderRecord } from "../../src/limit-orders/record";
import { limitAmountOf, limitAmounts } from "../../src/limit-orders/terms";
import type { LimitOrderDraft, LimitOrderRow, LimitOrderStatus } from "../../src/schemas/limit-order";
import {
  ACTIVE_LIMIT_STATUSES,
  afterFailedFill,
  isTerminal,
  LIMIT_MOVES,
  LIMIT_TRANSITIONS,
} from "../../src/states/limit-order-states";
import { FakeLimitReads } from "../support/fake-limit-reads";
import { highS, vAsParity } from "../support/signature-variants";

const chain = primaryEvmChain(localConfig);
const adapter = adapterFor(chain);
const [cngn, usdc] = chain.tokens.map((t) => t.address) as [string, string];
const taker = privateKeyToAccount("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");
const same = adapter.sameAddress;
const inBuy = gasChargeFor(chain.gasFee, cngn, usdc, same);
const inSell = gasChargeFor(chain.gasFee, usdc, cngn, same);

describe("limit order amounts (docs/limit-orders.md, the worked example)", () => {
  it("sells 158,000 cNGN for at least 100 USDC with the gas fee in the buy token", () => {
    const a = limitAmounts({ sellAmount: 158_000_000_000n, limitAmount: 100_000_000n, feeBps: 10, gas: inBuy });
    expect(a).toStrictEqual({
      feeAtLimit: 100_000n,
      gasFeeNow: 50_000n,
      maxGasFee: 150_000n,
      minOut: 99_750_000n,
      permitAmount: 158_000_000_000n,
    });
  });

  it("sells 100 USDC for at least 158,000 cNGN with the gas fee in the sell token", () => {
    const a = limitAmounts({ sellAmount: 100_000_000n, limitAmount: 158_000_000_000n, feeBps: 10, gas: inSell });
    expect(a).toStrictEqual({
      feeAtLimit: 158_000_000n,
      gasFeeNow: 50_000n,
      maxGasFee: 150_000n,
      minOut: 157_842_000_000n,
      permitAmount: 100_150_000n,
    });
  });

  it("rounds the fee down and is null when the limit does not cover the fees", () => {
    expect(limitAmounts({ sellAmount: 1n, limitAmount: 150_999n, feeBps: 10, gas: inBuy })?.minOut).toBe(849n);
    expect(limitAmounts({ sellAmount: 1n, limitAmount: 150_150n, feeBps: 10, gas: inBuy })).toBeNull();
    expect(limitAmounts({ sellAmount: 1n, limitAmount: 150_000n, feeBps: 0, gas: inBuy })).toBeNull();
    expect(limitAmounts({ sellAmount: 1n, limitAmount: 1n, feeBps: 0, gas: inSell })?.minOut).toBe(1n);
  });

  it("reads the limit back from minOut, the fee at the limit and maxGasFee", () => {
    for (const [limitAmount, gas] of [
      [100_000_000n, inBuy],
      [158_000_000_000n, inSell],
      [150_151n, inBuy],
    ] as const) {
      const a = limitAmounts({ sellAmount: 5n, limitAmount, feeBps: 10, gas });
      if (!a) throw new Error("covers the fees");
      expect(limitAmountOf({ minOut: a.minOut, feeAtLimit: a.feeAtLimit, maxGasFee: a.maxGasFee, gas })).toBe(
        limitAmount,
      );
    }
  });
});

describe("limit order expiry", () => {
  const bounds = { minExpirySeconds: 300, maxExpirySeconds: 2_592_000 };

  it("takes expiresInSeconds within the bounds at prepare", () => {
    expect([299, 300, 2_592_000, 2_592_001].map((s) => expiryAccepted(s, bounds))).toEqual([false, true, true, false]);
  });

  it("takes a deadline at placing up to the longest expiry, and at least the shortest within 30 s of skew", () => {
    const now = 1_900_000_000;
    const at = (left: number) => deadlineAccepted(BigInt(now + left), now, bounds);
    expect(at(300)).toBe(true);
    expect(at(300 - CLOCK_SKEW_SECONDS)).toBe(true);
    expect(at(300 - CLOCK_SKEW_SECONDS - 1)).toBe(false);
    // A 300 s minimum does not let a 180 s order in.
    expect(at(180)).toBe(false);
    expect(at(2_592_000)).toBe(true);
    expect(at(2_592_001)).toBe(false);
    expect(at(0)).toBe(false);
    expect(deadlineAccepted(BigInt(now), now, { minExpirySeconds: 60, maxExpirySeconds: 600 })).toBe(false);
  });
});

/** Through JSON, as a draft travels (the schema's own parse is exercised by the integration tests). */
const wireOf = (draft: LimitOrderDraft): LimitOrderDraft => JSON.parse(JSON.stringify(draft));
const STATUSES = Object.keys(LIMIT_TRANSITIONS) as LimitOrderStatus[];
const canMoveLimit = (from: LimitOrderStatus, to: LimitOrderStatus) => LIMIT_TRANSITIONS[from].includes(to);

describe("limit order states", () => {
  it("moves open → filling → filled, filling → open or cancelled, open → expired or cancelled, and nothing else", () => {
    const moves = STATUSES.flatMap((from) =>
      STATUSES.filter((to) => canMoveLimit(from, to)).map((to) => `${from}→${to}`),
    );
    expect(moves.sort()).toEqual(
      ["open→filling", "filling→filled", "filling→open", "filling→cancelled", "open→expired", "open→cancelled"].sort(),
    );
    expect(STATUSES.filter(isTerminal).sort()).toEqual(["cancelled", "expired", "filled"]);
    expect(ACTIVE_LIMIT_STATUSES).toEqual(["open", "filling"]);
  });

  it("makes only moves the table allows", () => {
    for (const move of Object.values(LIMIT_MOVES)) expect(canMoveLimit(move.from, move.to)).toBe(true);
  });

  it("ends a failed fill's order only when the chain refused the taker's signature; any other failure reopens it", () => {
    expect(LIMIT_MOVES[afterFailedFill("taker:bad_signature")]).toEqual({ from: "filling", to: "cancelled" });
    for (const reason of [
      "resolver:invalid_signature",
      "taker:nonce_used",
      "relay:reverted",
      "not_leader",
      "bad_signature",
    ]) {
      expect(LIMIT_MOVES[afterFailedFill(reason)]).toEqual({ from: "filling", to: "open" });
    }
  });
});

describe("the list cursor", () => {
  it("round-trips a position and refuses anything else", () => {
    const p = { at: "2026-11-22T10:00:00.123Z", id: `lo_${"ab".repeat(16)}` };
    const cursor = encodeCursor(p);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, "lo")).toStrictEqual(p);
    for (const bad of ["", "x", "!!", btoa("2026|lo_1"), btoa(`${p.at}|${p.id}|x`), "a".repeat(201)]) {
      expect(decodeCursor(bad, "lo")).toBeNull();
    }
    // A cursor of one list is not one of another.
    expect(decodeCursor(encodeCursor({ at: p.at, id: `q_${"ab".repeat(16)}` }), "lo")).toBeNull();
  });
});

describe("firstDifference", () => {
  it("names the first path where two JSON values differ", () => {
    expect(firstDifference({ a: 1, b: { c: "x" } }, { b: { c: "x" }, a: 1 })).toBeNull();
    expect(firstDifference({ a: 1, b: { c: "x" } }, { a: 1, b: { c: "y" } })).toBe("b.c");
    expect(firstDifference({ a: 1 }, { a: 1, extra: 2 })).toBe("extra");
    expect(firstDifference({ a: [1, 2] }, { a: [1, 3] })).toBe("a.1");
    expect(firstDifference({ a: "1" }, { a: 1 })).toBe("a");
    expect(firstDifference(1, 2)).toBe("(the whole value)");
  });
});

describe("limit readiness", () => {
  const plenty = 10n ** 30n;
  const permit = { value: "2000", deadline: "2000000000", v: 27, r: `0x${"11".repeat(32)}`, s: `0x${"22".repeat(32)}` };
  const ready = (over: Partial<Parameters<typeof limitReadiness>[0]>) =>
    limitReadiness({
      funds: { balance: plenty, permit2Allowance: plenty },
      permitAmount: 1000n,
      erc2612: null,
      deadline: 1_900_000_000n,
      token: "cNGN",
      ...over,
    });

  it("is ready with the balance and the Permit2 allowance", () => {
    expect(ready({})).toStrictEqual({ ready: true });
  });

  it.each([
    ["insufficient_balance", { funds: { balance: 999n, permit2Allowance: plenty } }],
    ["permit2_not_approved", { funds: { balance: plenty, permit2Allowance: 0n } }],
    ["permit2_allowance_too_low", { funds: { balance: plenty, permit2Allowance: 999n } }],
    [
      "permit_expires_before_order",
      {
        funds: { balance: plenty, permit2Allowance: 0n },
        erc2612: { permit: { ...permit, deadline: "1899999999" }, accepted: true },
      },
    ],
    [
      "permit_value_too_low",
      {
        funds: { balance: plenty, permit2Allowance: 0n },
        erc2612: { permit: { ...permit, value: "999" }, accepted: true },
      },
    ],
    ["permit_invalid", { funds: { balance: plenty, permit2Allowance: 0n }, erc2612: { permit, accepted: false } }],
  ] as const)("is not ready: %s", (reason, over) => {
    const r = ready(over);
    expect(r).toMatchObject({ ready: false, reason, detail: expect.any(String) });
  });

  it("is ready with a good permit instead of the allowance", () => {
    expect(ready({ funds: { balance: plenty, permit2Allowance: 0n }, erc2612: { permit, accepted: true } })).toEqual({
      ready: true,
    });
  });
});

describe("EVM limit orders", () => {
  const reads = new FakeLimitReads();
  const orders = limitOrdersFor(chain, () => reads);
  if (!orders) throw new Error("the local EVM chain has limit orders");
  const draftChain = { adapter, orders };
  const inputs: LimitInputs = {
    taker: taker.address,
    recipient: taker.address,
    sellToken: cngn,
    buyToken: usdc,
    sellAmount: 158_000_000_000n,
    limitAmount: 100_000_000n,
    nonce: newLimitNonce(),
    deadline: 1_900_000_000n,
    gasFeeNow: 50_000n,
  };

  it("has none on Solana", () => {
    const solana = localConfig.chains.find((c) => c.kind === "solana");
    if (!solana) throw new Error("the local configuration has a Solana chain");
    expect(limitOrdersFor(solana)).toBeNull();
  });

  it("draws nonces above every RFQ nonce, 128 random bits each", () => {
    const a = newLimitNonce();
    const b = newLimitNonce();
    expect(a).not.toBe(b);
    for (const n of [a, b]) expect(n >> 128n).toBe(1n);
    expect(nonceWord((5n << 8n) | 7n)).toStrictEqual({ wordPos: 5n, mask: 1n << 7n });
  });

  it("builds record 2.7 whose typedData a wallet signs and the relay verifies", async () => {
    const draft = buildDraft(draftChain, inputs);
    if (!draft) throw new Error("covers the fees");
    const record = wireOf(draft.record);
    expect(record).toMatchObject({
      chainId: 31337,
      executor: getAddress(chain.reactor),
      permit2: getAddress(chain.permit2),
      draft: {
        minOut: "99750000",
        gasFeeToken: usdc,
        maxGasFee: "150000",
        permitAmount: "158000000000",
        nonce: inputs.nonce.toString(),
        deadline: "1900000000",
      },
      fee: { token: usdc, bps: 10, atLimit: "100000" },
      gasFeeNow: "50000",
      expiresAt: new Date(1_900_000_000_000).toISOString(),
    });
    const typed = typedDataFromJson(record.typedData as JsonTypedData);
    expect(Object.keys(typed.types)).toContain("EIP712Domain");
    expect(typed.message).toMatchObject({ spender: getAddress(chain.reactor), nonce: inputs.nonce });
    const signature = await taker.signTypedData(typed as Parameters<typeof taker.signTypedData>[0]);
    expect(
      await recoverTypedDataAddress({ ...typed, signature } as Parameters<typeof recoverTypedDataAddress>[0]),
    ).toBe(taker.address);
    expect(await orders.takerSignatureFault(draft.terms, signature)).toBeNull();
    expect(await orders.takerSignatureFault({ ...draft.terms, minOut: draft.terms.minOut + 1n }, signature)).toBe(
      "The signature is not the taker's over the draft's typedData.",
    );
    expect(await orders.takerSignatureFault(draft.terms, `0x${"11".repeat(65)}`)).not.toBeNull();
    // What Permit2 refuses on chain, though viem's recovery reads each as the taker's (docs/api.md, "Signatures").
    for (const variant of [vAsParity(signature), highS(signature)]) {
      expect(
        await recoverTypedDataAddress({ ...typed, signature: variant } as Parameters<
          typeof recoverTypedDataAddress
        >[0]),
      ).toBe(taker.address);
      expect(await orders.takerSignatureFault(draft.terms, variant)).toMatch(/breaks the rule Permit2 applies/);
    }
  });

  it("reads the inputs back from a draft, so placing derives the same draft", () => {
    for (const gasIn of ["buy", "sell"] as const) {
      const these =
        gasIn === "buy" ? inputs : { ...inputs, sellToken: usdc, buyToken: cngn, limitAmount: 1_580_000_000n };
      const draft = buildDraft(draftChain, these);
      if (!draft) throw new Error("covers the fees");
      const wire = wireOf(draft.record);
      const back = inputsOfDraft(draftChain, wire);
      expect(back).toStrictEqual({ ...these, taker: getAddress(these.taker), recipient: getAddress(these.recipient) });
      expect(firstDifference(buildDraft(draftChain, back as LimitInputs)?.record, wire)).toBeNull();
    }
  });

  it("finds no inputs in typed data that is not a limit order's", () => {
    const draft = buildDraft(draftChain, inputs);
    if (!draft) throw new Error("covers the fees");
    const wire = wireOf(draft.record);
    const broken = (message: unknown) => ({ ...wire, typedData: { ...wire.typedData, message } });
    expect(inputsOfDraft(draftChain, broken({}))).toBeNull();
    const message = wire.typedData.message as { witness: Record<string, unknown> };
    const badChecksum = taker.address.replace(/[a-f]/, (ch) => ch.toUpperCase());
    expect(
      inputsOfDraft(draftChain, broken({ ...message, witness: { ...message.witness, taker: badChecksum } })),
    ).toBeNull();
    const otherToken = { ...message.witness, sellToken: "0x0000000000000000000000000000000000000001" };
    expect(inputsOfDraft(draftChain, broken({ ...message, witness: otherToken }))).toBeNull();
    expect(orders.signedChainId(wire.typedData)).toBe(31337);
    expect(orders.signedChainId({})).toBeNull();
  });

  it("revokes the nonce with invalidateUnorderedNonces(wordPos, mask) on Permit2", () => {
    const nonce = (1n << 128n) | 0x1234n;
    const revoke = orders.revoke(nonce);
    expect(revoke).toMatchObject({
      permit2: getAddress(chain.permit2),
      to: getAddress(chain.permit2),
      wordPos: (nonce >> 8n).toString(),
      mask: (1n << 0x34n).toString(),
    });
    const call = decodeFunctionData({ abi: permit2Abi, data: revoke.data as `0x${string}` });
    expect(call).toStrictEqual({ functionName: "invalidateUnorderedNonces", args: [nonce >> 8n, 1n << 0x34n] });
  });

  it("reads the chain through its port: nonce bits and readiness", async () => {
    const draft = buildDraft(draftChain, inputs);
    if (!draft) throw new Error("covers the fees");
    expect(await orders.nonceSpent(taker.address, inputs.nonce)).toBe(false);
    reads.spend(taker.address, inputs.nonce);
    expect(await orders.nonceSpent(taker.address, inputs.nonce)).toBe(true);
    expect(await orders.nonceSpent(taker.address, inputs.nonce + 1n)).toBe(false);

    expect(await orders.readiness(draft.terms, null)).toStrictEqual({ ready: true });
    reads.allowances.set(taker.address.toLowerCase(), 0n);
    expect(await orders.readiness(draft.terms, null)).toMatchObject({ reason: "permit2_not_approved" });
    const permit = {
      value: "158000000000",
      deadline: "1900000000",
      v: 27,
      r: `0x${"11".repeat(32)}`,
      s: `0x${"22".repeat(32)}`,
    };
    expect(await orders.readiness(draft.terms, permit)).toStrictEqual({ ready: true });
    reads.permitsAccepted.set(taker.address.toLowerCase(), false);
    expect(await orders.readiness(draft.terms, permit)).toMatchObject({ reason: "permit_invalid" });
  });
});

describe("record 2.8", () => {
  it("carries the cancel message and the stored terms", () => {
    const row = {
      limitOrderId: `lo_${"cd".repeat(16)}`,
      chainId: 31337,
      status: "open",
      gasFeeToken: usdc,
      maxGasFee: "150000",
      permitToken: cngn,
      permitAmount: "158000000000",
      nonce: "7",
      deadline: "1900000000",
      revoke: { permit2: chain.permit2, to: chain.permit2, wordPos: "0", mask: "128", data: "0x" },
    } as unknown as LimitOrderRow;
    expect(limitOrderRecord(row)).toMatchObject({
      cancelMessage: `relay-cancel-limit|31337|lo_${"cd".repeat(16)}`,
      gasFee: { token: usdc, max: "150000" },
      permit: { token: cngn, amount: "158000000000", nonce: "7", deadline: "1900000000" },
      revoke: { wordPos: "0", mask: "128" },
    });
  });
});
