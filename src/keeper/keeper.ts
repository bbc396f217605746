import { isTakerReason } from "../chains/evm/revert-reasons";
import {
  type ChainSettler,
  ChainUnavailableError,
  type Erc2612Permit,
  type FillRequest,
  type TxReceipt,
} from "../chains/settler";
import type { ChainConfig, EvmChain, RelayConfig } from "../config/schema";
import { findCorridor } from "../corridors";
import { expireIfDue } from "../db/quote-status";
import { type QuoteRow, readQuoteRow } from "../db/quotes";
import {
  countSettled,
  countSubmitted,
  type ExecutionTerms,
  executionForKey,
  fillStatements,
  finishExecution,
  idempotencyKeyStatement,
  insertExecutionOnce,
  pruneIdempotencyKeys,
  quoteStepStatements,
} from "../db/settlement";
import { type Refusal, refuse } from "../errors";
import { newId } from "../ids";
import { OPEN_SQL } from "../quotes/states";
import { KeyedLocks } from "./locks";
import { notLeader, type SubmitOutcome } from "./outcomes";
import type { PendingStore, PendingTx, Submission } from "./pending";
import { takerReadiness } from "./readiness";
import { isFinal, settledFill } from "./settlement-record";

/** How often the idempotency keys past their retention are deleted, at most. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** A submission as the Worker hands it over, validated. */
export interface SubmitRequest {
  quoteId: string;
  signature: string;
  permit: Erc2612Permit | null;
  idempotencyKey: string | null;
}

export type ExecutionUpdate = { quoteId: string; status: "submitted" | "settled" | "failed"; txHash: string | null };

/** What the keeper needs from its Durable Object. */
export interface KeeperPort {
  config(): RelayConfig;
  db: D1Database;
  store: PendingStore;
  /** The chain's settler; `no_key` without a keeper key, `not_settled` for a chain the keeper does not settle. */
  settler(chain: ChainConfig): ChainSettler | "no_key" | "not_settled";
  /** Makes sure the indexer runs within a second. */
  armIndexer(): Promise<void>;
  /** Tells the winning resolver, if connected to the corridor, how its fill is going. */
  notify(corridorKey: string, resolver: string, update: ExecutionUpdate): void;
  now(): number;
}

/** A submission that passed every check and its simulation: ready to be signed and broadcast. */
export interface Prepared {
  kind: "prepared";
  chain: EvmChain;
  settler: ChainSettler;
  gas: bigint;
  submission: Submission;
}

const log = (event: string, detail: Record<string, unknown>) =>
  console.error(JSON.stringify({ keeper: event, ...detail }));

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The keeper leader (DESIGN §6): checks and simulates each submission, signs and broadcasts it from the
 * keeper wallet, and follows every transaction to its receipt and finality. Submissions for one quote or
 * one Idempotency-Key run one at a time, and so does each chain's wallet (one nonce sequence); the rest
 * runs concurrently. A transaction is written to the object's storage before it is broadcast, so a
 * restart re-broadcasts the same transaction or finds it on chain (`index`), never a second one.
 */
export class Keeper {
  private readonly locks = new KeyedLocks();
  /** Transactions whose broadcast is under way in this instance; the indexer leaves them alone. */
  private readonly inFlight = new Set<string>();
  private indexing: Promise<boolean> | null = null;
  private lastPrune = 0;

  constructor(private readonly port: KeeperPort) {}

  submit(req: SubmitRequest): Promise<SubmitOutcome> {
    const keys = [`quote:${req.quoteId}`, ...(req.idempotencyKey ? [`key:${req.idempotencyKey}`] : [])];
    return this.locks.run(keys, async () => {
      const prepared = await this.admit(req);
      if (prepared.kind !== "prepared") return prepared;
      return this.locks.run([`wallet:${prepared.chain.chainId}`], async () => {
        const pending = await this.record(prepared);
        return "kind" in pending ? pending : this.broadcast(pending);
      });
    });
  }

  /**
   * Every check of a submission, in the order of docs/settlement.md, then its simulation. A duplicate, a
   * refusal or a requote is answered (and a requote recorded) here; a submission that passes is returned
   * ready for `record`.
   */
  async admit(req: SubmitRequest): Promise<Prepared | SubmitOutcome> {
    const { db, store } = this.port;
    const now = iso(this.port.now());
    const quote = await readQuoteRow(db, req.quoteId);
    if (!quote) return refuse(404, "quote_not_found", `No quote has the id ${JSON.stringify(req.quoteId)}.`);
    const idempotencyKey = req.idempotencyKey ? `${quote.taker.toLowerCase()}:${req.idempotencyKey}` : null;
    if (idempotencyKey) {
      const first = await executionForKey(db, idempotencyKey, now);
      if (first) {
        const { executionId, quoteId, status, txHash, reason } = first;
        return { kind: "duplicate", quoteId, executionId, status, txHash, reason };
      }
    }
    const chain = this.port.config().chains.find((c) => c.chainId === quote.chainId);
    const settler = chain ? this.port.settler(chain) : "not_settled";
    if (chain?.kind !== "evm" || settler === "not_settled") {
      return refuse(409, "wrong_chain", `The keeper does not settle quotes on chain ${quote.chainId}.`);
    }
    if (quote.status === "expired") return refuse(409, "quote_expired", "The quote has expired; ask for a new one.");
    if (quote.status !== "quoted" && quote.status !== "signed") {
      return refuse(409, "quote_not_open", `The quote is ${quote.status}.`, { status: quote.status });
    }
    // Open in D1 but followed by the keeper: broadcast, and D1 not written yet (the indexer will).
    if (store.forQuote(quote.quoteId)) {
      return refuse(409, "quote_not_open", "A fill of this quote is already on its way.", { status: "submitted" });
    }
    if (quote.expiresAt <= now) {
      await expireIfDue(db, quote.quoteId, now);
      return refuse(409, "quote_expired", "The quote has expired; ask for a new one.");
    }
    if (settler === "no_key") return notLeader("keeper_not_configured");
    if (this.recovering(chain.chainId)) return notLeader("recovering");
    const request: FillRequest = {
      quoteId: quote.quoteId,
      taker: quote.taker,
      sellToken: quote.sellToken,
      takerPays: quote.takerPays,
      signing: quote.signing,
      signature: req.signature,
      permit: req.permit,
    };
    if (!(await settler.verifyTakerSignature(request))) {
      return refuse(400, "bad_signature", "The signature is not the taker's over the quote's typedData.");
    }
    await db.batch(quoteStepStatements(db, quote.quoteId, "signed", now, null));
    const terms: ExecutionTerms = {
      executionId: newId("x"),
      quoteId: quote.quoteId,
      resolver: quote.resolver?.address ?? null,
      proceeds: quote.proceeds,
      takerPays: quote.takerPays,
    };
    try {
      const funds = await settler.takerFunds(request);
      const symbol = chain.tokens.find((t) => t.address.toLowerCase() === quote.sellToken.toLowerCase())?.symbol;
      const readiness = takerReadiness({
        funds,
        takerPays: BigInt(quote.takerPays),
        permit: req.permit,
        now: Math.floor(this.port.now() / 1000),
        token: symbol ?? quote.sellToken,
      });
      if (!readiness.ready) {
        return refuse(400, "taker_not_ready", "The taker's side cannot be pulled yet.", {
          reason: readiness.reason,
          detail: readiness.detail,
        });
      }
      const call = settler.fillCall(request);
      const simulation = await settler.simulate(call, request);
      if (!simulation.ok) {
        if (simulation.kind === "bad_signature") {
          return refuse(400, "bad_signature", "The settlement contracts refuse the taker's signature.");
        }
        if (simulation.kind === "keeper_refused") return notLeader(simulation.reason);
        return this.requote(quote, terms, simulation.reason, idempotencyKey);
      }
      const corridor = findCorridor(this.port.config(), chain.chainId, quote.sellToken, quote.buyToken);
      return {
        kind: "prepared",
        chain,
        settler,
        gas: simulation.gas,
        submission: {
          ...terms,
          request,
          call,
          gasFeeToken: quote.gasFee.token,
          corridorKey: corridor?.key ?? null,
          idempotencyKey,
          at: now,
        },
      };
    } catch (e) {
      if (!(e instanceof ChainUnavailableError)) throw e;
      log("rpc_unavailable", { chainId: chain.chainId, error: e.message });
      return notLeader("rpc_unavailable");
    }
  }

  /**
   * Signs the fill with the chain's next nonce and stores it as `signed` before anything is broadcast.
   * Callers hold the chain's wallet lock (`submit` does).
   */
  async record(prepared: Prepared): Promise<PendingTx | Refusal> {
    const { chain, settler, submission } = prepared;
    const { db, store } = this.port;
    if (this.recovering(chain.chainId)) return notLeader("recovering");
    // The quote must still be open at the last moment before the keeper commits to it.
    const now = iso(this.port.now());
    const claimed = await db
      .prepare(`UPDATE quotes SET updated_at = ?2 WHERE quote_id = ?1 AND status IN (${OPEN_SQL}) AND expires_at > ?2`)
      .bind(submission.quoteId, now)
      .run();
    if (claimed.meta.changes === 0) {
      const quote = await readQuoteRow(db, submission.quoteId);
      if (!quote || quote.status === "expired" || quote.expiresAt <= now) {
        return refuse(409, "quote_expired", "The quote has expired; ask for a new one.");
      }
      return refuse(409, "quote_not_open", `The quote is ${quote.status}.`, { status: quote.status });
    }
    let account: Awaited<ReturnType<ChainSettler["accountState"]>>;
    try {
      account = await settler.accountState();
    } catch (e) {
      if (!(e instanceof ChainUnavailableError)) throw e;
      return notLeader("rpc_unavailable");
    }
    // The chain's pending count is the truth once every transaction of the keeper is mined; while some
    // are not, the stored nonce also covers an RPC node that has not seen them yet.
    const unmined = store.all().some((tx) => tx.chainId === chain.chainId && tx.state !== "mined");
    const stored = store.nextNonce(chain.chainId, settler.keeper) ?? 0;
    const nonce = unmined ? Math.max(stored, account.pendingNonce) : account.pendingNonce;
    const signed = await settler.sign(submission.call, prepared.gas, nonce, account.pricing);
    const tx = {
      hash: signed.hash,
      chainId: chain.chainId,
      keeper: settler.keeper,
      nonce,
      raw: signed.raw,
      submission,
    };
    store.recordSigned(tx, this.port.now());
    this.inFlight.add(tx.hash);
    await this.port.armIndexer();
    return { ...tx, state: "signed", block: null };
  }

  /**
   * Broadcasts a recorded transaction. Refused: it is forgotten and its nonce freed (503
   * `broadcast_failed`, nothing moved). No answer: the keeper keeps it and the indexer gets it onto the
   * chain, so the submission stands (202).
   */
  async broadcast(tx: PendingTx): Promise<SubmitOutcome> {
    const settler = this.settlerOf(tx.chainId);
    const { quoteId, executionId } = tx.submission;
    const submitted: SubmitOutcome = { kind: "submitted", quoteId, executionId, txHash: tx.hash };
    if (!settler) return notLeader("keeper_not_configured");
    this.inFlight.add(tx.hash);
    try {
      const result = await settler.broadcast(tx);
      if (result.status === "refused") {
        this.port.store.release(tx);
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
        await this.writeSubmitted(tx).catch((e: unknown) => log("d1_write_failed", { quoteId, error: String(e) }));
        return submitted;
      }
      await this.confirmSent(tx);
      return submitted;
    } finally {
      this.inFlight.delete(tx.hash);
    }
  }

  /** The transactions followed now, for operators and tests: no raw bytes, no request. */
  pendingView() {
    return this.port.store.all().map((tx) => ({
      hash: tx.hash,
      chainId: tx.chainId,
      nonce: tx.nonce,
      state: tx.state,
      block: tx.block,
      quoteId: tx.submission.quoteId,
      executionId: tx.submission.executionId,
      inFlight: this.inFlight.has(tx.hash),
    }));
  }

  /**
   * One indexer pass (the object's alarm): recovers transactions whose broadcast was not confirmed,
   * reads receipts, records settlements, failures and finality. Idempotent; returns whether anything is
   * still followed, so the alarm comes back.
   */
  index(): Promise<boolean> {
    this.indexing ??= this.runIndex().finally(() => {
      this.indexing = null;
    });
    return this.indexing;
  }

  private async runIndex(): Promise<boolean> {
    const { store } = this.port;
    const byChain = new Map<number, PendingTx[]>();
    for (const tx of store.all()) {
      if (this.inFlight.has(tx.hash)) continue;
      byChain.set(tx.chainId, [...(byChain.get(tx.chainId) ?? []), tx]);
    }
    for (const [chainId, txs] of byChain) {
      const chain = this.port.config().chains.find((c): c is EvmChain => c.chainId === chainId && c.kind === "evm");
      const settler = this.settlerOf(chainId);
      if (!chain || !settler) {
        log("chain_unavailable", { chainId, pending: txs.length });
        continue;
      }
      try {
        const latest = await settler.blockNumber();
        for (const tx of txs) {
          await this.follow(chain, settler, tx, latest).catch((e: unknown) => {
            if (e instanceof ChainUnavailableError) throw e;
            log("follow_failed", { quoteId: tx.submission.quoteId, txHash: tx.hash, error: String(e) });
          });
        }
      } catch (e) {
        if (!(e instanceof ChainUnavailableError)) throw e;
        log("rpc_unavailable", { chainId, error: e.message });
      }
    }
    await this.pruneKeys();
    return store.count() > 0;
  }

  private async follow(chain: EvmChain, settler: ChainSettler, tx: PendingTx, latest: number): Promise<void> {
    let current: PendingTx | null = tx;
    if (current.state === "signed") {
      if (!(await this.recover(settler, current))) return;
      current = this.port.store.get(tx.hash);
    }
    if (current?.state === "sent") {
      const receipt = await settler.receipt(current.hash);
      if (!receipt) return this.unmined(settler, current);
      if (receipt.status === "reverted") {
        const reason = await settler.revertReason(current.submission.call, receipt.block, current.submission.request);
        return this.fail(current, reason ?? "reverted", receipt.gasUsed.toString());
      }
      if (!(await this.settle(current, receipt))) return;
      current = this.port.store.get(tx.hash);
      latest = Math.max(latest, receipt.block);
    }
    if (
      current?.state === "mined" &&
      current.block !== null &&
      isFinal(current.block, latest, chain.finalityConfirmations)
    ) {
      await this.finalise(current);
    }
  }

  /** A transaction recorded but not confirmed as broadcast: found on chain, or broadcast again (the same one). */
  private async recover(settler: ChainSettler, tx: PendingTx): Promise<boolean> {
    if ((await settler.presence(tx.hash)) === "unknown") {
      const result = await settler.broadcast(tx);
      if (result.status === "unreachable") return false;
      if (result.status === "refused") {
        log("recovered_broadcast_refused", { quoteId: tx.submission.quoteId, txHash: tx.hash, reason: result.reason });
        await this.fail(tx, `dropped:${result.reason}`, null);
        this.port.store.release(tx);
        return false;
      }
    }
    await this.confirmSent(tx);
    return this.port.store.get(tx.hash)?.state === "sent";
  }

  /** No receipt yet: still in the mempool, dropped (its nonce used by another transaction), or sent again. */
  private async unmined(settler: ChainSettler, tx: PendingTx): Promise<void> {
    if ((await settler.presence(tx.hash)) === "known") return;
    const { minedNonce } = await settler.accountState();
    if (minedNonce > tx.nonce) return this.fail(tx, "dropped", null);
    const result = await settler.broadcast(tx);
    if (result.status === "refused" || result.status === "unreachable") {
      log("rebroadcast_failed", { quoteId: tx.submission.quoteId, txHash: tx.hash, reason: result.reason });
    }
  }

  /** The network has the transaction: D1 says submitted, then the store says sent. */
  private async confirmSent(tx: PendingTx): Promise<void> {
    try {
      await this.writeSubmitted(tx);
    } catch (e) {
      // The transaction is out; the indexer records it on its next pass.
      log("d1_write_failed", { quoteId: tx.submission.quoteId, error: String(e) });
      return;
    }
    this.port.store.setState(tx.hash, "sent", null, this.port.now());
    this.notify(tx, "submitted");
  }

  private async writeSubmitted(tx: PendingTx): Promise<void> {
    const { db } = this.port;
    const s = tx.submission;
    const at = s.at;
    await db.batch([
      ...(s.resolver ? [countSubmitted(db, s.resolver, s.executionId, at)] : []),
      insertExecutionOnce(db, s, "submitted", { reason: null, txHash: tx.hash, submitter: tx.keeper }, at),
      ...(s.idempotencyKey ? [idempotencyKeyStatement(db, s.idempotencyKey, s.executionId, at)] : []),
      ...quoteStepStatements(db, s.quoteId, "submitted", at, { txHash: tx.hash }),
    ]);
  }

  private async requote(
    quote: QuoteRow,
    terms: ExecutionTerms,
    reason: string,
    idempotencyKey: string | null,
  ): Promise<SubmitOutcome> {
    const { db } = this.port;
    const at = iso(this.port.now());
    const step = isTakerReason(reason) ? "takerRequote" : "requote";
    await db.batch([
      insertExecutionOnce(db, terms, "requote", { reason, txHash: null, submitter: null }, at),
      ...(idempotencyKey ? [idempotencyKeyStatement(db, idempotencyKey, terms.executionId, at)] : []),
      ...quoteStepStatements(db, quote.quoteId, step, at, { reason, executionId: terms.executionId }),
    ]);
    const corridor = findCorridor(this.port.config(), quote.chainId, quote.sellToken, quote.buyToken);
    if (step === "requote" && corridor && quote.resolver) {
      this.port.notify(corridor.key, quote.resolver.address, {
        quoteId: quote.quoteId,
        status: "failed",
        txHash: null,
      });
    }
    return { kind: "requote", quoteId: quote.quoteId, executionId: terms.executionId, reason };
  }

  private async settle(tx: PendingTx, receipt: TxReceipt): Promise<boolean> {
    const { db } = this.port;
    const s = tx.submission;
    const fill = settledFill(receipt, { quoteId: s.quoteId, gasFeeToken: s.gasFeeToken });
    if (!fill) {
      await this.fail(tx, "no_fill_event", receipt.gasUsed.toString());
      return false;
    }
    const at = iso(this.port.now());
    await db.batch([
      ...(s.resolver ? [countSettled(db, s.resolver, s.executionId, at)] : []),
      finishExecution(
        db,
        s.executionId,
        "settled",
        { reason: null, gasUsed: receipt.gasUsed.toString(), proceeds: fill.proceeds, takerPays: fill.takerPays },
        at,
      ),
      ...fillStatements(db, s.quoteId, tx.hash, fill.fills),
      ...quoteStepStatements(db, s.quoteId, "settled", at, { block: receipt.block }, fill.settlement),
    ]);
    this.port.store.setState(tx.hash, "mined", receipt.block, this.port.now());
    this.notify(tx, "settled");
    return true;
  }

  private async fail(tx: PendingTx, reason: string, gasUsed: string | null): Promise<void> {
    const { db } = this.port;
    const s = tx.submission;
    const at = iso(this.port.now());
    const [execution] = await db.batch([
      finishExecution(db, s.executionId, "failed", { reason, gasUsed }, at),
      ...quoteStepStatements(db, s.quoteId, "failed", at, { reason, txHash: tx.hash }),
    ]);
    this.port.store.remove(tx.hash);
    // A transaction lost before its broadcast was ever confirmed has no execution to fail: nobody to tell.
    if ((execution?.meta.changes ?? 0) > 0) this.notify(tx, "failed");
  }

  private async finalise(tx: PendingTx): Promise<void> {
    const { db } = this.port;
    await db.batch(quoteStepStatements(db, tx.submission.quoteId, "final", iso(this.port.now()), null));
    this.port.store.remove(tx.hash);
  }

  private notify(tx: PendingTx, status: ExecutionUpdate["status"]): void {
    const { corridorKey, resolver, quoteId } = tx.submission;
    if (corridorKey && resolver) this.port.notify(corridorKey, resolver, { quoteId, status, txHash: tx.hash });
  }

  /** Whether a transaction on the chain was recorded but its broadcast is neither under way nor confirmed. */
  private recovering(chainId: number): boolean {
    return this.port.store
      .all()
      .some((tx) => tx.chainId === chainId && tx.state === "signed" && !this.inFlight.has(tx.hash));
  }

  private settlerOf(chainId: number): ChainSettler | null {
    const chain = this.port.config().chains.find((c) => c.chainId === chainId);
    const settler = chain ? this.port.settler(chain) : "not_settled";
    return typeof settler === "string" ? null : settler;
  }

  private async pruneKeys(): Promise<void> {
    const now = this.port.now();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await pruneIdempotencyKeys(this.port.db, iso(now)).catch((e: unknown) => log("prune_failed", { error: String(e) }));
  }
}
