import { localConfig } from "../../src/config/local";
import type { FillNotice } from "../../src/keeper/fill-notice";
import { Keeper } from "../../src/keeper/keeper";
import type { PendingTx } from "../../src/keeper/pending";
import type { KeeperPort } from "../../src/keeper/port";
import type { SubmitRequest } from "../../src/keeper/rpc";
import type { Demotion } from "../../src/resolvers/strike-policy";
import { FakeSettler } from "./fake-settler";
import { MemoryTxStore } from "./fake-tx-store";

/**
 * A keeper wired to fakes: the in-memory chain of `FakeSettler` on every chain the relay settles (one
 * wallet, or the pool `settlers`), an in-memory transaction store (`store`, to restart a keeper over the
 * same one), and the given D1. `noKey` stands for a keeper without a key.
 */
export function keeperHarness(
  db: D1Database,
  options: {
    settler?: FakeSettler;
    settlers?: FakeSettler[];
    store?: MemoryTxStore;
    noKey?: boolean;
    /** What a corridor does when asked to write a quote through (default: it holds none). */
    writeThrough?: KeeperPort["writeThrough"];
    /** The keeper's clock (default: the real one). */
    now?: () => number;
    /**
     * Records written after the answer are kept for the test to run (`recordAnswered`), as the object
     * runs them once its answer has left; by default each runs before the keeper answers.
     */
    recordLater?: boolean;
  } = {},
) {
  const settlers = options.settlers ?? [options.settler ?? new FakeSettler()];
  const settler = settlers[0] as FakeSettler;
  const store = options.store ?? new MemoryTxStore();
  /** What the winning resolvers heard: each notice with its `execution` frame's fields. */
  const notified: {
    corridorKey: string;
    resolver: string;
    update: { quoteId: string; status: FillNotice["status"]; txHash: string | null };
    fault?: string;
  }[] = [];
  const demotions: { corridorKey: string | null; resolver: string; demotion: Demotion }[] = [];
  /** Quotes whose timeline grew, in the order the keeper said so. */
  const grown: string[] = [];
  let indexerArmed = 0;
  const later: (() => Promise<void>)[] = [];
  const port: KeeperPort = {
    config: () => localConfig,
    db,
    records: () => db,
    allRecords: () => [db],
    store,
    settlers: () => (options.noKey ? "no_key" : settlers),
    armIndexer: async () => {
      indexerArmed++;
    },
    afterAnswer: async (write) => {
      if (options.recordLater) later.push(write);
      else await write();
    },
    quoteMoved: (quoteId, fill) => {
      grown.push(quoteId);
      if (fill) {
        const { corridorKey, resolver, status, txHash, fault } = fill;
        notified.push({ corridorKey, resolver, update: { quoteId, status, txHash }, ...(fault ? { fault } : {}) });
      }
    },
    demoted: (corridorKey, resolver, demotion) => demotions.push({ corridorKey, resolver, demotion }),
    writeThrough: options.writeThrough ?? (async () => false),
    now: options.now ?? (() => Date.now()),
  };
  return {
    keeper: new Keeper(port),
    settler,
    settlers,
    store,
    notified,
    grown,
    demotions,
    indexerArmed: () => indexerArmed,
    /** Runs the records kept by `recordLater`, as the object does once each answer has left. */
    recordAnswered: () => Promise.all(later.splice(0).map((write) => write())),
  };
}

/**
 * Runs a submission on the harness's keeper until its broadcast, which never reaches the network nor
 * answers: what a crash mid-broadcast leaves, the quote claimed and the transaction stored as `signed`. A
 * keeper made over the same store is the restarted one. The stored transaction.
 */
export async function cutShortAtBroadcast(h: KeeperHarness, req: SubmitRequest): Promise<PendingTx> {
  const cut = () => h.settlers.reduce((n, s) => n + s.cutShort.length, 0);
  const before = cut();
  for (const s of h.settlers) s.crashAtBroadcast = true;
  let answered: unknown = null;
  void h.keeper.submit(req).then((outcome) => {
    answered = outcome;
  });
  try {
    for (let i = 0; cut() === before; i++) {
      if (answered || i > 400) throw new Error(`not cut short at its broadcast: ${JSON.stringify(answered)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    for (const s of h.settlers) s.crashAtBroadcast = false;
  }
  const tx = h.store.forQuote(req.quoteId);
  if (!tx) throw new Error("the transaction cut short is not stored");
  return tx;
}

export type KeeperHarness = ReturnType<typeof keeperHarness>;
