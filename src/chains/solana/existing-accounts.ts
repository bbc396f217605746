import { solanaRpc } from "./rpc";

/**
 * Which of some accounts exist on chain, read with one `getMultipleAccounts` (no data: a zero-length
 * slice) and remembered once seen to exist: a token account is rarely closed, so the accounts a swap
 * pays into (the treasury's, the keeper's, a returning recipient's) are read once. An account seen
 * missing is read again next time, since the swap that needed it may have created it. The memory holds
 * at most `limit` accounts, the oldest forgotten first (docs/settlement.md, "What a Solana fill costs").
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

  private remember(account: string): void {
    this.seen.add(account);
    if (this.seen.size <= this.limit) return;
    const oldest = this.seen.values().next().value;
    if (oldest !== undefined) this.seen.delete(oldest);
  }
}

/** Whether each of `accounts` exists, in order, from one `getMultipleAccounts` at `confirmed` within `timeoutMs`. */
export async function readAccountsExist(rpcUrl: string, accounts: string[], timeoutMs: number): Promise<boolean[]> {
  const { value } = await solanaRpc<{ value: (unknown | null)[] }>(
    rpcUrl,
    "getMultipleAccounts",
    [accounts, { commitment: "confirmed", encoding: "base64", dataSlice: { offset: 0, length: 0 } }],
    timeoutMs,
  );
  return value.map((account) => account !== null);
}
