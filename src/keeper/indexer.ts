import type { ChainAdapter } from "../chains/adapter";
import { type ChainSettler, ChainUnavailableError, type TxReceipt } from "../chains/settler";
import { writeFailed, writeFinal, writeSettled } from "../db/settlement-steps";
import { type PendingTx, signedFill } from "./pending";
import { iso, type KeeperPort, log, settlingChain, walletOf } from "./port";
import { settledFill } from "./settlement-record";
import { healWinner, strikeWinner } from "./strikes";
import type { Wallet } from "./wallet";

/**
 * The indexer (docs/settlement.md, "The indexer and finality"): one pass recovers transactions whose
 * broadcast was not confirmed, reads what became of the sent ones, and records settlements, failures and
 * finality, telling the winning resolver. Idempotent, as alarms are at-least-once.
 */
export class Indexer {
  private running: Promise<boolean> | null = null;

  constructor(
    private readonly port: KeeperPort,
    private readonly wallet: Wallet,
  ) {}

  /** One pass; concurrent calls share it. Whether anything is still followed. */
  index(): Promise<boolean> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<boolean> {
    const { store } = this.port;
    const byChain = new Map<number, PendingTx[]>();
    for (const tx of store.all()) {
      if (this.wallet.inFlight.has(tx.hash)) continue;
      byChain.set(tx.chainId, [...(byChain.get(tx.chainId) ?? []), tx]);
    }
    for (const [chainId, txs] of byChain) {
      const settling = settlingChain(this.port, chainId);
      if (!settling) {
        log("chain_unavailable", { chainId, pending: txs.length });
        continue;
      }
      const { adapter } = settling;
      try {
        const head = await (settling.settlers[0] as ChainSettler).head();
        for (const tx of txs) {
          // Each transaction is followed by the wallet that signed it: its nonce, its key.
          const settler = walletOf(settling, tx.keeper);
          if (!settler) {
            log("wallet_unavailable", { chainId, keeper: tx.keeper, txHash: tx.hash });
            continue;
          }
          await this.follow(settler, adapter, tx, head).catch((e: unknown) => {
            if (e instanceof ChainUnavailableError) throw e;
            log("follow_failed", { quoteId: tx.submission.quoteId, txHash: tx.hash, error: String(e) });
          });
        }
      } catch (e) {
        if (!(e instanceof ChainUnavailableError)) throw e;
        log("rpc_unavailable", { chainId, error: e.message });
      }
    }
    return store.count() > 0;
  }

  private async follow(settler: ChainSettler, adapter: ChainAdapter, tx: PendingTx, head: number): Promise<void> {
    const { store } = this.port;
    let current: PendingTx | null = tx;
    if (current.state === "signed") {
      if (!(await this.recover(settler, current))) return;
      current = store.get(tx.hash);
    }
    if (current?.state === "sent") {
      const status = await settler.status(signedFill(current));
      switch (status.state) {
        case "pending":
          return;
        case "dropped":
          return this.fail(current, "dropped", null);
        case "reverted":
          return this.fail(current, status.reason, status.gasUsed.toString());
        case "landed":
          if (!(await this.settle(current, status.receipt, adapter))) return;
          current = store.get(tx.hash);
      }
    }
    if (current?.state === "mined" && current.block !== null && settler.isFinal(current.block, head)) {
      await writeFinal(this.port.db, current.submission.quoteId, iso(this.port.now()));
      store.remove(current.hash);
      this.port.timelineGrew(current.submission.quoteId);
    }
  }

  /** A transaction recorded but not confirmed as broadcast: found on chain, or broadcast again (the same one). */
  private async recover(settler: ChainSettler, tx: PendingTx): Promise<boolean> {
    const result = await settler.recover(signedFill(tx));
    if (result.status === "unreachable") return false;
    if (result.status === "refused") {
      log("recovered_broadcast_refused", { quoteId: tx.submission.quoteId, txHash: tx.hash, reason: result.reason });
      await this.fail(tx, `dropped:${result.reason}`, null);
      settler.release(signedFill(tx), () => this.port.store.remove(tx.hash));
      return false;
    }
    await this.wallet.confirmSent(tx);
    return this.port.store.get(tx.hash)?.state === "sent";
  }

  private async settle(tx: PendingTx, receipt: TxReceipt, adapter: ChainAdapter): Promise<boolean> {
    const s = tx.submission;
    const fill = settledFill(receipt, { quoteId: s.quoteId, gasFeeToken: s.gasFeeToken }, adapter.sameAddress);
    if (!fill) {
      await this.fail(tx, "no_fill_event", receipt.gasUsed.toString());
      return false;
    }
    await writeSettled(
      this.port.db,
      s,
      { txHash: tx.hash, block: receipt.block, gasUsed: receipt.gasUsed.toString(), ...fill },
      iso(this.port.now()),
    );
    this.port.store.setState(tx.hash, "mined", receipt.block, this.port.now());
    this.port.timelineGrew(s.quoteId);
    this.wallet.notify(tx, "settled");
    await healWinner(this.port, s);
    return true;
  }

  private async fail(tx: PendingTx, reason: string, gasUsed: string | null): Promise<void> {
    const s = tx.submission;
    const moved = await writeFailed(this.port.db, s, { reason, txHash: tx.hash, gasUsed }, iso(this.port.now()));
    this.port.store.remove(tx.hash);
    // A transaction lost before its broadcast was ever confirmed has no execution to fail: nobody to tell.
    if (!moved) return;
    this.port.timelineGrew(s.quoteId);
    this.wallet.notify(tx, "failed");
    await strikeWinner(this.port, s, `transaction ${reason}`);
  }
}
