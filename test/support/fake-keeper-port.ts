import { localConfig } from "../../src/config/local";
import type { Demotion } from "../../src/db/strikes";
import type { ExecutionUpdate } from "../../src/keeper/contract";
import { Keeper } from "../../src/keeper/keeper";
import type { KeeperPort } from "../../src/keeper/port";
import { FakeSettler } from "./fake-settler";
import { MemoryTxStore } from "./fake-tx-store";

/**
 * A keeper wired to fakes: the in-memory chain of `FakeSettler` on every chain the relay settles, an
 * in-memory transaction store, and the given D1. `noKey` stands for a keeper without a key.
 */
export function keeperHarness(db: D1Database, options: { settler?: FakeSettler; noKey?: boolean } = {}) {
  const settler = options.settler ?? new FakeSettler();
  const store = new MemoryTxStore();
  const notified: { corridorKey: string; resolver: string; update: ExecutionUpdate }[] = [];
  const demotions: { corridorKey: string | null; resolver: string; demotion: Demotion }[] = [];
  let indexerArmed = 0;
  const port: KeeperPort = {
    config: () => localConfig,
    db,
    store,
    settler: () => (options.noKey ? "no_key" : settler),
    armIndexer: async () => {
      indexerArmed++;
    },
    notify: (corridorKey, resolver, update) => notified.push({ corridorKey, resolver, update }),
    demoted: (corridorKey, resolver, demotion) => demotions.push({ corridorKey, resolver, demotion }),
    now: () => Date.now(),
  };
  return {
    keeper: new Keeper(port),
    settler,
    store,
    notified,
    demotions,
    indexerArmed: () => indexerArmed,
  };
}
