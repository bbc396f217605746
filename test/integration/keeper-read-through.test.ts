import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { localConfig } from "../../src/config/local";
import { submittedStatements } from "../../src/db/settlement-steps";
import type { Env } from "../../src/env";
import { newId } from "../../src/ids";
import { executionThrough, quoteThrough } from "../../src/quotes/read-through";
import { seedQuote } from "../support/records";

/** Every read may reach its object: the count of reads is the limits project's (test/limits/reads.test.ts). */
const anyRead = async () => {};

/**
 * The reads that write a submission's record through the keeper (docs/settlement.md, "The fast path"):
 * the real local D1, and a keeper that holds one record answered but not yet written.
 */
function keeperHolding(record: { ids: string[]; write: () => Promise<void> }) {
  const asked: string[] = [];
  const keeper = {
    async writeThrough(id: string) {
      asked.push(id);
      if (!record.ids.includes(id)) return false;
      await record.write();
      return true;
    },
  };
  const KEEPER = { idFromName: () => ({}), get: () => keeper };
  return { env: { ...env, KEEPER } as unknown as Env, asked };
}

async function answeredNotWritten(expiresAt: string) {
  const { quote } = await seedQuote(env.DB, { expiresAt });
  // The keeper claimed it (the claim's column, set as `claimOpenQuote` sets it) and answered 202.
  await env.DB.prepare("UPDATE quotes SET claimed_at = ?1 WHERE quote_id = ?2")
    .bind(new Date().toISOString(), quote.quoteId)
    .run();
  const executionId = newId("x");
  const txHash = `0x${"ab".repeat(32)}`;
  const write = () =>
    env.DB.batch(
      submittedStatements(
        env.DB,
        {
          executionId,
          quoteId: quote.quoteId,
          resolver: quote.resolver?.address ?? null,
          proceeds: quote.proceeds,
          takerPays: quote.takerPays,
          idempotencyKey: null,
          at: new Date().toISOString(),
        },
        { txHash, submitter: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720" },
      ),
    ).then(() => {});
  return { quote, executionId, txHash, ...keeperHolding({ ids: [quote.quoteId, executionId], write }) };
}

describe("reads that write a submission's record through the keeper", () => {
  it("shows an execution D1 does not have yet, once the keeper has written it", async () => {
    const t = await answeredNotWritten(new Date(Date.now() + 60_000).toISOString());
    expect(await executionThrough(t.env, localConfig, t.executionId, anyRead)).toMatchObject({
      executionId: t.executionId,
      status: "submitted",
      txHash: t.txHash,
    });
    expect(t.asked).toEqual([t.executionId]);
  });

  it("shows a claimed quote as its record moves it, an expired one included", async () => {
    // Past its expiry: the read records `expired` first, and the keeper's record still moves it on.
    const t = await answeredNotWritten(new Date(Date.now() - 1_000).toISOString());
    const quote = await quoteThrough(t.env, localConfig, t.quote.quoteId, anyRead);
    expect(quote?.status).toBe("submitted");
    expect(quote?.executions).toMatchObject([{ executionId: t.executionId, status: "submitted" }]);
    expect(t.asked).toEqual([t.quote.quoteId]);
  });

  it("asks the keeper nothing for a quote it has not claimed, and finds nothing for an unknown execution", async () => {
    const { quote } = await seedQuote(env.DB);
    const t = keeperHolding({ ids: [], write: async () => {} });
    expect((await quoteThrough(t.env, localConfig, quote.quoteId, anyRead))?.status).toBe("quoted");
    const unknown = newId("x");
    expect(await executionThrough(t.env, localConfig, unknown, anyRead)).toBeNull();
    expect(t.asked).toEqual([unknown]);
  });
});
