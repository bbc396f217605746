import { env } from "cloudflare:test";
import { getAddress, type Hex, type LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { adapterFor, limitOrdersFor } from "../../src/chains";
import { type JsonTypedData, typedDataFromJson } from "../../src/chains/evm/json-typed-data";
import { loadConfig } from "../../src/config/load";
import { primaryEvmChain } from "../../src/config/record";
import type { RelayConfig } from "../../src/config/schema";
import { startLimitFill } from "../../src/db/limit-moves";
import { insertLimitOrder, readLimitOrder } from "../../src/db/limit-orders";
import { newId } from "../../src/ids";
import { buildDraft, inputsOfDraft } from "../../src/limit-orders/draft";
import { CLOCK_SKEW_SECONDS } from "../../src/limit-orders/expiry";
import type { LimitOrder, LimitOrderDraft } from "../../src/schemas/limit-order";
import { FakeLimitReads } from "../support/fake-limit-reads";
import { sampleLimitOrder } from "../support/limit-records";
import { highS, vAsParity } from "../support/signature-variants";

/**
 * The limit-order routes on workerd and the local D1, the chain reads through an in-memory fake
 * (test/support/fake-limit-reads.ts). The same flows against anvil, with real allowances, permits and
 * nonces, are test/settlement/limit-orders.test.ts.
 */
const reads = new FakeLimitReads();
const app = createApp({ limitOrderChains: reads.chains() });
const base = loadConfig(env.RELAY_CONFIG);
const chain = primaryEvmChain(base);
const cngn = chain.tokens.find((t) => t.symbol === "cNGN")?.address ?? "";
const usdc = chain.tokens.find((t) => t.symbol === "USDC")?.address ?? "";
const LIMITS = base.limitOrders ?? { minExpirySeconds: 0, maxExpirySeconds: 0, maxOpenPerTaker: 0 };

interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** A request to the app, under the configuration in force or under `config`. */
async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  config?: RelayConfig,
): Promise<Answer<T>> {
  const res = await app.request(
    path,
    {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    config ? { ...env, RELAY_CONFIG: JSON.stringify(config) } : env,
  );
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}

/** The configuration in force with some fields of its EVM chain or of its limits changed. */
function configWith(chainFields: Record<string, unknown>, limits: Partial<typeof LIMITS> = {}): RelayConfig {
  return {
    ...base,
    chains: base.chains.map((c) => (c.chainId === chain.chainId ? ({ ...c, ...chainFields } as typeof c) : c)),
    limitOrders: { ...LIMITS, ...limits },
  };
}

let taker: LocalAccount;

beforeEach(async () => {
  taker = privateKeyToAccount(generatePrivateKey());
  reads.balances.clear();
  reads.allowances.clear();
  reads.permitsAccepted.clear();
  reads.bitmaps.clear();
  reads.down = false;
});

/** 158,000 cNGN for at least 100 USDC, for a day (docs/limit-orders.md, the worked example). */
const cngnForUsdc = (over: Record<string, unknown> = {}) => ({
  sellToken: cngn,
  buyToken: usdc,
  sellAmount: "158000000000",
  limitAmount: "100000000",
  taker: taker.address,
  expiresInSeconds: 86_400,
  ...over,
});

async function prepare(over: Record<string, unknown> = {}, config?: RelayConfig): Promise<LimitOrderDraft> {
  const res = await call<LimitOrderDraft>("POST", "/v1/limit-orders/prepare", cngnForUsdc(over), config);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** The taker's eth_signTypedData_v4 signature over the draft's typedData, made from the JSON as a wallet would. */
const sign = (draft: LimitOrderDraft, signer: LocalAccount = taker): Promise<Hex> =>
  signer.signTypedData(
    typedDataFromJson(draft.typedData as unknown as JsonTypedData) as Parameters<LocalAccount["signTypedData"]>[0],
  );

async function place(draft: LimitOrderDraft, extra: Record<string, unknown> = {}, config?: RelayConfig) {
  return call<LimitOrder & Record<string, unknown>>(
    "POST",
    "/v1/limit-orders",
    { draft, signature: await sign(draft), ...extra },
    config,
  );
}

async function placed(over: Record<string, unknown> = {}): Promise<LimitOrder> {
  const res = await place(await prepare(over));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** `maxOpenPerTaker` open orders of the taker, stored directly. */
async function fillUpTaker(): Promise<void> {
  for (let i = 0; i < LIMITS.maxOpenPerTaker; i++) {
    await insertLimitOrder(
      env.DB,
      sampleLimitOrder({ taker: taker.address.toLowerCase() }),
      1_000,
      new Date().toISOString(),
    );
  }
}

const count = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM limit_orders").first<{ n: number }>())?.n ?? 0;

describe("POST /v1/limit-orders/prepare", () => {
  it("answers record 2.7: the derived terms and typed data a wallet signs, and stores nothing", async () => {
    const before = await count();
    const started = Math.floor(Date.now() / 1000);
    const draft = await prepare();
    expect(Object.keys(draft).sort()).toEqual(
      ["chainId", "draft", "executor", "expiresAt", "fee", "gasFeeNow", "permit2", "typedData"].sort(),
    );
    expect(draft).toMatchObject({
      chainId: chain.chainId,
      executor: getAddress(chain.reactor),
      permit2: getAddress(chain.permit2),
      draft: { minOut: "99750000", gasFeeToken: usdc, maxGasFee: "150000", permitAmount: "158000000000" },
      fee: { token: usdc, bps: 10, atLimit: "100000" },
      gasFeeNow: "50000",
    });
    const deadline = Number(draft.draft.deadline);
    expect(deadline - started).toBeGreaterThanOrEqual(86_400);
    expect(deadline - started).toBeLessThanOrEqual(86_401);
    expect(draft.expiresAt).toBe(new Date(deadline * 1000).toISOString());
    expect(BigInt(draft.draft.nonce) >> 128n).toBe(1n);
    const typed = draft.typedData as { types: Record<string, unknown>; primaryType: string; message: unknown };
    expect(Object.keys(typed.types)).toContain("EIP712Domain");
    expect(typed.primaryType).toBe("PermitWitnessTransferFrom");
    expect(typed.message).toMatchObject({
      permitted: { token: getAddress(cngn), amount: "158000000000" },
      spender: getAddress(chain.reactor),
      nonce: draft.draft.nonce,
      deadline: draft.draft.deadline,
      witness: { taker: taker.address, recipient: taker.address, minOut: "99750000", maxGasFee: "150000" },
    });
    expect(await count()).toBe(before);
  });

  it("adds the most gas fee to the permit when the gas fee is in the sell token, and takes a recipient", async () => {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const draft = await prepare({
      sellToken: usdc,
      buyToken: cngn,
      sellAmount: "100000000",
      limitAmount: "158000000000",
      recipient,
    });
    expect(draft.draft).toMatchObject({ minOut: "157842000000", permitAmount: "100150000", gasFeeToken: usdc });
    expect(draft.fee).toStrictEqual({ token: cngn, bps: 10, atLimit: "158000000" });
    expect((draft.typedData.message as { witness: { recipient: string } }).witness.recipient).toBe(recipient);
  });

  it("gives each draft its own nonce", async () => {
    const [a, b] = [await prepare(), await prepare()];
    expect(a.draft.nonce).not.toBe(b.draft.nonce);
  });

  it("shows no fee token when the chain's fee is 0", async () => {
    const draft = await prepare({}, configWith({ fee: { bps: 0 } }));
    expect(draft.fee).toStrictEqual({ token: null, bps: 0, atLimit: "0" });
    expect(draft.draft.minOut).toBe("99850000");
  });

  it.each([
    ["a taker that is not an address", { taker: "0x12" }, "taker"],
    ["a mixed-case token with a broken checksum", { sellToken: cngn.replace("e7f", "E7f") }, "sellToken"],
    ["a fractional expiry", { expiresInSeconds: 300.5 }, "expiresInSeconds"],
    ["a sell amount of zero", { sellAmount: "0" }, "sellAmount"],
    ["a limit amount that is not a number", { limitAmount: "1e9" }, "limitAmount"],
  ])("answers 400 invalid_request for %s", async (_, over, path) => {
    const res = await call("POST", "/v1/limit-orders/prepare", cngnForUsdc(over));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", issues: [expect.objectContaining({ path })] });
  });

  it.each([
    ["an unknown chain", { chainId: 999 }],
    ["a token the chain does not list", { buyToken: "0x0000000000000000000000000000000000000001" }],
    ["a token against itself", { buyToken: cngn }],
  ])("answers 400 unsupported_pair for %s", async (_, over) => {
    const res = await call("POST", "/v1/limit-orders/prepare", cngnForUsdc(over));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "unsupported_pair" });
  });

  it("answers 400 limit_orders_unsupported on a Solana chain", async () => {
    const solana = base.chains.find((c) => c.kind === "solana");
    const res = await call("POST", "/v1/limit-orders/prepare", cngnForUsdc({ chainId: solana?.chainId }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "limit_orders_unsupported", message: expect.any(String) });
  });

  it("answers 400 below_minimum with the minimum", async () => {
    const res = await call("POST", "/v1/limit-orders/prepare", cngnForUsdc({ sellAmount: "999999999" }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "below_minimum", minimum: "1000000000" });
  });

  it.each([LIMITS.minExpirySeconds - 1, LIMITS.maxExpirySeconds + 1, 0, -300])(
    "answers 400 bad_expiry for expiresInSeconds %s",
    async (expiresInSeconds) => {
      const res = await call("POST", "/v1/limit-orders/prepare", cngnForUsdc({ expiresInSeconds }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "bad_expiry" });
    },
  );

  it("takes the shortest and the longest expiry", async () => {
    await prepare({ expiresInSeconds: LIMITS.minExpirySeconds });
    await prepare({ expiresInSeconds: LIMITS.maxExpirySeconds });
  });

  it("answers 400 limit_below_fees when the limit does not cover the fee and the most gas fee", async () => {
    const res = await call("POST", "/v1/limit-orders/prepare", cngnForUsdc({ limitAmount: "150150" }));
    expect(res.status).toBe(400);
    // The figures: the fee at this limit (10 bps), the most gas fee (3 × 50000) and the smallest limit that works.
    expect(res.body).toMatchObject({
      error: "limit_below_fees",
      feeAtLimit: "150",
      maxGasFee: "150000",
      smallestLimit: "150151",
      message: expect.stringContaining("150151"),
    });
    await prepare({ limitAmount: "150151" });
  });

  it("answers 429 too_many_open for a taker at maxOpenPerTaker, with Retry-After", async () => {
    await fillUpTaker();
    const res = await call("POST", "/v1/limit-orders/prepare", cngnForUsdc());
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ error: "too_many_open", max: LIMITS.maxOpenPerTaker, retryAfter: 60 });
    expect(res.headers.get("retry-after")).toBe("60");
  });
});

describe("POST /v1/limit-orders", () => {
  it("answers 201 with record 2.8 and stores what the keeper needs to fill it", async () => {
    const draft = await prepare();
    const signature = await sign(draft);
    const res = await call<LimitOrder>("POST", "/v1/limit-orders", { draft, signature });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const order = res.body;
    const nonce = BigInt(draft.draft.nonce);
    expect(order).toMatchObject({
      limitOrderId: expect.stringMatching(/^lo_[0-9a-f]{32}$/),
      chainId: chain.chainId,
      status: "open",
      gasFee: { token: usdc, max: "150000" },
      permit: { token: cngn, amount: "158000000000", nonce: draft.draft.nonce, deadline: draft.draft.deadline },
      expiresAt: draft.expiresAt,
      quoteId: null,
      attempts: 0,
      lastError: null,
      lastCheckedAt: null,
      bestReceived: null,
      cancelMessage: `relay-cancel-limit|${chain.chainId}|${order.limitOrderId}`,
      revoke: {
        permit2: getAddress(chain.permit2),
        to: getAddress(chain.permit2),
        wordPos: (nonce >> 8n).toString(),
        mask: (1n << (nonce & 255n)).toString(),
        data: expect.stringMatching(/^0x3ff9dcb1/),
      },
      // EIP-55, as every answer spells an EVM address (docs/api.md, "Conventions"), though stored in lower case.
      taker: taker.address,
      recipient: taker.address,
      limitAmount: "100000000",
      minOut: "99750000",
    });
    const stored = await readLimitOrder(env.DB, order.limitOrderId);
    expect(stored).toMatchObject({
      corridor: `${chain.chainId}:${[cngn.toLowerCase(), usdc.toLowerCase()].sort().join(":")}`,
      typedData: draft.typedData,
      signature,
      erc2612: null,
      nonce: draft.draft.nonce,
      feeAtLimit: "100000",
      gasFeeNow: "50000",
    });
    const got = await call("GET", `/v1/limit-orders/${order.limitOrderId}`);
    expect(got.status).toBe(200);
    expect(got.body).toStrictEqual(order);
  });

  it("keeps the taker's EIP-2612 permit when Permit2 is not approved yet", async () => {
    reads.allowances.set(taker.address.toLowerCase(), 0n);
    const draft = await prepare();
    const erc2612 = {
      value: "158000000000",
      deadline: draft.draft.deadline,
      v: 27,
      r: `0x${"11".repeat(32)}`,
      s: `0x${"22".repeat(32)}`,
    };
    const res = await place(draft, { erc2612 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await readLimitOrder(env.DB, res.body.limitOrderId))?.erc2612).toStrictEqual(erc2612);
  });

  describe("400 terms_mismatch when the draft is not what the relay derives now", () => {
    const cases: [string, (d: LimitOrderDraft) => void, string][] = [
      ["maxGasFee", (d) => (d.draft.maxGasFee = "1"), "draft.maxGasFee"],
      ["the fee at the limit", (d) => (d.fee.atLimit = "1"), "draft.minOut"],
      ["gasFeeNow", (d) => (d.gasFeeNow = "1"), "gasFeeNow"],
      ["the executor", (d) => (d.executor = getAddress(chain.executor)), "executor"],
      ["expiresAt", (d) => (d.expiresAt = new Date(0).toISOString()), "expiresAt"],
      [
        "the typed data's spender",
        (d) => ((d.typedData.message as { spender: string }).spender = getAddress(chain.executor)),
        "typedData.message.spender",
      ],
      [
        "the signed permit amount",
        (d) => ((d.typedData.message as { permitted: { amount: string } }).permitted.amount = "1"),
        "typedData.message.permitted.amount",
      ],
    ];
    it.each(cases)("%s changed", async (_, change, field) => {
      const draft = await prepare();
      change(draft);
      const res = await place(draft);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "terms_mismatch", field });
    });

    it("a gas fee under half of today's", async () => {
      const today = await prepare();
      const orders = limitOrdersFor(chain, () => reads);
      if (!orders) throw new Error("the local chain has limit orders");
      const draftChain = { adapter: adapterFor(chain), orders };
      const inputs = inputsOfDraft(draftChain, today);
      if (!inputs) throw new Error("the draft's inputs");
      // Today's fee is the local chain's 0.05 USDC (its inputs cannot be read here): sign for 0.02.
      const stale = buildDraft(draftChain, { ...inputs, gasFeeNow: BigInt(today.gasFeeNow) / 2n - 1n });
      if (!stale) throw new Error("a draft");
      const res = await place(stale.record);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "terms_mismatch", field: "gasFeeNow" });
    });

    it("typed data that is not a limit order's", async () => {
      const draft = await prepare();
      draft.typedData.message = { hello: "world" };
      const res = await call("POST", "/v1/limit-orders", { draft, signature: `0x${"11".repeat(65)}` });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "terms_mismatch", field: "typedData.message" });
    });
  });

  it("answers 503 not_leader, never 500, when every nonce it draws is taken", async () => {
    const taken = 1n << 129n;
    const stuck = createApp({
      limitOrderChains: (c) => {
        const orders = reads.chains()(c);
        return orders && { ...orders, newNonce: () => taken };
      },
    });
    const order = sampleLimitOrder({ taker: taker.address.toLowerCase(), nonce: taken.toString() });
    await insertLimitOrder(env.DB, order, 100, new Date().toISOString());
    const res = await stuck.request(
      "/v1/limit-orders/prepare",
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(cngnForUsdc()) },
      env,
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe("2");
    expect(await res.json()).toMatchObject({ error: "not_leader", reason: "nonce_search_exhausted" });
  });

  it("answers 400 bad_signature for a signature that is not the taker's", async () => {
    const draft = await prepare();
    const other = privateKeyToAccount(generatePrivateKey());
    const res = await call("POST", "/v1/limit-orders", { draft, signature: await sign(draft, other) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "bad_signature" });
  });

  it("answers 400 invalid_request for a signature that is not 65 bytes, or no draft", async () => {
    const draft = await prepare();
    expect((await call("POST", "/v1/limit-orders", { draft, signature: "0x12" })).body).toMatchObject({
      error: "invalid_request",
    });
    expect((await call("POST", "/v1/limit-orders", { signature: `0x${"11".repeat(65)}` })).body).toMatchObject({
      error: "invalid_request",
    });
  });

  it("answers 400 below_minimum when the sell amount is under the token's minimum now", async () => {
    const lower = configWith({ tokens: chain.tokens.map((t) => ({ ...t, minimum: null })) });
    const draft = await prepare({ sellAmount: "500000000" }, lower);
    const res = await place(draft);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "below_minimum", minimum: "1000000000" });
  });

  it("answers 400 bad_expiry when the deadline is out of the expiry bounds now", async () => {
    const draft = await prepare({ expiresInSeconds: 7200 });
    const res = await place(draft, {}, configWith({}, { maxExpirySeconds: 3600 }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "bad_expiry" });
    const short = await prepare({ expiresInSeconds: 600 });
    const late = await place(short, {}, configWith({}, { minExpirySeconds: 600 + CLOCK_SKEW_SECONDS + 10 }));
    expect(late.body).toMatchObject({ error: "bad_expiry" });
  });

  it("answers 400 limit_below_fees for a signed minOut that leaves nothing over the fees", async () => {
    const draft = await prepare();
    (draft.typedData.message as { witness: { minOut: string } }).witness.minOut = "0";
    draft.fee.atLimit = "0";
    const res = await place(draft);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "limit_below_fees" });
  });

  it.each([
    ["permit2_not_approved", () => reads.allowances.set(taker.address.toLowerCase(), 0n)],
    ["permit2_allowance_too_low", () => reads.allowances.set(taker.address.toLowerCase(), 157_999_999_999n)],
    ["insufficient_balance", () => reads.balances.set(taker.address.toLowerCase(), 1n)],
  ])("answers 400 taker_not_ready %s, with reason and detail", async (reason, setUp) => {
    setUp();
    const res = await place(await prepare());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "taker_not_ready", reason, detail: expect.any(String) });
  });

  it("answers 400 taker_not_ready for an EIP-2612 permit the token refuses or that ends before the order", async () => {
    reads.allowances.set(taker.address.toLowerCase(), 0n);
    const draft = await prepare();
    const erc2612 = {
      value: "158000000000",
      deadline: draft.draft.deadline,
      v: 27,
      r: `0x${"11".repeat(32)}`,
      s: `0x${"22".repeat(32)}`,
    };
    const early = await place(draft, { erc2612: { ...erc2612, deadline: String(Number(draft.draft.deadline) - 1) } });
    expect(early.body).toMatchObject({ error: "taker_not_ready", reason: "permit_expires_before_order" });
    reads.permitsAccepted.set(taker.address.toLowerCase(), false);
    const refused = await place(draft, { erc2612 });
    expect(refused.body).toMatchObject({ error: "taker_not_ready", reason: "permit_invalid" });
  });

  it("answers 409 nonce_used for a draft placed already", async () => {
    const draft = await prepare();
    expect((await place(draft)).status).toBe(201);
    const again = await place(draft);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "nonce_used" });
  });

  it("answers 409 nonce_used for a nonce spent or revoked on chain", async () => {
    const draft = await prepare();
    reads.spend(taker.address, BigInt(draft.draft.nonce));
    const res = await place(draft);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "nonce_used" });
  });

  it("answers 409 wrong_chain for a chain the relay does not serve, or typed data signed for another", async () => {
    const draft = await prepare();
    const unknown = await place({ ...draft, chainId: 999 });
    expect(unknown.status).toBe(409);
    expect(unknown.body).toMatchObject({ error: "wrong_chain" });
    const other = structuredClone(draft);
    (other.typedData.domain as { chainId: number }).chainId = 1;
    const res = await place(other);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "wrong_chain" });
  });

  it("answers 400 limit_orders_unsupported for a draft on a Solana chain", async () => {
    const draft = await prepare();
    const solana = base.chains.find((c) => c.kind === "solana");
    const res = await place({ ...draft, chainId: solana?.chainId ?? 0 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "limit_orders_unsupported" });
  });

  it("answers 429 too_many_open when the taker reached maxOpenPerTaker since prepare", async () => {
    const draft = await prepare();
    await fillUpTaker();
    const res = await place(draft);
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ error: "too_many_open" });
  });

  it("answers 503 chain_unavailable when the chain does not answer, and stores nothing", async () => {
    const draft = await prepare();
    const before = await count();
    reads.down = true;
    const res = await place(draft);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: "chain_unavailable", retryAfter: 5 });
    expect(await count()).toBe(before);
  });
});

describe("GET /v1/limit-orders and /v1/limit-orders/{id}", () => {
  it("answers 404 not_found for an unknown or malformed id", async () => {
    for (const id of [newId("lo"), "lo_x", newId("q")]) {
      const res = await call("GET", `/v1/limit-orders/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found" });
    }
  });

  it("shows an open order past its expiry as expired", async () => {
    const row = sampleLimitOrder({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    await insertLimitOrder(env.DB, row, 1_000, new Date().toISOString());
    const res = await call<LimitOrder>("GET", `/v1/limit-orders/${row.limitOrderId}`);
    expect(res.body.status).toBe("expired");
    const listed = await call<{ limitOrders: LimitOrder[] }>(
      "GET",
      `/v1/limit-orders?taker=${row.taker}&status=expired`,
    );
    expect(listed.body.limitOrders.map((o) => o.limitOrderId)).toContain(row.limitOrderId);
    // A read writes nothing: the keeper's sweep records the expiry.
    expect((await readLimitOrder(env.DB, row.limitOrderId))?.status).toBe("open");
  });

  it("lists the taker's orders newest first, a page at a time, by status", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await placed()).limitOrderId);
    const cancelled = await placed();
    ids.push(cancelled.limitOrderId);
    const sig = await taker.signMessage({ message: cancelled.cancelMessage });
    expect((await call("POST", `/v1/limit-orders/${cancelled.limitOrderId}/cancel`, { signature: sig })).status).toBe(
      200,
    );
    await insertLimitOrder(env.DB, sampleLimitOrder(), 1_000, new Date().toISOString());

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `/v1/limit-orders?taker=${taker.address}&limit=3${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await call<{ limitOrders: LimitOrder[]; nextCursor: string | null }>("GET", q);
      expect(page.status).toBe(200);
      expect(page.body.limitOrders.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.limitOrders.map((o) => o.limitOrderId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());

    const lower = await call<{ limitOrders: LimitOrder[] }>(
      "GET",
      `/v1/limit-orders?taker=${taker.address.toLowerCase()}&status=cancelled`,
    );
    expect(lower.body.limitOrders.map((o) => o.limitOrderId)).toEqual([cancelled.limitOrderId]);
    const none = await call<{ limitOrders: unknown[]; nextCursor: unknown }>(
      "GET",
      `/v1/limit-orders?taker=${privateKeyToAccount(generatePrivateKey()).address}`,
    );
    expect(none.body).toStrictEqual({ limitOrders: [], nextCursor: null });
  });

  it.each([
    ["no taker", "/v1/limit-orders"],
    ["a taker that is not an address", "/v1/limit-orders?taker=0x12"],
    ["an unknown status", `/v1/limit-orders?taker=${getAddress(usdc)}&status=done`],
    ["a cursor the relay did not give", `/v1/limit-orders?taker=${getAddress(usdc)}&cursor=abc`],
    ["a page over 100", `/v1/limit-orders?taker=${getAddress(usdc)}&limit=101`],
    ["a chain the relay does not serve", `/v1/limit-orders?taker=${getAddress(usdc)}&chainId=999`],
  ])("answers 400 invalid_request for %s", async (_, path) => {
    const res = await call("GET", path);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request" });
  });
});

describe("POST /v1/limit-orders/{id}/cancel", () => {
  it("cancels an open order with the taker's EIP-191 signature over cancelMessage", async () => {
    const order = await placed();
    const signature = await taker.signMessage({ message: order.cancelMessage });
    const res = await call<LimitOrder>("POST", `/v1/limit-orders/${order.limitOrderId}/cancel`, { signature });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ limitOrderId: order.limitOrderId, status: "cancelled", revoke: order.revoke });
    const again = await call("POST", `/v1/limit-orders/${order.limitOrderId}/cancel`, { signature });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: "order_not_open", status: "cancelled" });
  });

  it("answers 400 bad_signature for a signature that is not the taker's over cancelMessage", async () => {
    const order = await placed();
    const other = privateKeyToAccount(generatePrivateKey());
    const own = await taker.signMessage({ message: order.cancelMessage });
    for (const signature of [
      await other.signMessage({ message: order.cancelMessage }),
      await taker.signMessage({ message: `relay-cancel-limit|1|${order.limitOrderId}` }),
      "0x12",
      // The taker's own, with v 0/1 or a high s: what the chain's ecrecover refuses (docs/api.md, "Signatures").
      vAsParity(own),
      highS(own),
    ]) {
      const res = await call("POST", `/v1/limit-orders/${order.limitOrderId}/cancel`, { signature });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "bad_signature" });
    }
    expect((await readLimitOrder(env.DB, order.limitOrderId))?.status).toBe("open");
  });

  it("answers 409 order_filling while a fill is on its way", async () => {
    const order = await placed();
    await startLimitFill(env.DB, {
      limitOrderId: order.limitOrderId,
      quoteId: newId("q"),
      now: new Date().toISOString(),
    });
    const signature = await taker.signMessage({ message: order.cancelMessage });
    const res = await call("POST", `/v1/limit-orders/${order.limitOrderId}/cancel`, { signature });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "order_filling", status: "filling" });
  });

  it("answers 409 order_not_open for an order past its expiry", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const row = sampleLimitOrder({
      taker: account.address.toLowerCase(),
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    await insertLimitOrder(env.DB, row, 1_000, new Date().toISOString());
    const signature = await account.signMessage({ message: `relay-cancel-limit|${row.chainId}|${row.limitOrderId}` });
    const res = await call("POST", `/v1/limit-orders/${row.limitOrderId}/cancel`, { signature });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "order_not_open", status: "expired" });
  });

  it("answers 404 not_found for an unknown order", async () => {
    const res = await call("POST", `/v1/limit-orders/${newId("lo")}/cancel`, { signature: "0x12" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "not_found" });
  });
});

describe("limit orders in the configuration record and the OpenAPI document", () => {
  it("publishes the limits the routes enforce", async () => {
    const config = await call<{ limitOrders: unknown }>("GET", "/v1/config");
    expect(config.body.limitOrders).toStrictEqual(LIMITS);
    expect(LIMITS).toStrictEqual({ minExpirySeconds: 300, maxExpirySeconds: 2_592_000, maxOpenPerTaker: 20 });
  });

  it("describes every limit-order route with its schemas", async () => {
    const doc = (
      await call<{ paths: Record<string, Record<string, unknown>>; components: { schemas: object } }>(
        "GET",
        "/v1/openapi.json",
      )
    ).body;
    expect(Object.keys(doc.paths["/v1/limit-orders"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/v1/limit-orders/prepare"] ?? {})).toEqual(["post"]);
    expect(Object.keys(doc.paths["/v1/limit-orders/{id}"] ?? {})).toEqual(["get"]);
    expect(Object.keys(doc.paths["/v1/limit-orders/{id}/cancel"] ?? {})).toEqual(["post"]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["LimitOrderDraft", "LimitOrder", "LimitOrderPage", "LimitOrderPrepareRequest"]),
    );
  });
});
