import type { FillCall, FillRequest, NonceStore, SignedFill } from "../chains";
import type { ExecutionTerms } from "../db";
import { type FillNotice, relayFault } from "./fill-notice";
import { createNonceTables, sqlNonceStore } from "./nonce-store";

/**
 * Where a transaction the keeper signed stands:
 * - `signed`: written before its broadcast; the network has not confirmed it has it;
 * - `sent`: the network has it (D1 says `submitted`); waiting for its receipt;
 * - `mined`: its receipt showed the fill (D1 says `settled`); waiting for finality.
 * A transaction leaves the store when it is final, reverted, dropped, or refused.
 */
export type PendingState = "signed" | "sent" | "mined";

/** Everything the keeper needs to finish a submission after a restart, without the request that made it. */
export interface Submission extends ExecutionTerms {
  request: FillRequest;
  call: FillCall;
  gasFeeToken: string;
  /** The corridor whose resolver socket hears about the fill; null if the pair is no longer served. */
  corridorKey: string | null;
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
  /** Earlier transactions of the same nonce this one replaced at a higher fee, oldest first. */
  replaced: { hash: string; raw: string }[];
  /** When it was last signed, sent or moved (epoch ms): a `sent` one waits for its receipt since then. */
  since: number;
}

/** The transactions the keeper follows, from signing to finality. Synchronous, like the object's SQLite. */
export interface TxStore {
  /** Stores a signed transaction as `signed` (inside the settler's nonce transaction). */
  insertSigned(tx: Omit<PendingTx, "state" | "block" | "replaced" | "since">, now: number): void;
  setState(hash: string, state: PendingState, block: number | null, now: number): void;
  /** The transaction `hash` was replaced by `by` (same nonce, higher fee): followed as `by`, sent, from `now`. */
  replace(hash: string, by: { hash: string; raw: string }, now: number): void;
  /** One of the transactions `hash` replaced landed instead: followed as that one from now on. */
  landedAs(hash: string, landed: { hash: string; raw: string }): void;
  remove(hash: string): void;
  /** Every transaction still followed, by chain, oldest nonce first. */
  all(): PendingTx[];
  /** The wallets and hashes of a chain's transactions still `signed`, without reading the rest of them. */
  unconfirmed(chainId: number): { keeper: string; hash: string }[];
  get(hash: string): PendingTx | null;
  /** The transaction followed for a quote, if any. */
  forQuote(quoteId: string): PendingTx | null;
  count(): number;
}

/** What the settler needs of a followed transaction to broadcast it again and read its fate. */
export const signedFill = (tx: PendingTx): SignedFill => ({
  hash: tx.hash,
  raw: tx.raw,
  nonce: tx.nonce,
  call: tx.submission.call,
  request: tx.submission.request,
});

/** The winning resolver's notice of a followed transaction's step; null when there is nobody to tell. */
export function fillNotice(tx: PendingTx, status: FillNotice["status"], reason?: string): FillNotice | null {
  const { corridorKey, resolver } = tx.submission;
  if (!corridorKey || !resolver) return null;
  return { corridorKey, resolver, status, txHash: tx.hash, ...(reason === undefined ? {} : relayFault(reason)) };
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
  replaced: string;
  updated_at: number;
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
  replaced: JSON.parse(r.replaced) as PendingTx["replaced"],
  since: r.updated_at,
});

/**
 * The keeper wallets' durable state in the object's SQLite: every transaction between signing and
 * finality (each with the address of the wallet that signed it); the nonce tables beside them
 * (src/keeper/nonce-store.ts) are handed to each chain's settlers through `nonces(chainId)`.
 */
export class SqlTxStore implements TxStore {
  constructor(private readonly storage: DurableObjectStorage) {
    storage.sql.exec(`
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
      CREATE INDEX IF NOT EXISTS keeper_txs_quote ON keeper_txs (quote_id);
      CREATE INDEX IF NOT EXISTS keeper_txs_state ON keeper_txs (chain_id, state);
    `);
    createNonceTables(storage.sql);
    // Added with fee bumping: the hashes a transaction replaced (docs/settlement.md, "Stuck transactions").
    const columns = storage.sql.exec<{ name: string }>("PRAGMA table_info(keeper_txs)").toArray();
    if (!columns.some((c) => c.name === "replaced")) {
      storage.sql.exec("ALTER TABLE keeper_txs ADD COLUMN replaced TEXT NOT NULL DEFAULT '[]'");
    }
  }

  insertSigned(tx: Omit<PendingTx, "state" | "block">, now: number): void {
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

  replace(hash: string, by: { hash: string; raw: string }, now: number): void {
    this.storage.sql.exec(
      `UPDATE keeper_txs SET tx_hash = ?2, raw = ?3, state = 'sent', updated_at = ?4,
         replaced = json_insert(replaced, '$[#]', json_object('hash', tx_hash, 'raw', raw))
       WHERE tx_hash = ?1`,
      hash,
      by.hash,
      by.raw,
      now,
    );
  }

  landedAs(hash: string, landed: { hash: string; raw: string }): void {
    this.storage.sql.exec(
      "UPDATE keeper_txs SET tx_hash = ?2, raw = ?3 WHERE tx_hash = ?1",
      hash,
      landed.hash,
      landed.raw,
    );
  }

  remove(hash: string): void {
    this.storage.sql.exec("DELETE FROM keeper_txs WHERE tx_hash = ?", hash);
  }

  all(): PendingTx[] {
    return this.storage.sql
      .exec<PendingRow>("SELECT * FROM keeper_txs ORDER BY chain_id, nonce")
      .toArray()
      .map(toPending);
  }

  unconfirmed(chainId: number): { keeper: string; hash: string }[] {
    return this.storage.sql
      .exec<{ keeper: string; hash: string }>(
        "SELECT address AS keeper, tx_hash AS hash FROM keeper_txs WHERE chain_id = ? AND state = 'signed'",
        chainId,
      )
      .toArray();
  }

  get(hash: string): PendingTx | null {
    const row = this.storage.sql.exec<PendingRow>("SELECT * FROM keeper_txs WHERE tx_hash = ?", hash).toArray()[0];
    return row ? toPending(row) : null;
  }

  forQuote(quoteId: string): PendingTx | null {
    const row = this.storage.sql.exec<PendingRow>("SELECT * FROM keeper_txs WHERE quote_id = ?", quoteId).toArray()[0];
    return row ? toPending(row) : null;
  }

  count(): number {
    return this.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM keeper_txs").one().n;
  }

  /** The nonce sequence of each keeper address on one chain, for that chain's settler. */
  nonces(chainId: number): NonceStore {
    return sqlNonceStore(this.storage, chainId);
  }
}
