import { describe, expect, it } from "vitest";
import { fundedResolver, keeperNonce, newTaker, seedQuote, signQuote, submit } from "./helpers";

/**
 * An Idempotency-Key with two quotes of one taker, as a client sends them (docs/settlement.md,
 * "Idempotency-Key"): POST /v1/executions through the Worker, the keeper leader and the chain's keeper to
 * anvil. D1 hears of the first submission only after its answer; the key is the first quote's already.
 */
async function twoSignedQuotes() {
  const taker = await newTaker();
  const quotes = [];
  for (const resolver of [fundedResolver(0), fundedResolver(1)]) {
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver });
    quotes.push({ quoteId, signature: await signQuote(taker, typedData) });
  }
  return quotes as [(typeof quotes)[0], (typeof quotes)[0]];
}

describe("one Idempotency-Key with two quotes of a taker", () => {
  it("answers the second 409 idempotency_key_reused when it is sent right after the first's 202", async () => {
    const [a, b] = await twoSignedQuotes();
    const key = crypto.randomUUID();
    const nonce = await keeperNonce();
    const first = await submit(a, { "Idempotency-Key": key });
    const second = await submit(b, { "Idempotency-Key": key });
    expect(first.status).toBe(202);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error: "idempotency_key_reused", quoteId: a.quoteId });
    expect(await keeperNonce()).toBe(nonce + 1);
  });

  it("lets one of two sent at once through and answers the other 409", async () => {
    const [a, b] = await twoSignedQuotes();
    const key = crypto.randomUUID();
    const nonce = await keeperNonce();
    const answers = await Promise.all([submit(a, { "Idempotency-Key": key }), submit(b, { "Idempotency-Key": key })]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    expect(await keeperNonce()).toBe(nonce + 1);
  });
});
