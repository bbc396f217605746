import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { allCorridors, corridorTag } from "../../src/chains";
import { loadConfig } from "../../src/config/load";
import { recordsDb } from "../../src/config/records";
import { readSubmission } from "../../src/db/quotes";
import { newId } from "../../src/ids";
import { seedQuote } from "../support/records";

/**
 * An Idempotency-Key the keeper leader took for a quote of another records database (docs/capacity.md,
 * "Records by corridor"): the submission's read still finds whether that quote is the same taker's.
 */

const config = loadConfig(env.RELAY_CONFIG);
const tagOf = (kind: string) => corridorTag(allCorridors(config).find((c) => c.chain.kind === kind)?.key ?? "");
const dbOf = (id: string) => recordsDb(env, config, id);

describe("a key taken for a quote of another database", () => {
  it("is found the same taker's there, and not another taker's", async () => {
    const taker = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
    const { quote: first } = await seedQuote(env.DB, { quoteId: newId("q", tagOf("solana")), taker, recipient: taker });
    const { quote: other } = await seedQuote(env.DB, { quoteId: newId("q", tagOf("solana")) });
    const { quote } = await seedQuote(env.RECORDS_2 as D1Database, {
      quoteId: newId("q", tagOf("evm")),
      taker,
      recipient: taker,
    });
    const now = new Date().toISOString();
    const read = (takenWith: string[]) =>
      readSubmission(dbOf(quote.quoteId), quote.quoteId, "k-1", now, takenWith, dbOf);
    expect(dbOf(quote.quoteId)).toBe(env.RECORDS_2);
    expect((await read([first.quoteId])).takenFor).toBe(first.quoteId);
    expect((await read([other.quoteId])).takenFor).toBeNull();
    expect((await read([])).quote?.quoteId).toBe(quote.quoteId);
  });
});
