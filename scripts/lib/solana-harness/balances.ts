/**
 * The balances a transaction's metadata reports: lamports of every account it names, and the token
 * balances of those that are token accounts, read before and after it runs.
 */
import { AddressLookupTableAccount, type VersionedMessage } from "@solana/web3.js";
import { parseMint, parseTokenAccount, type UiTokenAmount, uiTokenAmount } from "./token-state";

export interface AccountView {
  lamports: bigint;
  owner: string;
  data: Uint8Array;
  executable: boolean;
}

export type AccountReader = (address: string) => AccountView | null;

export interface AccountKeys {
  /** Every account of the transaction: its static keys, then the loaded writable, then the loaded read-only. */
  all: string[];
  loaded: { writable: string[]; readonly: string[] };
}

/** The transaction's accounts, address lookup tables resolved (a table that is missing loads nothing). */
export function accountKeysOf(message: VersionedMessage, read: AccountReader): AccountKeys {
  const loaded = { writable: [] as string[], readonly: [] as string[] };
  for (const lookup of message.addressTableLookups) {
    const table = read(lookup.accountKey.toBase58());
    if (!table) continue;
    let addresses: string[];
    try {
      addresses = AddressLookupTableAccount.deserialize(table.data).addresses.map((a) => a.toBase58());
    } catch {
      continue;
    }
    for (const i of lookup.writableIndexes) if (addresses[i]) loaded.writable.push(addresses[i]);
    for (const i of lookup.readonlyIndexes) if (addresses[i]) loaded.readonly.push(addresses[i]);
  }
  const statics = message.staticAccountKeys.map((k) => k.toBase58());
  return { all: [...statics, ...loaded.writable, ...loaded.readonly], loaded };
}

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: UiTokenAmount;
}

export function lamportsOf(keys: readonly string[], read: AccountReader): bigint[] {
  return keys.map((key) => read(key)?.lamports ?? 0n);
}

/** The token balances among `keys`, in account order, each with its mint's decimals. */
export function tokenBalancesOf(keys: readonly string[], read: AccountReader): TokenBalance[] {
  const balances: TokenBalance[] = [];
  keys.forEach((key, accountIndex) => {
    const account = read(key);
    const token = account ? parseTokenAccount(account.owner, account.data) : null;
    if (!account || !token) return;
    const mintAccount = read(token.mint);
    const mint = mintAccount ? parseMint(mintAccount.owner, mintAccount.data) : null;
    balances.push({
      accountIndex,
      mint: token.mint,
      owner: token.owner,
      programId: account.owner,
      uiTokenAmount: uiTokenAmount(token.amount, mint?.decimals ?? 0),
    });
  });
  return balances;
}
