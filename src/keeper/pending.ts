import type { FillCall, FillRequest } from "../chains/settler";

/**
 * Where a transaction the keeper signed stands:
 * - `signed`: written before its broadcast; the network has not confirmed it has it;
 * - `sent`: the network has it (D1 says `submitted`); waiting for its receipt;
 * - `mined`: its receipt showed the fill (D1 says `settled`); waiting for finality.
 * A transaction leaves the store when it is final, reverted, dropped, or refused.
 */
export type PendingState = "signed" | "sent" | "mined";

/** Everything the keeper needs to finish a submission after a restart, without the request that made it. */
export interface Submission {
  executionId: string;
  quoteId: string;
  request: FillRequest;
  call: FillCall;
  resolver: string | null;
  takerPays: string;
  proceeds: string;
  gasFeeToken: string;
  /** The corridor whose resolver socket hears about the fill; null if the pair is no longer served. */
  corridorKey: string | null;
  /** The Idempotency-Key, scoped to the taker, or null. */
  idempotencyKey: string | null;
  /** When the keeper accepted the submission (ISO 8601). */
  at: string;
}

export interface PendingTx {
  hash: string;
  chainId: number;
  keeper: string;
  nonce: number;
  raw: string;
  state: PendingState;
  block: number | null;
  submission: Submission;
}

interface PendingRow extends Record<string, SqlStorageValue> {
  tx_hash: string;
  chain_id: number;
  address: string;
  nonce: number;
  raw: string;
  state: PendingState;
  block: number | null;
  submission: string;
}

const toPending = (r: PendingRow): PendingTx => ({
  hash: r.tx_hash,
  chainId: r.chain_id,
  keeper: r.address,
  nonce: r.nonce,
  raw: r.raw,
  state: r.state,
  block: r.block,
  submission: JSON.parse(r.submission) as Submission,
});

/**
 * The keeper wallet's durable state in the object's SQLite: the next nonce per chain and keeper address,
 * and every transaction between signing and finality. Synchronous, so a write and the nonce it uses
 * land together.
 */
export class PendingStore {
  constructor(private readonly storage: DurableObjectStorage) {
    storage.sql.exec(`
      CREATE TABLE IF NOT EXISTS keeper_nonces (
        chain_id    INTEGER NOT NULL,
        address     TEXT NOT NULL,
        next_nonce  INTEGER NOT NULL,
        PRIMARY KEY (chain_id, address)
      );
      CREATE TABLE IF NOT EXISTS keeper_txs (
        tx_hash     TEXT PRIMARY KEY,
        quote_id    TEXT NOT NULL,
        chain_id    INTEGER NOT NULL,
        address     TEXT NOT NULL,
        nonce       INTEGER NOT NULL,
        raw         TEXT NOT NULL,
        state       TEXT NOT NULL CHECK (state IN ('signed', 'sent', 'mined')),
        block       INTEGER,
        submission  TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );
    `);
  }

  /** The nonce the keeper uses next on a chain, or null before its first transaction there. */
  nextNonce(chainId: number, keeper: string): number | null {
    const row = this.storage.sql
      .exec<{ next_nonce: number }>(
        "SELECT next_nonce FROM keeper_nonces WHERE chain_id = ? AND address = ?",
        chainId,
        keeper.toLowerCase(),
      )
      .toArray()[0];
    return row?.next_nonce ?? null;
  }

  /** Stores a signed transaction as `signed` and moves the chain's next nonce past it, in one transaction. */
  recordSigned(tx: Omit<PendingTx, "state" | "block">, now: number): void {
    this.storage.transactionSync(() => {
      this.storage.sql.exec(
        `INSERT INTO keeper_txs (tx_hash, quote_id, chain_id, address, nonce, raw, state, block, submission,
           created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'signed', NULL, ?, ?, ?)`,
        tx.hash,
        tx.submission.quoteId,
        tx.chainId,
        tx.keeper,
        tx.nonce,
        tx.raw,
        JSON.stringify(tx.submission),
        now,
        now,
      );
      this.storage.sql.exec(
        `INSERT INTO keeper_nonces (chain_id, address, next_nonce) VALUES (?1, ?2, ?3)
         ON CONFLICT (chain_id, address) DO UPDATE SET next_nonce = MAX(next_nonce, ?3)`,
        tx.chainId,
        tx.keeper.toLowerCase(),
        tx.nonce + 1,
      );
    });
  }

  /**
   * Forgets a transaction the network refused: it never left, so its nonce is free again. Nothing was
   * handed out after it, since the keeper signs nothing new while a transaction is unconfirmed; the
   * condition only keeps a mistake there from moving the nonce backwards past another transaction.
   */
  release(tx: PendingTx): void {
    this.storage.transactionSync(() => {
      this.storage.sql.exec("DELETE FROM keeper_txs WHERE tx_hash = ?", tx.hash);
      this.storage.sql.exec(
        "UPDATE keeper_nonces SET next_nonce = ? WHERE chain_id = ? AND address = ? AND next_nonce = ?",
        tx.nonce,
        tx.chainId,
        tx.keeper.toLowerCase(),
        tx.nonce + 1,
      );
    });
  }

  setState(hash: string, state: PendingState, block: number | null, now: number): void {
    this.storage.sql.exec(
      "UPDATE keeper_txs SET state = ?, block = ?, updated_at = ? WHERE tx_hash = ?",
      state,
      block,
      now,
      hash,
    );
  }

  remove(hash: string): void {
    this.storage.sql.exec("DELETE FROM keeper_txs WHERE tx_hash = ?", hash);
  }

  /** Every transaction still followed, oldest nonce first. */
  all(): PendingTx[] {
    return this.storage.sql
      .exec<PendingRow>("SELECT * FROM keeper_txs ORDER BY chain_id, nonce")
      .toArray()
      .map(toPending);
  }

  get(hash: string): PendingTx | null {
    const row = this.storage.sql.exec<PendingRow>("SELECT * FROM keeper_txs WHERE tx_hash = ?", hash).toArray()[0];
    return row ? toPending(row) : null;
  }

  /** The transaction followed for a quote, if any. */
  forQuote(quoteId: string): PendingTx | null {
    const row = this.storage.sql.exec<PendingRow>("SELECT * FROM keeper_txs WHERE quote_id = ?", quoteId).toArray()[0];
    return row ? toPending(row) : null;
  }

  count(): number {
    return this.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM keeper_txs").one().n;
  }
}
