import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { BroadcastResult } from "../../src/chains";
import { readQuoteRecord } from "../../src/db/quotes";
import type { PendingTx } from "../../src/keeper/pending";
import type { SubmitRequest } from "../../src/keeper/rpc";
import { cutShortAtBroadcast, keeperHarness } from "../support/fake-keeper-port";
import { FakeSettler } from "../support/fake-settler";
import { MemoryTxStore } from "../support/fake-tx-store";
import { seedQuote } from "../support/records";

/**
 * The keeper's wallet pool through its ports (docs/settlement.md, "The wallet pool" and "The fast
 * path"): three in-memory wallets of one chain, a real local D1.
 */
const SIGNATURE = `0x${"11".repeat(65)}`;
const request = (quoteId: string): SubmitRequest => ({
  quoteId,
  takerPart: { signature: SIGNATURE },
  permit: null,
  idempotencyKey: null,
});
const WALLETS = [
  "0x1000000000000000000000000000000000000001",
  "0x2000000000000000000000000000000000000002",
  "0x3000000000000000000000000000000000000003",
];
const pool = () => WALLETS.map((address) => new FakeSettler(31337, 2, address));

async function quotes(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await seedQuote(env.DB)).quote.quoteId);
  return ids;
}

describe("the keeper's wallet pool", () => {
  it("spreads concurrent submissions over the wallets, each broadcast once by one wallet", async () => {
    const settlers = pool();
    const h = keeperHarness(env.DB, { settlers });
    const ids = await quotes(6);

    const outcomes = await Promise.all(ids.map((id) => h.keeper.submit(request(id))));

    expect(outcomes.map((o) => o.kind)).toEqual(Array(6).fill("submitted"));
    const hashes = outcomes.map((o) => (o.kind === "submitted" ? o.txHash : ""));
    const sent = settlers.flatMap((s) => s.sent);
    expect(sent.sort()).toEqual([...hashes].sort());
    expect(settlers.map((s) => s.sent.length)).toEqual([2, 2, 2]);
    // Each wallet's own nonce sequence.
    expect(h.store.all().map((tx) => tx.nonce)).toEqual([0, 0, 0, 1, 1, 1]);
    for (const [i, id] of ids.entries()) {
      const record = await readQuoteRecord(env.DB, id);
      const wallet = settlers.find((s) => s.sent.includes(hashes[i] as string));
      expect(record?.executions).toMatchObject([{ status: "submitted", submitter: wallet?.keeper }]);
    }
  });

  /**
   * Two submissions to one wallet; the first's broadcast answers (`firstAnswer`, accepted by default) only
   * once the second submission has been answered. The harness, both quotes and the first's outcome.
   */
  async function overlapping(firstAnswer?: BroadcastResult) {
    const settler = new FakeSettler(31337, 2, WALLETS[0]);
    const h = keeperHarness(env.DB, { settlers: [settler] });
    const [a, b] = (await quotes(2)) as [string, string];
    if (firstAnswer) settler.broadcastAnswers.push(firstAnswer);
    settler.holdBroadcasts = true;
    const first = h.keeper.submit(request(a));
    await vi.waitFor(() => expect(settler.held).toHaveLength(1));
    settler.holdBroadcasts = false;
    expect(await h.keeper.submit(request(b))).toMatchObject({ kind: "submitted" });
    settler.answerHeld();
    return { settler, h, a, b, first: await first };
  }

  it("broadcasts one wallet's transactions side by side: the next is signed and sent while one awaits its answer", async () => {
    const { h, a, b, first } = await overlapping();
    expect(first).toMatchObject({ kind: "submitted" });
    expect(h.store.all().map((tx) => [tx.submission.quoteId, tx.nonce])).toEqual([
      [a, 0],
      [b, 1],
    ]);
  });

  it("fills the nonce of a refused broadcast that a later one waits on, and refuses only the first", async () => {
    const { settler, h, a, b, first } = await overlapping({ status: "refused", reason: "underpriced" });
    expect(first).toMatchObject({ status: 503, code: "broadcast_failed" });
    // Nonce 0 is filled, since nonce 1 waits on it; the refused quote is open again.
    expect(settler.filled).toEqual([0]);
    expect(h.store.all().map((tx) => [tx.submission.quoteId, tx.nonce])).toEqual([[b, 1]]);
    expect(await readQuoteRecord(env.DB, a)).toMatchObject({ status: "quoted", executions: [] });
  });

  it("passes over a wallet whose nonce filler has not got through, and answers recovering when it is the only one", async () => {
    const settlers = pool();
    const [gapped, ...others] = settlers as [FakeSettler, ...FakeSettler[]];
    gapped.gapIsOpen = true;
    const h = keeperHarness(env.DB, { settlers });
    const outcomes = await Promise.all((await quotes(4)).map((id) => h.keeper.submit(request(id))));
    expect(outcomes.map((o) => o.kind)).toEqual(Array(4).fill("submitted"));
    expect(gapped.sent).toEqual([]);
    expect(others.map((s) => s.sent.length)).toEqual([2, 2]);

    const alone = keeperHarness(env.DB, { settlers: [gapped] });
    const [id] = await quotes(1);
    expect(await alone.keeper.submit(request(id as string))).toMatchObject({
      status: 503,
      extras: { reason: "recovering" },
    });
  });

  it("signs with what was read before the wallet's lock: no signing finds its wallet cold", async () => {
    const settlers = pool();
    const h = keeperHarness(env.DB, { settlers });
    for (const id of await quotes(4)) await h.keeper.submit(request(id));
    expect(settlers.map((s) => s.coldSigns)).toEqual([0, 0, 0]);
  });

  it("answers each submission with where its time went", async () => {
    const h = keeperHarness(env.DB, { settlers: pool() });
    const [id] = await quotes(1);
    const outcome = await h.keeper.submit(request(id as string));
    expect(outcome).toMatchObject({ kind: "submitted" });
    const timings = outcome.kind === "submitted" ? outcome.timings : undefined;
    expect(Object.keys(timings ?? {}).sort()).toEqual(
      ["broadcastMs", "claimMs", "lockMs", "readMs", "signMs", "simulateMs", "storageMs", "verifyMs", "writeMs"].sort(),
    );
    for (const ms of Object.values(timings ?? {})) expect(ms).toBeGreaterThanOrEqual(0);
  });

  it("passes over a wallet waiting on an unconfirmed broadcast, and answers recovering only when all are", async () => {
    const settlers = pool();
    const h = keeperHarness(env.DB, { settlers });
    for (const s of settlers) s.broadcastAnswers.push({ status: "unreachable", reason: "timeout" });
    const ids = await quotes(4);
    for (const id of ids.slice(0, 3)) expect(await h.keeper.submit(request(id))).toMatchObject({ kind: "submitted" });
    expect(new Set(h.store.all().map((tx) => tx.keeper))).toEqual(new Set(WALLETS));
    expect(await h.keeper.submit(request(ids[3] as string))).toMatchObject({
      status: 503,
      code: "not_leader",
      extras: { reason: "recovering" },
    });
  });

  it("after a restart, recovers each wallet's stored transaction with that wallet, broadcasting none twice", async () => {
    const settlers = pool();
    const store = new MemoryTxStore();
    const before = keeperHarness(env.DB, { settlers, store });
    const ids = await quotes(3);
    const stored: PendingTx[] = [];
    for (const id of ids) stored.push(await cutShortAtBroadcast(before, request(id)));
    // The first wallet's broadcast reached the network before the crash; the others' did not.
    const [first] = stored as [PendingTx];
    settlers[0]?.acceptSilently(first.hash);
    expect(new Set(stored.map((tx) => tx.keeper))).toEqual(new Set(WALLETS));

    // A new keeper over the same storage and the same chain: nothing of the old one's memory.
    const after = keeperHarness(env.DB, { settlers, store });
    await after.keeper.index();
    await after.keeper.index();

    for (const tx of stored) {
      const wallet = settlers.find((s) => s.keeper === tx.keeper) as FakeSettler;
      const others = settlers.filter((s) => s !== wallet).flatMap((s) => s.sent);
      expect(others).not.toContain(tx.hash);
      expect(wallet.sent.filter((h) => h === tx.hash)).toHaveLength(tx === first ? 0 : 1);
      expect(store.get(tx.hash)?.state).toBe("sent");
      expect((await readQuoteRecord(env.DB, tx.submission.quoteId))?.status).toBe("submitted");
    }
  });
});
