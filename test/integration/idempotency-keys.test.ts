import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { localConfig } from "../../src/config/local";
import { SqlKeyBook } from "../../src/keeper/key-book";
import { Leader } from "../../src/keeper/leader";
import type { SubmitOutcome, SubmitRequest } from "../../src/keeper/rpc";
import { type KeeperHarness, keeperHarness } from "../support/fake-keeper-port";
import { seedQuote } from "../support/records";

/**
 * An Idempotency-Key belongs to one quote from its first submission on (docs/settlement.md,
 * "Idempotency-Key"; docs/security.md): the keeper leader over its own storage (a real object's, reset
 * between submissions where the test says so), the keeper of the chain over the local D1 and an in-memory
 * chain. A submission's records are written to D1 after its answer, as the object writes them: here never,
 * so D1 has not heard of the first submission when the second comes, as on a busy relay.
 */
const SIGNATURE = `0x${"11".repeat(65)}`;

const submission = (quoteId: string, idempotencyKey: string | null): SubmitRequest => ({
  quoteId,
  takerPart: { signature: SIGNATURE },
  permit: null,
  idempotencyKey,
});

/** A taker of its own for each test: the keeper's per-taker limit never meets another test's. */
const newTaker = () => `0x${crypto.randomUUID().replaceAll("-", "")}${"0".repeat(8)}`;

/** A leader over an object's storage, handing every chain's submissions to `chain`'s keeper. */
function leaderIn(state: DurableObjectState, chain: KeeperHarness): Leader {
  return new Leader({
    config: () => localConfig,
    db: env.DB,
    records: () => env.DB,
    chainKeeper: () => ({
      submit: (request) => chain.keeper.submit(request),
      writeThrough: (id) => chain.keeper.writeThrough(id),
      status: async () => ({ followed: 0, addresses: [] }),
    }),
    paused: () => null,
    keys: new SqlKeyBook(state.storage.sql),
    now: () => Date.now(),
  });
}

/** Runs `submit` with a leader in object `name`, as the object would after a fresh start. */
function withLeader<T>(name: string, chain: KeeperHarness, submit: (leader: Leader) => Promise<T>): Promise<T> {
  const stub = env.KEEPER.get(env.KEEPER.idFromName(name));
  return runInDurableObject(stub, (_, state) => submit(leaderIn(state, chain)));
}

const kinds = (outcomes: SubmitOutcome[]) =>
  outcomes.map((o) => (o.kind === "refused" ? `${o.status} ${o.code}` : o.kind)).sort();

describe("an Idempotency-Key sent with a second quote before D1 has heard of the first", () => {
  it("is 409 idempotency_key_reused when sent right after the first was answered", async () => {
    const taker = newTaker();
    const [a, b] = [await seedQuote(env.DB, { taker }), await seedQuote(env.DB, { taker })];
    const chain = keeperHarness(env.DB, { recordLater: true });
    const [first, second] = await withLeader("keys-sequential", chain, async (leader) => [
      await leader.submit(submission(a.quote.quoteId, "k-seq")),
      await leader.submit(submission(b.quote.quoteId, "k-seq")),
    ]);
    expect(first).toMatchObject({ kind: "submitted", quoteId: a.quote.quoteId });
    expect(second).toMatchObject({
      status: 409,
      code: "idempotency_key_reused",
      extras: { quoteId: a.quote.quoteId },
    });
    expect(chain.settler.sent).toHaveLength(1);
  });

  it("lets one of two sent at once through and answers the other 409", async () => {
    const taker = newTaker();
    const [a, b] = [await seedQuote(env.DB, { taker }), await seedQuote(env.DB, { taker })];
    const chain = keeperHarness(env.DB, { recordLater: true });
    const outcomes = await withLeader("keys-concurrent", chain, (leader) =>
      Promise.all([
        leader.submit(submission(a.quote.quoteId, "k-con")),
        leader.submit(submission(b.quote.quoteId, "k-con")),
      ]),
    );
    expect(kinds(outcomes)).toEqual(["409 idempotency_key_reused", "submitted"]);
    expect(chain.settler.sent).toHaveLength(1);
  });

  it("is 409 across a reset of the leader between the two", async () => {
    const taker = newTaker();
    const [a, b] = [await seedQuote(env.DB, { taker }), await seedQuote(env.DB, { taker })];
    const chain = keeperHarness(env.DB, { recordLater: true });
    const first = await withLeader("keys-reset", chain, (leader) => leader.submit(submission(a.quote.quoteId, "k-r")));
    expect(first).toMatchObject({ kind: "submitted" });
    await evictDurableObject(env.KEEPER.get(env.KEEPER.idFromName("keys-reset")));
    const second = await withLeader("keys-reset", chain, (leader) => leader.submit(submission(b.quote.quoteId, "k-r")));
    expect(second).toMatchObject({ status: 409, code: "idempotency_key_reused", extras: { quoteId: a.quote.quoteId } });
    expect(chain.settler.sent).toHaveLength(1);
  });

  it("still lets another taker use the same key, and a submission that recorded nothing leave it free", async () => {
    const [one, two] = [newTaker(), newTaker()];
    const expired = await seedQuote(env.DB, { taker: one, expiresAt: new Date(Date.now() - 1_000).toISOString() });
    const [a, b] = [await seedQuote(env.DB, { taker: one }), await seedQuote(env.DB, { taker: two })];
    const chain = keeperHarness(env.DB, { recordLater: true });
    const outcomes = await withLeader("keys-free", chain, async (leader) => [
      await leader.submit(submission(expired.quote.quoteId, "k-free")),
      await leader.submit(submission(a.quote.quoteId, "k-free")),
      await leader.submit(submission(b.quote.quoteId, "k-free")),
      await leader.submit(submission(a.quote.quoteId, "k-free")),
    ]);
    expect(outcomes.map((o) => (o.kind === "refused" ? o.code : o.kind))).toEqual([
      "quote_expired",
      "submitted",
      "submitted",
      "duplicate",
    ]);
  });
});

describe("the leader's key book", () => {
  it("holds a key until its quote's window has passed, then forgets it", async () => {
    const stub = env.KEEPER.get(env.KEEPER.idFromName("keys-expiry"));
    await runInDurableObject(stub, (_, state) => {
      const book = new SqlKeyBook(state.storage.sql);
      const now = Date.now();
      const window = localConfig.quoteTtlSeconds * 1000;
      expect(book.take("k", "q_a", now, now + window)).toEqual({ others: [], added: true });
      expect(book.take("k", "q_b", now + 1, now + 1 + window)).toEqual({ others: ["q_a"], added: true });
      expect(book.take("k", "q_a", now + 2, now + 2 + window)).toEqual({ others: ["q_b"], added: false });
      // Past the window, the next take deletes both: the table holds only the keys of one window.
      expect(book.take("k2", "q_c", now + window + 2, now + 2 * window)).toEqual({ others: [], added: true });
      const held = state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM leader_keys").one().n;
      expect(held).toBe(1);
    });
  });
});
