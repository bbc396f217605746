import type { Hold, HoldStore } from "./holds";

/** A hold as kept in storage: its amount as a decimal string. */
type StoredHold = Omit<Hold, "amount"> & { amount: string };

const PREFIX = "hold:";

/**
 * Holds kept in the corridor object's synchronous key-value storage, one key per open quote: written in
 * the same turn as the quote that wins, so a restarted or woken object reads them back before its next
 * auction (docs/resolver-protocol.md, "Inventory held for open quotes").
 */
export function kvHoldStore(kv: SyncKvStorage): HoldStore {
  return {
    all: () => [...kv.list<StoredHold>({ prefix: PREFIX })].map(([, h]) => ({ ...h, amount: BigInt(h.amount) })),
    put: (hold) => kv.put<StoredHold>(PREFIX + hold.quoteId, { ...hold, amount: hold.amount.toString() }),
    delete: (quoteId) => {
      kv.delete(PREFIX + quoteId);
    },
  };
}
