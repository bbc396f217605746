import type { Hex } from "viem";
import { keccak256 } from "viem";
import type { NonceFiller, NonceStore } from "../nonce-store";
import type { BroadcastResult } from "../settler";

/** What the gaps of one wallet's nonce sequence need of its settler. */
export interface GapWallet {
  /** The wallet as the nonce store spells it. */
  address: string;
  nonces: NonceStore;
  /** A transfer of nothing from the wallet to itself, signed with `nonce` at the chain's fees now. */
  signFiller(nonce: number): Promise<Hex>;
  broadcast(tx: Pick<NonceFiller, "hash" | "raw">): Promise<BroadcastResult>;
  /** How many of the wallet's transactions are mined. */
  minedNonce(): Promise<number>;
  /** A filler's send that did not get through, for the log. */
  notSent(filler: NonceFiller, reason: string): void;
}

/**
 * The nonces a refused transaction leaves with later ones of its wallet waiting on them, each taken by a
 * filler kept in the nonce store and sent until the chain has mined past it (docs/settlement.md, "Nonce
 * gaps"). Whether a filler's last send got through is kept in memory: the wallet's gap is open until it has.
 */
export class NonceGaps {
  /** The nonces of fillers whose last send did not get through. */
  private readonly unsent = new Set<number>();

  constructor(private readonly wallet: GapWallet) {}

  /** Whether a filler's last send did not get through. */
  get open(): boolean {
    return this.unsent.size > 0;
  }

  /** Takes `nonce` with a filler, kept with `write` in one storage transaction, then sends it. */
  async fill(nonce: number, write: () => void): Promise<void> {
    const raw = await this.wallet.signFiller(nonce);
    const filler = { nonce, hash: keccak256(raw), raw };
    this.wallet.nonces.keepFiller(this.wallet.address, filler, write);
    await this.send(filler);
  }

  /** Sends each kept filler again until the chain has mined past its nonce, then forgets it. */
  async resend(): Promise<void> {
    const { address, nonces } = this.wallet;
    const kept = nonces.fillers(address);
    if (kept.length === 0) return;
    const mined = await this.wallet.minedNonce();
    for (const filler of kept) {
      if (mined > filler.nonce) {
        nonces.dropFiller(address, filler.nonce);
        this.unsent.delete(filler.nonce);
      } else await this.send(filler);
    }
  }

  private async send(filler: NonceFiller): Promise<void> {
    const result = await this.wallet.broadcast(filler);
    if (result.status === "accepted" || result.status === "known") {
      this.unsent.delete(filler.nonce);
      return;
    }
    this.unsent.add(filler.nonce);
    this.wallet.notSent(filler, result.reason);
  }
}
