import { expireAllDue, pruneIdempotencyKeys, pruneLevelSamples, pruneWrittenBehind } from "../db";
import { type Refusal, refuse } from "../errors";
import { LEVELS_WINDOW_MS } from "../levels";
import { perPeriod, type Spent, TokenBuckets } from "../limits";
import { log as relayLog } from "../log";
import { admit, type TakerGate } from "./admission";
import { Indexer } from "./indexer";
import { KeyedLocks } from "./locks";
import { iso, type KeeperPort, keeperLog } from "./port";
import { type RetentionRun, retainPass } from "./retention";
import type { KeeperRpc, SubmitOutcome, SubmitRequest } from "./rpc";
import { noTimings } from "./timings";
import { Wallet } from "./wallet";

/**
 * The keeper leader (docs/settlement.md): admission checks and simulates each submission from one wallet
 * of the chain's pool, the wallet signs, keeps and broadcasts it, and the indexer follows every
 * transaction to its receipt and finality. Submissions for one quote or one Idempotency-Key run one at a
 * time, and so does each wallet's signing and broadcast (one nonce sequence each); the rest runs
 * concurrently. A transaction is kept before it is broadcast, so a restart re-broadcasts the same
 * transaction or finds it on chain, never a second one.
 */
export class Keeper implements KeeperRpc {
  private readonly locks = new KeyedLocks();
  private readonly wallet: Wallet;
  private readonly indexer: Indexer;
  private readonly takerSubmissions = new TokenBuckets();
  /** Verified submissions per taker (docs/security.md, "Limits"); a taker at its limit is refused before the chain is asked. */
  private readonly takerGate: TakerGate = {
    over: (taker) => this.takerRefusal(this.takerSubmissions.peek(taker, this.port.now(), this.takerRate())),
    count: (taker) => this.takerRefusal(this.takerSubmissions.take(taker, this.port.now(), this.takerRate())),
  };

  constructor(private readonly port: KeeperPort) {
    this.wallet = new Wallet(port);
    this.indexer = new Indexer(port, this.wallet);
  }

  submit(req: SubmitRequest): Promise<SubmitOutcome> {
    const keys = [`quote:${req.quoteId}`, ...(req.idempotencyKey ? [`key:${req.idempotencyKey}`] : [])];
    return this.locks.run(keys, async () => {
      // Every check and the simulation (src/keeper/admission.ts), then the wallet signs, keeps and sends.
      const prepared = await admit(this.port, req, this.wallet.pick, noTimings(), this.takerGate);
      if (prepared.kind !== "prepared") return prepared;
      return this.wallet.send(prepared);
    });
  }

  private takerRate() {
    return perPeriod(this.port.config().limits.takerSubmissionsPer10s, 10);
  }

  private takerRefusal(spent: Spent): Refusal | null {
    if (spent.ok) return null;
    return refuse(429, "rate_limited", "Too many submissions for this taker; slow down.", {
      retryAfter: spent.retryAfter,
    });
  }

  /**
   * A reader found no sign in D1 of a submission answered a moment ago (`id`: its quote's or its
   * execution's): whether it was still to be written, once it is (src/quotes/read-through.ts).
   */
  writeThrough(id: string): Promise<boolean> {
    return this.wallet.writeThrough(id);
  }

  /** One indexer pass; whether anything is still followed. */
  index(): Promise<boolean> {
    return this.indexer.index();
  }

  /**
   * Deletes the Idempotency-Keys past their retention, the write-behind ids past theirs, and the level
   * slippage samples older than the record's window.
   */
  async pruneKeys(): Promise<void> {
    const { db } = this.port;
    const now = this.port.now();
    await Promise.all([
      pruneIdempotencyKeys(db, iso(now)),
      pruneWrittenBehind(db, now),
      pruneLevelSamples(db, now - LEVELS_WINDOW_MS),
    ]).catch((e: unknown) => keeperLog.error("prune_failed", { error: String(e) }));
  }

  /**
   * Deletes ended quotes past the configuration's `retention`, a few bounded batches at a time
   * (docs/operations.md, "Retention"); `more` says a backlog is left for the next run.
   */
  async retain(): Promise<RetentionRun> {
    const run = await retainPass(this.port.db, this.port.config().retention, this.port.now());
    const count = (batches: RetentionRun["submitted"]) => batches.reduce((n, b) => n + b.quotes, 0);
    const [unsubmitted, submitted] = [count(run.unsubmitted), count(run.submitted)];
    if (unsubmitted + submitted > 0)
      relayLog.info("quotes_retired", { component: "keeper", unsubmitted, submitted, more: run.more });
    return run;
  }

  /** Records every open quote past its expiry as expired (docs/settlement.md, "The keeper's alarm"). */
  async expireQuotes(): Promise<void> {
    const expired = await expireAllDue(this.port.db, iso(this.port.now()));
    if (expired > 0) keeperLog.info("quotes_expired", { expired });
  }
}
