import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { readQuoteRecord } from "../../src/db/quotes";
import { idempotencyKeyStatement, scopedIdempotencyKey } from "../../src/db/settlement";
import { seedExecution, seedQuote } from "../support/records";

/**
 * POST /v1/executions without a chain: what the Worker and the keeper answer before anything is
 * simulated. This project gives the keeper no key, so a submission that passes every check is
 * `not_leader`. Settlement itself is tested against anvil in test/settlement/.
 */
const app = createApp();
const SIGNATURE = `0x${"11".repeat(65)}`;

async function post(body: unknown, headers: Record<string, string> = {}) {
  const res = await app.request(
    "/v1/executions",
    {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "content-type": "application/json", ...headers },
    },
    env,
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

describe("POST /v1/executions: validation", () => {
  it.each([
    ["no body fields", {}],
    ["no signature", { quoteId: "q_x" }],
    ["a signature that is not 65 bytes of hex", { quoteId: "q_x", signature: "0x1234" }],
    ["a permit without r and s", { quoteId: "q_x", signature: SIGNATURE, permit: { value: "1", deadline: 1, v: 27 } }],
    ["a chainId that is not a number", { quoteId: "q_x", signature: SIGNATURE, chainId: "31337" }],
  ])("answers 400 invalid_request for %s", async (_, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", issues: expect.any(Array) });
  });

  it("answers 400 invalid_request for a body that is not JSON", async () => {
    const res = await post("{not json");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request" });
  });

  it("answers 400 invalid_request for a Solana-shaped body on an EVM quote", async () => {
    const { quote } = await seedQuote(env.DB);
    const res = await post({ quoteId: quote.quoteId, transaction: "AQID" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", issues: [{ path: "signature" }] });
  });

  it("answers 400 idempotency_key_too_long over 128 characters, and takes 128", async () => {
    const { quote } = await seedQuote(env.DB);
    const body = { quoteId: quote.quoteId, signature: SIGNATURE };
    const long = await post(body, { "Idempotency-Key": "k".repeat(129) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: "idempotency_key_too_long" });
    const ok = await post(body, { "Idempotency-Key": "k".repeat(128) });
    expect(ok.body.error).not.toBe("idempotency_key_too_long");
  });

  it.each(["q_unknown", `q_${"0".repeat(32)}`])("answers 404 quote_not_found for %s", async (quoteId) => {
    const res = await post({ quoteId, signature: SIGNATURE });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "quote_not_found" });
  });

  it("answers 409 wrong_chain when the body names another chain than the quote's", async () => {
    const { quote } = await seedQuote(env.DB);
    const res = await post({ quoteId: quote.quoteId, signature: SIGNATURE, chainId: 103 });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "wrong_chain" });
  });

  it("answers 409 wrong_chain for a quote on a chain the relay no longer serves", async () => {
    const { quote } = await seedQuote(env.DB, { chainId: 1 });
    const res = await post({ quoteId: quote.quoteId, signature: SIGNATURE });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "wrong_chain" });
  });
});

describe("POST /v1/executions: the quote's state", () => {
  it("answers 409 quote_expired past expiresAt, and records the expiry", async () => {
    const past = Date.now() - 1_000;
    const { quote } = await seedQuote(env.DB, {
      quotedAt: new Date(past - 30_000).toISOString(),
      expiresAt: new Date(past).toISOString(),
    });
    const res = await post({ quoteId: quote.quoteId, signature: SIGNATURE });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "quote_expired" });
    const record = await readQuoteRecord(env.DB, quote.quoteId);
    expect(record?.status).toBe("expired");
    expect(record?.timeline.at(-1)?.event).toBe("expired");
  });

  it.each(["cancelled", "settled", "failed"] as const)(
    "answers 409 quote_not_open with the status of a %s quote",
    async (status) => {
      const { quote } = await seedQuote(env.DB, { status });
      const res = await post({ quoteId: quote.quoteId, signature: SIGNATURE });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: "quote_not_open", status });
    },
  );
});

describe("POST /v1/executions: the keeper", () => {
  it("answers 503 not_leader, retry in 2 s, when the keeper has no key, and changes nothing", async () => {
    const { quote, timeline } = await seedQuote(env.DB);
    const res = await post({ quoteId: quote.quoteId, signature: SIGNATURE });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: "not_leader", reason: "keeper_not_configured", retryAfter: 2 });
    expect(res.headers.get("Retry-After")).toBe("2");
    const record = await readQuoteRecord(env.DB, quote.quoteId);
    expect(record?.status).toBe("quoted");
    expect(record?.timeline).toEqual(timeline);
    expect(record?.executions).toEqual([]);
  });
});

describe("POST /v1/executions: numbers out of range and repeated keys", () => {
  const TOO_BIG = (2n ** 256n).toString();
  const permit = { value: "1", deadline: "1", v: 27, r: `0x${"ab".repeat(32)}`, s: `0x${"cd".repeat(32)}` };

  it.each([
    ["permit.value", { ...permit, value: TOO_BIG }],
    ["permit.deadline", { ...permit, deadline: TOO_BIG }],
    ["permit.v", { ...permit, v: 256 }],
    ["permit.r", { ...permit, r: `0x${"ab".repeat(33)}` }],
  ])("answers 400 invalid_request for %s out of range, the quote unchanged", async (path, bad) => {
    const { quote, timeline } = await seedQuote(env.DB);
    const res = await post({ quoteId: quote.quoteId, signature: SIGNATURE, permit: bad });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", issues: [expect.objectContaining({ path })] });
    const record = await readQuoteRecord(env.DB, quote.quoteId);
    expect(record?.status).toBe("quoted");
    expect(record?.timeline).toEqual(timeline);
  });

  it("answers retries of a seen Idempotency-Key with the first execution, outside the taker's rate limit", async () => {
    const taker = "0x00000000000000000000000000000000000b0b00";
    const { quote } = await seedQuote(env.DB, { taker, recipient: taker });
    const first = await seedExecution(env.DB, quote.quoteId);
    const at = new Date().toISOString();
    await idempotencyKeyStatement(env.DB, scopedIdempotencyKey(taker, "retry-1"), first.executionId, at).run();
    for (let i = 0; i < 30; i++) {
      const res = await post({ quoteId: quote.quoteId, signature: SIGNATURE }, { "Idempotency-Key": "retry-1" });
      expect(res.status, `retry ${i}`).toBe(200);
      expect(res.body).toMatchObject({ executionId: first.executionId, status: "submitted", duplicate: true });
    }
  });

  it("answers 409 idempotency_key_reused for the taker's key sent with another quote, and changes neither", async () => {
    const taker = "0x00000000000000000000000000000000000b0b01";
    const { quote } = await seedQuote(env.DB, { taker, recipient: taker });
    const other = await seedQuote(env.DB, { taker, recipient: taker });
    const first = await seedExecution(env.DB, quote.quoteId);
    await idempotencyKeyStatement(
      env.DB,
      scopedIdempotencyKey(taker, "k-1"),
      first.executionId,
      new Date().toISOString(),
    ).run();
    const res = await post({ quoteId: other.quote.quoteId, signature: SIGNATURE }, { "Idempotency-Key": "k-1" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "idempotency_key_reused", quoteId: quote.quoteId });
    expect((await readQuoteRecord(env.DB, other.quote.quoteId))?.status).toBe("quoted");
    const repeat = await post({ quoteId: quote.quoteId, signature: SIGNATURE }, { "Idempotency-Key": "k-1" });
    expect(repeat.body).toMatchObject({ executionId: first.executionId, duplicate: true });
  });
});
