/**
 * Where a settler keeps the keeper's next nonce on its chain: the keeper object's storage, beside the
 * transactions it follows. Synchronous, so a nonce and the transaction that uses it are written together.
 * `address` is the keeper's address as the settler spells it in storage.
 */
export interface NonceStore {
  /** The next nonce stored for `address`, or null before its first transaction. */
  next(address: string): number | null;
  /** Whether a transaction of the wallet `keeper` (`ChainSettler.keeper`) is signed or sent but not mined yet. */
  hasUnmined(keeper: string): boolean;
  /** Moves the next nonce past `nonce` (never backwards) and runs `write` in the same storage transaction. */
  take(address: string, nonce: number, write: () => void): void;
  /** Frees `nonce` again when it is the last one taken, and runs `write` in the same storage transaction. */
  release(address: string, nonce: number, write: () => void): void;
  /** Keeps `filler`, which takes a refused transaction's nonce, and runs `write` in the same storage transaction. */
  keepFiller(address: string, filler: NonceFiller, write: () => void): void;
  /** The fillers of `address` not yet known to be mined, lowest nonce first. */
  fillers(address: string): NonceFiller[];
  /** The filler of `nonce` is mined, or its nonce was used otherwise: it is forgotten. */
  dropFiller(address: string, nonce: number): void;
}

/**
 * A transaction of the keeper's wallet to itself, of nothing, signed for the nonce of a refused
 * transaction that later ones of the wallet wait on (docs/settlement.md, "Nonce gaps").
 */
export interface NonceFiller {
  nonce: number;
  hash: string;
  raw: string;
}
