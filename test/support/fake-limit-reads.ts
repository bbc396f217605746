import type { Address, Hex } from "viem";
import { limitOrdersFor } from "../../src/chains";
import type { LimitChainReads, TakerSideRead } from "../../src/chains/evm/limit-reads";
import { keyVerdict, type WalletVerdict } from "../../src/chains/evm/wallet-signature";
import type { LimitOrderChains } from "../../src/chains/limit-orders";
import { ChainUnavailableError } from "../../src/chains/settler";

/**
 * An in-memory chain for limit-order placement (src/chains/evm/limit-reads.ts): each owner's balance
 * and Permit2 allowance, the permits the token accepts, the Permit2 nonces spent. Everyone holds and
 * has approved plenty unless a test says otherwise; `down` makes every read fail as an RPC that does
 * not answer.
 */
export class FakeLimitReads implements LimitChainReads {
  balances = new Map<string, bigint>();
  allowances = new Map<string, bigint>();
  /** Whether the token accepts an EIP-2612 permit (by owner); true unless set. */
  permitsAccepted = new Map<string, boolean>();
  /** Spent nonce words by `owner:wordPos`. */
  bitmaps = new Map<string, bigint>();
  /** Wallets at addresses with code (by address): whether each takes a signature of a hash (ERC-1271). */
  wallets = new Map<string, (hash: Hex, signature: string) => boolean>();
  down = false;
  reads = 0;
  /** The size of each `takerSides` batch read. */
  batches: number[] = [];

  static readonly PLENTY = 10n ** 30n;

  private read(): void {
    this.reads++;
    if (this.down) throw new ChainUnavailableError("the fake chain is down");
  }

  async funds(owner: Address) {
    this.read();
    const key = owner.toLowerCase();
    return {
      balance: this.balances.get(key) ?? FakeLimitReads.PLENTY,
      permit2Allowance: this.allowances.get(key) ?? FakeLimitReads.PLENTY,
    };
  }

  async permitAccepted(owner: Address) {
    this.read();
    return this.permitsAccepted.get(owner.toLowerCase()) ?? true;
  }

  async nonceBitmap(owner: Address, wordPos: bigint) {
    this.read();
    return this.bitmaps.get(`${owner.toLowerCase()}:${wordPos}`) ?? 0n;
  }

  /** One read for the whole batch, as the RPC's batch request is one. */
  async takerSides(orders: readonly TakerSideRead[]) {
    this.read();
    this.batches.push(orders.length);
    return orders.map(({ owner, wordPos }) => {
      const key = owner.toLowerCase();
      return {
        balance: this.balances.get(key) ?? FakeLimitReads.PLENTY,
        permit2Allowance: this.allowances.get(key) ?? FakeLimitReads.PLENTY,
        bitmap: this.bitmaps.get(`${key}:${wordPos}`) ?? 0n,
        permit: null,
        recipientAccepts: null,
      };
    });
  }

  /** An address without code is checked by the strict rule; one of `wallets` by its own answer. */
  async walletVerdict(signed: { signer: Address; hash: Hex; signature: string }): Promise<WalletVerdict> {
    this.read();
    const wallet = this.wallets.get(signed.signer.toLowerCase());
    if (!wallet) return keyVerdict(signed);
    return wallet(signed.hash, signed.signature) ? { ok: true } : { ok: false, path: "code" };
  }

  /** Marks a nonce spent, as Permit2 does when an order fills or is revoked. */
  spend(owner: string, nonce: bigint): void {
    const key = `${owner.toLowerCase()}:${nonce >> 8n}`;
    this.bitmaps.set(key, (this.bitmaps.get(key) ?? 0n) | (1n << (nonce & 255n)));
  }

  /** The `limitOrderChains` option of `createApp` reading this fake. */
  chains(): LimitOrderChains {
    return (chain) => limitOrdersFor(chain, () => this);
  }
}
