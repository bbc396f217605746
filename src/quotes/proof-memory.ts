import { TAKER_PROOF_MAX_AGE_SECONDS } from "./messages";

/**
 * How much later than its timestamp's window a proof is still remembered: the Worker that checked the
 * timestamp and the corridor that remembers it read different clocks.
 */
const CLOCK_MARGIN_MS = 1_000;

/** A taker proof by what it proves: its signer and its signature in the one spelling the verifier accepts. */
export interface TakerProofSeen {
  /** The signer as the chain keys addresses (EVM: lower-case). */
  signer: string;
  /** The signature as the chain spells it once (`ChainAdapter.signatureKey`). */
  signature: string;
  /** The proof's timestamp (Unix seconds): it is accepted within TAKER_PROOF_MAX_AGE_SECONDS of it. */
  timestamp: number;
}

/** Until when a proof with this timestamp can be accepted anywhere (ms). */
export const proofAcceptedUntil = (timestamp: number) =>
  (timestamp + TAKER_PROOF_MAX_AGE_SECONDS) * 1000 + CLOCK_MARGIN_MS;

/**
 * Where a corridor remembers the taker proofs it accepted (docs/api.md, "Taker proof"): each until its
 * timestamp's window closes, so a proof dated ahead is remembered as long as it could be sent again, and
 * what is left is at most the proofs accepted in the longest window (twice TAKER_PROOF_MAX_AGE_SECONDS).
 */
export interface ProofBook {
  /** Whether `key` was not accepted before and is still remembered; it is remembered until `until` either way. */
  firstUse(key: string, until: number, now: number): boolean;
}

/** Whether `proof` was not accepted before in `book`; it is remembered as accepted either way. */
export const firstUseOf = (book: ProofBook, proof: TakerProofSeen, now: number) =>
  book.firstUse(`${proof.signer}|${proof.signature}`, proofAcceptedUntil(proof.timestamp), now);

/**
 * The corridor object's proofs, in its own SQLite storage: an evicted or restarted object still knows
 * them, so waiting for the corridor to fall idle does not make a proof new again.
 */
export class StoredProofBook implements ProofBook {
  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS taker_proofs (proof TEXT PRIMARY KEY, until INTEGER NOT NULL)");
    sql.exec("CREATE INDEX IF NOT EXISTS taker_proofs_until ON taker_proofs (until)");
  }

  firstUse(key: string, until: number, now: number): boolean {
    this.sql.exec("DELETE FROM taker_proofs WHERE until <= ?", now);
    const added = this.sql.exec(
      "INSERT INTO taker_proofs (proof, until) VALUES (?, ?) ON CONFLICT (proof) DO NOTHING RETURNING proof",
      key,
      until,
    );
    return added.toArray().length > 0;
  }
}

/**
 * Proofs in memory, for an admission without storage (unit tests): kept in acceptance order and swept
 * from the front, so every proof left was accepted within the longest window.
 */
export class MemoryProofBook implements ProofBook {
  private readonly until = new Map<string, number>();

  firstUse(key: string, until: number, now: number): boolean {
    for (const [seen, at] of this.until) {
      if (at > now) break;
      this.until.delete(seen);
    }
    const seenUntil = this.until.get(key);
    if (seenUntil !== undefined && seenUntil > now) return false;
    // Deleted first, so that it moves to the end: the order stays the order of acceptance.
    this.until.delete(key);
    this.until.set(key, until);
    return true;
  }
}
