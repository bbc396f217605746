import { type ChainAdapter, type ChainSettler, ChainUnavailableError, type TxReceipt, type TxStatus } from "../chains";
import { finalStatements, settledStatements, writeFailed, writeReorged, writeReplaced } from "../db";
import { heal, isResolversOwn, strikeIfOwn } from "../resolvers";
import { blamed } from "../states";
import { iso } from "./iso";
import { keeperLog, logIfRelayFault } from "./keeper-log";
import { PassRecords } from "./pass-records";
import { fillNotice, type PendingTx, signedFill } from "./pending";
import type { KeeperPort } from "./port";
import { runsAfterCall } from "./runs-after-call";
import { fillResolvers, settledFill, settledReceipt } from "./settlement-record";
import { type SettlingChain, settlingChain, walletOf } from "./settling-chain";
import { judgeAfterBroadcast } from "./spent-by-relay";
import type { Wallet } from "./wallet";

const followFailed = (tx: PendingTx, e: unknown) =>
  keeperLog.error("follow_failed", { quoteId: tx.submission.quoteId, txHash: tx.hash, error: String(e) });

/** Adds `tx` to the list of `key` in `lists`. */
function addTo<K>(lists: Map<K, PendingTx[]>, key: K, tx: PendingTx): void {
  if (!lists.get(key)?.push(tx)) lists.set(key, [tx]);
}

/** A transaction's status, its shared reads made (`ChainSettler.statuses`). */
type Status = () => Promise<TxStatus>;

/** One transaction's status, read now. */
const statusNow = async (settler: ChainSettler, tx: PendingTx): Promise<Status> =>
  (await settler.statuses([signedFill(tx)]))[0] as Status;

/** What a revert's replay says beside its reason: a short resolver's shortfall, the leg it names. */
type Named = { shortfall?: bigint; resolver?: string };

/** A sent transaction the chain no longer has and never mined: the relay's to resend, nobody else's. */
const DROPPED = blamed("relay", "dropped");

/** A receipt's gas (compute units on Solana) as the execution records it: null when the node reported none. */
const units = (gasUsed: bigint | null): string | null => (gasUsed === null ? null : gasUsed.toString());

/**
 * The indexer (docs/settlement.md, "The indexer and finality"): one pass recovers transactions whose
 * broadcast was not confirmed, reads what became of the sent ones, and records settlements, failures and
 * finality, telling the winning resolver. Idempotent, as alarms are at-least-once.
 */
export class Indexer {
  /** One pass that starts after the call, so it sees what came before it; whether anything is still followed. */
  readonly index = runsAfterCall(() => this.pass());
  /** Settled transactions by hash, and the head their receipt was last read at (memory: a restart reads again). */
  private readonly checkedHead = new Map<string, number>();
  /** The settlements and finals of a chain's pass, written together once it has followed every transaction. */
  private readonly records: PassRecords;
  private readonly dbOf = (tx: PendingTx) => this.port.records(tx.submission.quoteId);

  constructor(
    private readonly port: KeeperPort,
    private readonly wallet: Wallet,
  ) {
    this.records = new PassRecords(this.dbOf, followFailed);
  }

  private async pass(): Promise<boolean> {
    const { store } = this.port;
    const byChain = new Map<number, PendingTx[]>();
    for (const tx of store.all()) {
      if (!this.wallet.busy(tx.hash)) addTo(byChain, tx.chainId, tx);
    }
    for (const [chainId, txs] of byChain) {
      const settling = settlingChain(this.port, chainId);
      if (!settling) {
        keeperLog.error("chain_unavailable", { chainId, pending: txs.length });
        continue;
      }
      const { adapter } = settling;
      try {
        const head = await (settling.settlers[0] as ChainSettler).head();
        // A nonce a refused transaction left with later ones waiting on it is filled first (docs/settlement.md, "Nonce gaps").
        for (const settler of settling.settlers) await settler.fillGaps();
        const read = await this.readAhead(settling, txs, head);
        try {
          for (const tx of txs) {
            // Each transaction is followed by the wallet that signed it: its nonce, its key.
            const settler = walletOf(settling, tx.keeper);
            if (!settler) {
              keeperLog.error("wallet_unavailable", { chainId, keeper: tx.keeper, txHash: tx.hash });
              continue;
            }
            await this.follow(settler, adapter, tx, head, read.get(tx.hash)).catch((e: unknown) => {
              if (e instanceof ChainUnavailableError) throw e;
              followFailed(tx, e);
            });
          }
        } finally {
          await this.records.write();
        }
      } catch (e) {
        if (!(e instanceof ChainUnavailableError)) throw e;
        keeperLog.error("rpc_unavailable", { chainId, error: e.message });
      }
    }
    return store.count() > 0;
  }

  /**
   * What the pass reads of the chain for every transaction that is sent, or settled and not yet read at
   * `head` (whether a reorg moved it), asked of each wallet for all of its transactions at once
   * (`ChainSettler.statuses`: one batch of receipts on EVM, one status call on Solana), by hash.
   */
  private async readAhead(
    settling: SettlingChain,
    txs: readonly PendingTx[],
    head: number,
  ): Promise<Map<string, Status>> {
    const byWallet = new Map<ChainSettler, PendingTx[]>();
    for (const tx of txs) {
      const due = tx.state === "sent" || (tx.state === "mined" && this.checkedHead.get(tx.hash) !== head);
      const settler = due ? walletOf(settling, tx.keeper) : null;
      if (settler) addTo(byWallet, settler, tx);
    }
    const read = new Map<string, Status>();
    for (const [settler, own] of byWallet) {
      const statuses = await settler.statuses(own.map(signedFill));
      for (const [i, tx] of own.entries()) read.set(tx.hash, statuses[i] as Status);
    }
    return read;
  }

  private async follow(
    settler: ChainSettler,
    adapter: ChainAdapter,
    tx: PendingTx,
    head: number,
    read: Status | undefined,
  ): Promise<void> {
    const { store } = this.port;
    let current: PendingTx | null = tx;
    if (current.state === "signed") {
      if (!(await this.recover(settler, current))) return;
      current = store.get(tx.hash);
    }
    // The head at which a settlement's receipt was last read: read again only when the chain moved.
    const checkedAt = this.checkedHead.get(tx.hash);
    if (current?.state === "sent") {
      const status = await this.statusOf(settler, current, read);
      switch (status.state) {
        case "pending":
          return this.replaceIfStuck(settler, current);
        case "dropped":
          return this.fail(current, DROPPED, null);
        case "reverted":
          return this.fail(current, status.reason, units(status.gasUsed), status);
        case "landed":
          // Final, if it is deep enough, at a later pass, once its settlement is written.
          return this.settle(current, status.receipt, adapter, head);
      }
    }
    if (current?.state === "mined" && current.block !== null) {
      // Settled but not final: the receipt must still be where it was once the chain has moved
      // (docs/settlement.md, "Reorgs").
      if (checkedAt !== head) {
        const status = await (read ?? (await statusNow(settler, current)))();
        if (status.state !== "landed" || status.receipt.block !== current.block) {
          this.checkedHead.delete(current.hash);
          return this.reorged(current, status, adapter, head);
        }
      }
      this.checkedHead.set(current.hash, head);
      if (!settler.isFinal(current.block, head)) return;
      const { hash, submission } = current;
      this.records.add(current, finalStatements(this.dbOf(current), submission.quoteId, iso(this.port.now())), () => {
        store.remove(hash);
        this.checkedHead.delete(hash);
        this.port.quoteMoved(submission.quoteId, null);
      });
    }
  }

  /**
   * Where a sent transaction stands; when it was dropped because its nonce was used, one of the
   * transactions it replaced may be what used it: that one's fate, the store then following it.
   */
  private async statusOf(settler: ChainSettler, tx: PendingTx, read: Status | undefined): Promise<TxStatus> {
    const status = await (read ?? (await statusNow(settler, tx)))();
    if (status.state !== "dropped") return status;
    const theirs = await settler.statuses(tx.replaced.map((earlier) => ({ ...signedFill(tx), ...earlier })));
    for (const [i, earlier] of tx.replaced.entries()) {
      const their = await (theirs[i] as Status)();
      if (their.state === "landed" || their.state === "reverted") {
        this.port.store.landedAs(tx.hash, earlier);
        return their;
      }
    }
    return status;
  }

  /**
   * A sent transaction still not mined `replacement.afterMs` after it was sent is replaced with the same
   * nonce at a higher fee, at most `maxBumps` times (docs/settlement.md, "Stuck transactions"). The
   * replacement is stored before it is broadcast, and both stay followed: whichever lands is the fill, and
   * the shared nonce lets only one land.
   */
  private async replaceIfStuck(settler: ChainSettler, tx: PendingTx): Promise<void> {
    const policy = settler.replacement;
    const now = this.port.now();
    if (!policy || tx.replaced.length >= policy.maxBumps || now - tx.since < policy.afterMs) return;
    const by = await settler.replace(signedFill(tx));
    this.port.store.replace(tx.hash, by, now);
    const bump = tx.replaced.length + 1;
    const sent = await settler.broadcast(by);
    keeperLog.info("fee_bumped", {
      quoteId: tx.submission.quoteId,
      txHash: by.hash,
      replaces: tx.hash,
      bump,
      sent: sent.status,
    });
    await writeReplaced(this.dbOf(tx), tx.submission, { txHash: by.hash, replaces: tx.hash, bump }, iso(now));
    this.port.quoteMoved(tx.submission.quoteId, null);
  }

  /**
   * A settlement whose receipt is gone or moved before `final`: back to `submitted`, then followed as
   * any sent transaction (settled again where it landed now, or failed when it is gone for good).
   */
  private async reorged(tx: PendingTx, now: TxStatus, adapter: ChainAdapter, head: number): Promise<void> {
    const { quoteId } = tx.submission;
    keeperLog.warn("reorged", { quoteId, txHash: tx.hash, block: tx.block, now: now.state });
    await writeReorged(this.dbOf(tx), tx.submission, { txHash: tx.hash, block: tx.block ?? 0 }, iso(this.port.now()));
    this.port.store.setState(tx.hash, "sent", null, this.port.now());
    this.port.quoteMoved(quoteId, null);
    const sent = this.port.store.get(tx.hash);
    if (!sent) return;
    if (now.state === "landed") await this.settle(sent, now.receipt, adapter, head);
    else if (now.state === "dropped") await this.fail(sent, DROPPED, null);
    else if (now.state === "reverted") await this.fail(sent, now.reason, units(now.gasUsed), now);
  }

  /** A transaction recorded but not confirmed as broadcast: found on chain, or broadcast again (the same one). */
  private async recover(settler: ChainSettler, tx: PendingTx): Promise<boolean> {
    const result = await settler.recover(signedFill(tx));
    if (result.status === "unreachable") return false;
    if (result.status === "refused") {
      keeperLog.error("recovered_broadcast_refused", {
        quoteId: tx.submission.quoteId,
        txHash: tx.hash,
        reason: result.reason,
      });
      await this.fail(tx, blamed("relay", `dropped:${result.reason}`), null);
      await this.wallet.release(settler, tx);
      return false;
    }
    await this.wallet.confirmSent(tx);
    return this.port.store.get(tx.hash)?.state === "sent";
  }

  /** A landed transaction's settlement, read at `head`: recorded with the pass's batch, then kept as mined. */
  private async settle(tx: PendingTx, receipt: TxReceipt, adapter: ChainAdapter, head: number): Promise<void> {
    const s = tx.submission;
    const quote = { quoteId: s.quoteId, gasFeeToken: s.gasFeeToken, feeToken: s.request.feeToken };
    const fill = settledFill(receipt, quote, adapter.sameAddress);
    if (!fill) return this.fail(tx, blamed("relay", "no_fill_event"), units(receipt.gasUsed));
    // The call sent applied the permit when one came with the submission (`fillWithPermit`).
    const settled = settledReceipt(receipt, fill, Boolean(s.request.permit));
    const legs = fillResolvers(receipt, s);
    this.records.add(tx, settledStatements(this.dbOf(tx), s, settled, iso(this.port.now()), legs), async () => {
      this.port.store.setState(receipt.hash, "mined", receipt.block, this.port.now());
      this.checkedHead.set(receipt.hash, head);
      this.port.quoteMoved(s.quoteId, fillNotice(tx, "settled"));
      // Each leg's resolver filled cleanly: the quote's and, of a fill of several makers, the others' (docs/legs.md).
      for (const resolver of legs) await heal(this.port.db, { resolver, event: s.executionId, now: this.port.now() });
    });
  }

  /** `named`: a revert's shortfall and leg; that leg's resolver is counted and struck, not the quote's (docs/legs.md). */
  private async fail(tx: PendingTx, given: string, gasUsed: string | null, named: Named = {}): Promise<void> {
    const s = tx.submission;
    const leg = named.resolver;
    const reason = await judgeAfterBroadcast(this.port, s.quoteId, { reason: given, shortfall: named.shortfall, leg });
    const resolversOwn = isResolversOwn(reason);
    const failure = { reason, resolversOwn, leg, txHash: tx.hash, gasUsed };
    const moved = await writeFailed(this.dbOf(tx), s, failure, iso(this.port.now()));
    this.port.store.remove(tx.hash);
    // A transaction lost before its broadcast was ever confirmed has no execution to fail: nobody to tell.
    if (!moved) return;
    this.port.quoteMoved(s.quoteId, fillNotice(tx, "failed", reason));
    logIfRelayFault({ quoteId: s.quoteId, corridor: s.corridorKey, reason, txHash: tx.hash });
    const failed = {
      resolver: leg ?? s.resolver,
      reason,
      event: s.executionId,
      quoteId: s.quoteId,
      why: `transaction ${reason}`,
      now: this.port.now(),
    };
    await strikeIfOwn(this.port.db, failed, (resolver, demotion) =>
      this.port.demoted(s.corridorKey, resolver, demotion),
    );
  }
}
