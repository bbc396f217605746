import { type BroadcastResult, type ChainSettler, ChainUnavailableError } from "../chains";
import { RecordBatches, releaseClaim, submittedStatements } from "../db";
import { type Refusal, refuse } from "../errors";
import type { PickWallet, Prepared } from "./admission";
import { keeperLog } from "./keeper-log";
import { notLeader } from "./outcomes";
import { fillNotice, type PendingTx, signedFill } from "./pending";
import type { KeeperPort } from "./port";
import type { SubmitOutcome, SubmitTimings } from "./rpc";
import { rounded, timed, timedSync } from "./timings";
import { WalletPool } from "./wallet-pool";

/**
 * The keeper's wallets (docs/settlement.md, "The wallet pool" and "The fast path"): gives each
 * submission one wallet of its chain's pool, claims the quote, then, holding only that wallet's lock,
 * takes its next nonce, signs and keeps the transaction before anything is broadcast; it is broadcast
 * once the lock is free, and D1 hears of it once the answer has left. A refused transaction's nonce is
 * freed, or filled when a later one waits on it. Each wallet has its own nonce sequence, so the wallets
 * of a pool sign side by side, and a wallet's broadcasts overlap.
 */
export class Wallet {
  /**
   * Transactions whose broadcast is under way in this instance, or accepted and not yet recorded: the
   * indexer leaves them alone, and they do not hold their wallet back (`recovering`).
   */
  private readonly inFlight = new Set<string>();
  /**
   * Submissions answered whose D1 record has not run yet (`recordBehind`), by quote id, execution id and
   * transaction hash: the indexer leaves those transactions to it.
   */
  private readonly unrecorded = new Map<string, () => Promise<void>>();
  private readonly pool = new WalletPool();
  /** The D1 records of answered submissions, written a burst at a time. */
  private readonly records: RecordBatches;

  constructor(private readonly port: KeeperPort) {
    this.records = new RecordBatches();
  }

  /** A submission's wallet: the least busy of the chain's pool that is not recovering. */
  readonly pick: PickWallet = (settlers) => this.pool.pick(settlers, (s) => !this.recovering(s));

  /**
   * Signs and keeps the claimed quote's fill holding the wallet's lock, broadcasts it once the lock is
   * free for the next one, then records the answer in D1. The wallet is given back when this returns.
   */
  async send(prepared: Prepared): Promise<SubmitOutcome> {
    const { settler, submission, timings } = prepared;
    try {
      const waiting = performance.now();
      const tx = await this.pool.run(settler, () => {
        timings.lockMs += performance.now() - waiting;
        return this.sign(prepared);
      });
      if ("kind" in tx) {
        await releaseClaim(this.port.records(submission.quoteId), submission.quoteId);
        return tx;
      }
      const result = await timed(timings, "broadcastMs", () => settler.broadcast(signedFill(tx)));
      if (result.status === "refused") await this.release(settler, tx);
      return await this.answer(tx, result, timings);
    } finally {
      prepared.wallet.release();
    }
  }

  /**
   * A refused transaction is forgotten and its nonce freed, or filled when a later transaction of the
   * wallet waits on it (docs/settlement.md, "Nonce gaps"), holding the wallet's lock.
   */
  release(settler: ChainSettler, tx: PendingTx): Promise<void> {
    return this.pool.run(settler, () => settler.release(signedFill(tx), () => this.port.store.remove(tx.hash)));
  }

  /**
   * Signs the fill with the wallet's next nonce and stores it as `signed` before anything is broadcast.
   * Callers hold the wallet's lock.
   */
  private async sign(prepared: Prepared): Promise<PendingTx | Refusal> {
    const { settler, submission, timings } = prepared;
    if (this.recovering(settler)) return notLeader("recovering");
    const start = performance.now();
    const storedBefore = timings.storageMs;
    try {
      const signed = await settler.sign(submission.request, prepared.fill, (tx) => {
        timedSync(timings, "storageMs", () =>
          this.port.store.insertSigned(
            {
              hash: tx.hash,
              chainId: settler.chainId,
              keeper: settler.keeper,
              nonce: tx.nonce,
              raw: tx.raw,
              submission,
            },
            this.port.now(),
          ),
        );
        this.inFlight.add(tx.hash);
      });
      return {
        hash: signed.hash,
        chainId: settler.chainId,
        keeper: settler.keeper,
        nonce: signed.nonce,
        raw: signed.raw,
        state: "signed",
        block: null,
        submission,
        replaced: [],
        since: this.port.now(),
      };
    } catch (e) {
      if (!(e instanceof ChainUnavailableError)) throw e;
      return notLeader("rpc_unavailable");
    } finally {
      timings.signMs += performance.now() - start - (timings.storageMs - storedBefore);
    }
  }

  /**
   * What a broadcast means. Refused: forgotten already, the claim given up (503 `broadcast_failed`, nothing
   * moved; 503 `not_leader` when the keeper's own wallet cannot pay, which the taker signing again would
   * not fix). Accepted, or no answer (the keeper keeps it and the indexer gets it onto the chain): the
   * submission stands (202), and D1 hears of it once that answer has left (`recordBehind`).
   */
  private async answer(tx: PendingTx, result: BroadcastResult, timings: SubmitTimings): Promise<SubmitOutcome> {
    const { quoteId, executionId } = tx.submission;
    if (result.status === "refused") {
      this.inFlight.delete(tx.hash);
      await releaseClaim(this.port.records(quoteId), quoteId);
      keeperLog.error("broadcast_refused", { quoteId, txHash: tx.hash, reason: result.reason });
      // The keeper's own wallet cannot pay: signing again would not help the taker; the relay must refill.
      if (result.reason === "insufficient_funds") return notLeader("keeper_insufficient_funds");
      return refuse(
        503,
        "broadcast_failed",
        "The network refused the transaction; nothing moved. Submit again while the quote is open.",
        { reason: result.reason },
      );
    }
    if (result.status === "unreachable") {
      keeperLog.warn("broadcast_unconfirmed", { quoteId, txHash: tx.hash, reason: result.reason });
      // Its wallet takes no new submission until the indexer has found it (`recovering`).
      this.inFlight.delete(tx.hash);
    }
    await this.recordBehind(tx, async () => {
      // The indexer follows it from here, whatever D1 says; a crash before this finds it stored on wake.
      // The D1 record is queued before anything is awaited, so `writeThrough` can hurry it.
      // No answer: D1 says submitted, and the record stays `signed` until the indexer has found it.
      const recorded =
        result.status === "accepted"
          ? this.confirmSent(tx)
          : this.recordSubmitted(tx).then(
              () => this.port.quoteMoved(quoteId, null),
              (e: unknown) => keeperLog.error("d1_write_failed", { quoteId, error: String(e) }),
            );
      await Promise.all([recorded, this.port.armIndexer()]);
    });
    return { kind: "submitted", quoteId, executionId, txHash: tx.hash, timings: rounded(timings) };
  }

  /**
   * Hands `record` (D1's `submitted`, the indexer's alarm) to run once the submission's answer has left
   * (docs/settlement.md, "The fast path"). Until it has run, the indexer leaves the transaction alone, and
   * `writeThrough` of its quote or execution runs it at once.
   */
  private recordBehind(tx: PendingTx, record: () => Promise<void>): Promise<void> {
    const { quoteId, executionId } = tx.submission;
    const keys = [quoteId, executionId, tx.hash];
    let running: Promise<void> | null = null;
    const run = () => {
      running ??= record()
        .catch((e: unknown) => keeperLog.error("record_failed", { quoteId, txHash: tx.hash, error: String(e) }))
        .finally(() => {
          this.inFlight.delete(tx.hash);
          for (const key of keys) this.unrecorded.delete(key);
        });
      return running;
    };
    for (const key of keys) this.unrecorded.set(key, run);
    return this.port.afterAnswer(run);
  }

  /** Whether the indexer leaves `hash` alone: its broadcast or its record is under way here. */
  busy(hash: string): boolean {
    return this.inFlight.has(hash) || this.unrecorded.has(hash);
  }

  /**
   * A reader found no sign in D1 of a submission answered a moment ago (`id` is its quote's or its
   * execution's): what was answered is written now. Whether there was such a record, once D1 has it.
   */
  async writeThrough(id: string): Promise<boolean> {
    const record = this.unrecorded.get(id);
    if (!record) return false;
    const recorded = record();
    await this.records.flush();
    await recorded;
    return true;
  }

  /** D1's `submitted` for the transaction, queued now and written with the records beside it. */
  private recordSubmitted(tx: PendingTx): Promise<void> {
    const sent = { txHash: tx.hash, submitter: tx.keeper };
    const db = this.port.records(tx.submission.quoteId);
    return this.records.write(db, submittedStatements(db, tx.submission, sent));
  }

  /** The network has the transaction: D1 says submitted, then the store says sent. */
  async confirmSent(tx: PendingTx): Promise<void> {
    try {
      await this.recordSubmitted(tx);
    } catch (e) {
      // The transaction is out; the indexer records it on its next pass.
      keeperLog.error("d1_write_failed", { quoteId: tx.submission.quoteId, error: String(e) });
      return;
    }
    this.port.store.setState(tx.hash, "sent", null, this.port.now());
    this.port.quoteMoved(tx.submission.quoteId, fillNotice(tx, "submitted"));
  }

  /**
   * Whether a wallet has a transaction recorded whose broadcast is neither under way nor confirmed, or a
   * nonce filler that has not got through (docs/settlement.md, "Nonce gaps"): it takes no new submission
   * until the indexer has settled that, so no nonce is handed out behind a transaction that might still
   * be refused, nor behind a gap.
   */
  private recovering(settler: ChainSettler): boolean {
    if (settler.gapOpen()) return true;
    return this.port.store
      .unconfirmed(settler.chainId)
      .some((tx) => tx.keeper === settler.keeper && !this.inFlight.has(tx.hash));
  }
}
