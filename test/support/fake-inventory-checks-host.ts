import type { ProvedKeys } from "../../src/chains/adapter";
import type { InventoryRead, InventoryReader } from "../../src/chains/inventory";
import type { CheckStore, Claims, InventoryCheck, InventoryChecksHost } from "../../src/nodes/inventory-checks";
import type { ChainFlag } from "../../src/nodes/nodes";
import type { InventoryEntry } from "../../src/protocol/node-frames";

/** What a read answers: its entries (no code at the node's address), a whole read, or a failure. */
export type ReadAnswer = InventoryEntry[] | InventoryRead | Error;

/** A reader whose reads the test answers one by one. */
function fakeReader() {
  const calls: { node: ProvedKeys; tokens: readonly string[]; answer(e: ReadAnswer): void }[] = [];
  const reader: InventoryReader = (node, tokens) =>
    new Promise((resolve, reject) => {
      const answer = (e: ReadAnswer) =>
        e instanceof Error ? reject(e) : resolve(Array.isArray(e) ? { entries: e, hasCode: false } : e);
      calls.push({ node, tokens, answer });
    });
  return { reader, calls };
}

/** Checks kept in memory (`map`), where a corridor keeps them in its storage. */
function memoryCheckStore(): CheckStore & { map: Map<string, InventoryCheck> } {
  const map = new Map<string, InventoryCheck>();
  return {
    map,
    get: (a) => map.get(a),
    put: (a, c) => map.set(a, c),
    delete: (a) => map.delete(a),
  };
}

export interface FakeChecksHostOptions {
  tokens: readonly string[];
  sameToken: InventoryChecksHost["sameToken"];
}

/**
 * The inventory checks' host (`InventoryChecksHost` of src/nodes/inventory-checks.ts) in memory: reads the
 * test answers (`calls`, `answer`), claims it sets (`claim`), the checks' store, each flag change told,
 * and each node told covered.
 */
export function fakeInventoryChecksHost(options: FakeChecksHostOptions) {
  const { reader, calls } = fakeReader();
  const store = memoryCheckStore();
  let claims: Claims | null = null;
  const changes: [string, ChainFlag | null][] = [];
  const covered: string[] = [];
  const pending: Promise<unknown>[] = [];
  const host: InventoryChecksHost = {
    reader,
    tokens: options.tokens,
    sameToken: options.sameToken,
    claims: () => claims,
    store,
    waitUntil: (p) => pending.push(p),
    onFlagChange: (address, flag) => changes.push([address, flag]),
    onCovered: (address) => covered.push(address),
  };
  return {
    host,
    calls,
    store,
    /** The node's check as the checks keep it, in their store (by lowercase address). */
    checkOf: (address: string) => store.get(address.toLowerCase()) ?? null,
    changes,
    covered,
    /** The node's heartbeat at `at` claims `entries`. */
    claim: (at: number, ...entries: InventoryEntry[]) => {
      claims = { inventory: entries, at };
    },
    /** Answers the latest read and lets its outcome land. */
    answer: async (e: ReadAnswer) => {
      calls.at(-1)?.answer(e);
      await Promise.all(pending);
    },
  };
}
