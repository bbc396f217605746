import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { expireAllDue } from "../../src/db/quote-status";
import { readQuoteRecord } from "../../src/db/quotes";
import { seedQuote } from "../support/records";

describe("the expiry sweep", () => {
  it("expires every open quote past its expiry, once, and leaves the rest", async () => {
    const now = Date.now();
    const past = new Date(now - 1_000).toISOString();
    const { quote: due } = await seedQuote(env.DB, { expiresAt: past });
    const { quote: signed } = await seedQuote(env.DB, { expiresAt: past, status: "signed" });
    const { quote: live } = await seedQuote(env.DB, { expiresAt: new Date(now + 60_000).toISOString() });
    const { quote: settled } = await seedQuote(env.DB, { expiresAt: past, status: "settled" });

    expect(await expireAllDue(env.DB, new Date(now).toISOString())).toBeGreaterThanOrEqual(2);
    expect(await expireAllDue(env.DB, new Date(now).toISOString())).toBe(0);

    for (const q of [due, signed]) {
      const record = await readQuoteRecord(env.DB, q.quoteId);
      expect(record?.status).toBe("expired");
      expect(record?.timeline.filter((t) => t.event === "expired")).toEqual([
        { at: past, event: "expired", detail: null },
      ]);
    }
    expect((await readQuoteRecord(env.DB, live.quoteId))?.status).toBe("quoted");
    expect((await readQuoteRecord(env.DB, settled.quoteId))?.status).toBe("settled");
  });
});
