import { ChainUnavailableError } from "../chains/settler";
import { readQuoteRow } from "../db/quotes";
import { claimOpenQuote, releaseClaim, writeSubmitted } from "../db/settlement-steps";
import { type Refusal, refuse } from "../errors";
import type { Prepared } from "./admission";
import type { ExecutionUpdate, SubmitOutcome } from "./contract";
import { notLeader, quoteExpired } from "./outcomes";
import { type PendingTx, signedFill } from "./pending";
import { iso, type KeeperPort, log, settlingChain } from "./port";

/**
 * The keeper wallet: signs a prepared fill with the chain's next nonce (the settler's), keeps it before
 * anything is broadcast, broadcasts it, and frees the nonce of a transaction the network refused. Callers
 * hold the chain's wallet lock, so one chain's transactions are signed and broadcast one at a time.
 */
export class Wallet {
  /** Transactions whose broadcast is under way in this instance; the indexer leaves them alone. */
  readonly inFlight = new Set<string>();

  constructor(private readonly port: KeeperPort) {}

  /** Signs the fill and stores it as `signed` before anything is broadcast. */
  async record(prepared: Prepared): Promise<PendingTx | Refusal> {
    const { settler, submission } = prepared;
    const { db, store } = this.port;
    if (this.recovering(settler.chainId)) return notLeader("recovering");
    // The quote must still be open at the last moment before the keeper commits to it.
    const now = iso(this.port.now());
    if (!(await claimOpenQuote(db, submission.quoteId, now))) {
      const quote = await readQuoteRow(db, submission.quoteId);
      if (!quote || quote.status === "expired" || quote.expiresAt <= now) return quoteExpired();
      return refuse(409, "quote_not_open", `The quote is ${quote.status}.`, { status: quote.status });
    }
    let recorded: PendingTx;
    try {
      const signed = await settler.sign(submission.request, prepared.fill, (tx) => {
        store.insertSigned(
          { hash: tx.hash, chainId: settler.chainId, keeper: settler.keeper, nonce: tx.nonce, raw: tx.raw, submission },
          this.port.now(),
        );
        this.inFlight.add(tx.hash);
      });
      recorded = {
        hash: signed.hash,
        chainId: settler.chainId,
        keeper: settler.keeper,
        nonce: signed.nonce,
        raw: signed.raw,
        state: "signed",
        block: null,
        submission,
      };
    } catch (e) {
      if (!(e instanceof ChainUnavailableError)) throw e;
      await releaseClaim(db, submission.quoteId);
      return notLeader("rpc_unavailable");
    }
    await this.port.armIndexer();
    return recorded;
  }

  /**
   * Broadcasts a recorded transaction. Refused: it is forgotten and its nonce freed (503
   * `broadcast_failed`, nothing moved). No answer: the keeper keeps it and the indexer gets it onto the
   * chain, so the submission stands (202).
   */
  async broadcast(tx: PendingTx): Promise<SubmitOutcome> {
    const settler = settlingChain(this.port, tx.chainId)?.settler;
    const { quoteId, executionId } = tx.submission;
    const submitted: SubmitOutcome = { kind: "submitted", quoteId, executionId, txHash: tx.hash };
    if (!settler) return notLeader("keeper_not_configured");
    this.inFlight.add(tx.hash);
    try {
      const result = await settler.broadcast(signedFill(tx));
      if (result.status === "refused") {
        settler.release(signedFill(tx), () => this.port.store.remove(tx.hash));
        await releaseClaim(this.port.db, quoteId);
        log("broadcast_refused", { quoteId, txHash: tx.hash, reason: result.reason });
        return refuse(
          503,
          "broadcast_failed",
          "The network refused the transaction; nothing moved. Submit again while the quote is open.",
          { reason: result.reason },
        );
      }
      if (result.status === "unreachable") {
        log("broadcast_unconfirmed", { quoteId, txHash: tx.hash, reason: result.reason });
        await writeSubmitted(this.port.db, tx.submission, { txHash: tx.hash, submitter: tx.keeper }).catch(
          (e: unknown) => log("d1_write_failed", { quoteId, error: String(e) }),
        );
        return submitted;
      }
      await this.confirmSent(tx);
      return submitted;
    } finally {
      this.inFlight.delete(tx.hash);
    }
  }

  /** The network has the transaction: D1 says submitted, then the store says sent. */
  async confirmSent(tx: PendingTx): Promise<void> {
    try {
      await writeSubmitted(this.port.db, tx.submission, { txHash: tx.hash, submitter: tx.keeper });
    } catch (e) {
      // The transaction is out; the indexer records it on its next pass.
      log("d1_write_failed", { quoteId: tx.submission.quoteId, error: String(e) });
      return;
    }
    this.port.store.setState(tx.hash, "sent", null, this.port.now());
    this.notify(tx, "submitted");
  }

  /** Tells the winning resolver how its fill is going. */
  notify(tx: PendingTx, status: ExecutionUpdate["status"]): void {
    const { corridorKey, resolver, quoteId } = tx.submission;
    if (corridorKey && resolver) this.port.notify(corridorKey, resolver, { quoteId, status, txHash: tx.hash });
  }

  /** Whether a transaction on the chain was recorded but its broadcast is neither under way nor confirmed. */
  recovering(chainId: number): boolean {
    return this.port.store
      .all()
      .some((tx) => tx.chainId === chainId && tx.state === "signed" && !this.inFlight.has(tx.hash));
  }
}
