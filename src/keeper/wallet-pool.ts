import type { ChainSettler } from "../chains";
import { KeyedLocks } from "./locks";

/** A wallet of the pool given to one submission, until it has been broadcast or refused. */
export interface WalletSlot {
  settler: ChainSettler;
  /** The submission is done with the wallet (its load drops by one). Calling it again does nothing. */
  release(): void;
}

/** What the choice of a wallet looks at. */
export interface WalletLoad {
  /** Submissions given the wallet and not done yet (simulating, waiting for its lock, or in it). */
  load: number;
  /** When it was last given out (a counter), or -1 for never. */
  lastPicked: number;
}

/**
 * The wallet a submission goes to: the least busy; among equally busy ones, the one given out longest
 * ago, so submissions spread over the pool even when they do not overlap. Null for no candidates.
 */
export function chooseWallet(candidates: readonly WalletLoad[]): number | null {
  let best: number | null = null;
  for (const [i, c] of candidates.entries()) {
    const b = best === null ? null : candidates[best];
    if (!b || c.load < b.load || (c.load === b.load && c.lastPicked < b.lastPicked)) best = i;
  }
  return best;
}

const walletKey = (settler: ChainSettler) => `${settler.chainId}:${settler.keeper}`;

/**
 * The keeper's wallets (docs/settlement.md, "The wallet pool"): which one takes a submission, and each
 * one's lock, so one wallet signs and broadcasts one transaction at a time (its nonce sequence) while the
 * wallets of a pool work side by side. In memory: a restarted object starts with every wallet idle.
 */
export class WalletPool {
  private readonly loads = new Map<string, WalletLoad>();
  private picks = 0;
  private readonly locks = new KeyedLocks();

  /** Gives the least busy of `settlers` that `usable` allows to a submission; null when none is usable. */
  pick(settlers: readonly ChainSettler[], usable: (settler: ChainSettler) => boolean): WalletSlot | null {
    const candidates = settlers.filter(usable);
    const chosen = chooseWallet(candidates.map((s) => this.loadOf(s)));
    const settler = chosen === null ? undefined : candidates[chosen];
    if (!settler) return null;
    const load = this.loadOf(settler);
    load.load++;
    load.lastPicked = this.picks++;
    let released = false;
    return {
      settler,
      release: () => {
        if (released) return;
        released = true;
        load.load--;
      },
    };
  }

  /** Runs `task` holding the wallet's lock. */
  run<T>(settler: ChainSettler, task: () => Promise<T>): Promise<T> {
    return this.locks.run([`wallet:${walletKey(settler)}`], task);
  }

  private loadOf(settler: ChainSettler): WalletLoad {
    const key = walletKey(settler);
    let load = this.loads.get(key);
    if (!load) {
      load = { load: 0, lastPicked: -1 };
      this.loads.set(key, load);
    }
    return load;
  }
}
