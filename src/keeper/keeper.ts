import type { Refusal } from "../errors";
import { perPeriod, type Spent, TokenBuckets } from "../limits";
import { admit, type TakerGate } from "./admission";
import { Indexer } from "./indexer";
import { KeyedLocks } from "./locks";
import { keeperRefusal } from "./outcomes";
import type { KeeperPort } from "./port";
import type { RoutedSubmission, SubmitOutcome } from "./rpc";
import { noTimings } from "./timings";
import { Wallet } from "./wallet";

/**
 * The keeper of one chain (docs/settlement.md; its object is the chain's keeper, docs/architecture.md
 * "The keeper"): admission checks and simulates each submission from one wallet of the chain's pool, the
 * wallet signs, keeps and broadcasts it, and the indexer follows every transaction to its receipt and
 * finality. Submissions for one quote or one Idempotency-Key run one at a time, and so does each wallet's
 * signing and broadcast (one nonce sequence each); the rest runs concurrently. A transaction is kept
 * before it is broadcast, so a restart re-broadcasts the same transaction or finds it on chain, never a
 * second one.
 */
export class Keeper {
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

  submit(req: RoutedSubmission): Promise<SubmitOutcome> {
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
    return keeperRefusal("rate_limited", "Too many submissions for this taker; slow down.", {
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

  /** One indexer pass that starts after the call; whether anything is still followed. */
  index(): Promise<boolean> {
    return this.indexer.index();
  }
}
