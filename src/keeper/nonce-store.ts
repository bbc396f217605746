import type { NonceStore } from "../chains";

/**
 * Creates the keeper's nonce tables: the next nonce per chain and wallet address, and the nonce fillers
 * kept until mined (docs/settlement.md, "Nonce gaps").
 */
export function createNonceTables(sql: SqlStorage): void {
  sql.exec(`
    CREATE TABLE IF NOT EXISTS keeper_nonces (
      chain_id    INTEGER NOT NULL,
      address     TEXT NOT NULL,
      next_nonce  INTEGER NOT NULL,
      PRIMARY KEY (chain_id, address)
    );
    CREATE TABLE IF NOT EXISTS keeper_fillers (
      chain_id    INTEGER NOT NULL,
      address     TEXT NOT NULL,
      nonce       INTEGER NOT NULL,
      tx_hash     TEXT NOT NULL,
      raw         TEXT NOT NULL,
      PRIMARY KEY (chain_id, address, nonce)
    );
  `);
}

/**
 * The nonce sequence of each keeper wallet on one chain, in the keeper object's SQLite beside the
 * transactions it follows (`keeper_txs`, src/keeper/pending.ts), for that chain's settlers.
 */
export function sqlNonceStore(storage: DurableObjectStorage, chainId: number): NonceStore {
  return {
    next(address) {
      const row = storage.sql
        .exec<{ next_nonce: number }>(
          "SELECT next_nonce FROM keeper_nonces WHERE chain_id = ? AND address = ?",
          chainId,
          address,
        )
        .toArray()[0];
      return row?.next_nonce ?? null;
    },
    hasUnmined(address) {
      return (
        storage.sql
          .exec<{ n: number }>(
            "SELECT COUNT(*) AS n FROM keeper_txs WHERE chain_id = ? AND address = ? AND state != 'mined'",
            chainId,
            address,
          )
          .one().n > 0
      );
    },
    take(address, nonce, write) {
      storage.transactionSync(() => {
        write();
        storage.sql.exec(
          `INSERT INTO keeper_nonces (chain_id, address, next_nonce) VALUES (?1, ?2, ?3)
           ON CONFLICT (chain_id, address) DO UPDATE SET next_nonce = MAX(next_nonce, ?3)`,
          chainId,
          address,
          nonce + 1,
        );
      });
    },
    release(address, nonce, write) {
      // The condition only keeps a mistake from moving the nonce backwards past another transaction.
      storage.transactionSync(() => {
        write();
        storage.sql.exec(
          "UPDATE keeper_nonces SET next_nonce = ? WHERE chain_id = ? AND address = ? AND next_nonce = ?",
          nonce,
          chainId,
          address,
          nonce + 1,
        );
      });
    },
    keepFiller(address, filler, write) {
      storage.transactionSync(() => {
        write();
        storage.sql.exec(
          "INSERT OR REPLACE INTO keeper_fillers (chain_id, address, nonce, tx_hash, raw) VALUES (?, ?, ?, ?, ?)",
          chainId,
          address,
          filler.nonce,
          filler.hash,
          filler.raw,
        );
      });
    },
    fillers(address) {
      return storage.sql
        .exec<{ nonce: number; hash: string; raw: string }>(
          "SELECT nonce, tx_hash AS hash, raw FROM keeper_fillers WHERE chain_id = ? AND address = ? ORDER BY nonce",
          chainId,
          address,
        )
        .toArray();
    },
    dropFiller(address, nonce) {
      storage.sql.exec(
        "DELETE FROM keeper_fillers WHERE chain_id = ? AND address = ? AND nonce = ?",
        chainId,
        address,
        nonce,
      );
    },
  };
}
