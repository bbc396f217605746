import type { SolanaChain } from "../../config";
import { solanaRpc } from "./rpc";

/** How long a quote waits for the one on-path read (which destination accounts exist) before falling back. */
export const ACCOUNTS_READ_TIMEOUT_MS = 500;

/**
 * Which of some accounts exist on chain, read with one `getMultipleAccounts` (no data: a zero-length
 * slice) and remembered once seen to exist: a token account is rarely closed, so the accounts a swap
 * pays into (the treasury's, the keeper's, a returning recipient's) are read once. An account seen
 * missing is read again next time, since the swap that needed it may have created it. The memory holds
 * at most `limit` accounts, the least recently priced forgotten first (docs/settlement.md, "What a Solana
 * fill costs"), so an account a quote was just priced with is still held when its swap is built (`has`).
 */
export class ExistingAccounts {
  private readonly seen = new Set<string>();

  constructor(
    private readonly read: (accounts: string[]) => Promise<boolean[]>,
    private readonly limit = 10_000,
  ) {}

  /** How many of `accounts` do not exist; reads only those not already seen to exist. Throws when the read does. */
  async missing(accounts: readonly string[]): Promise<number> {
    const unknown = accounts.filter((a) => !this.seen.has(a));
    for (const account of accounts) if (this.seen.has(account)) this.remember(account);
    if (unknown.length === 0) return 0;
    const exists = await this.read(unknown);
    if (exists.length !== unknown.length) throw new Error("getMultipleAccounts answered another number of accounts");
    let missing = 0;
    unknown.forEach((account, i) => {
      if (exists[i]) this.remember(account);
      else missing += 1;
    });
    return missing;
  }

  /**
   * Whether `account` is held as existing: a quote priced now would charge no rent for it. Reads nothing
   * (docs/security.md, "A recipient's token account closed for its rent").
   */
  has(account: string): boolean {
    return this.seen.has(account);
  }

  /** Holds `account` as the most recently priced, forgetting the least recently priced beyond `limit`. */
  private remember(account: string): void {
    this.seen.delete(account);
    this.seen.add(account);
    if (this.seen.size <= this.limit) return;
    const oldest = this.seen.values().next().value;
    if (oldest !== undefined) this.seen.delete(oldest);
  }
}

const held = new WeakMap<SolanaChain, ExistingAccounts>();

/**
 * The one memory of existing accounts of a configured chain in this isolate: the quote's pricing
 * (src/chains/solana/costs.ts) fills it, and the swap's build (src/chains/solana/adapter.ts) reads from it
 * whether the quote charged the recipient's account's rent, both in the corridor's isolate.
 */
export function existingAccountsOn(chain: SolanaChain): ExistingAccounts {
  let existing = held.get(chain);
  if (!existing) {
    existing = new ExistingAccounts((accounts) => readAccountsExist(chain.rpcUrl, accounts, ACCOUNTS_READ_TIMEOUT_MS));
    held.set(chain, existing);
  }
  return existing;
}

/**
 * Whether each of `accounts` exists, in order, from one `getMultipleAccounts` at `commitment` within
 * `timeoutMs` (`solanaRpc`'s default when left out).
 */
export async function readAccountsExist(
  rpcUrl: string,
  accounts: string[],
  timeoutMs?: number,
  commitment: "confirmed" | "processed" = "confirmed",
): Promise<boolean[]> {
  const { value } = await solanaRpc<{ value: (unknown | null)[] }>(
    rpcUrl,
    "getMultipleAccounts",
    [accounts, { commitment, encoding: "base64", dataSlice: { offset: 0, length: 0 } }],
    timeoutMs,
  );
  return value.map((account) => account !== null);
}
