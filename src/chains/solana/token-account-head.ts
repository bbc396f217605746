import { base64 } from "@scure/base";
import { PublicKey } from "@solana/web3.js";

/** The start of every SPL Token (and Token-2022) account: mint (32 bytes), owner (32), amount (u64 LE). */
export const ACCOUNT_HEAD_BYTES = 72;
const AMOUNT_OFFSET = 64;

/** An account of a `getMultipleAccounts` answer (`encoding: "base64"`), or null where there is none. */
export interface AccountJson {
  /** The program that keeps it. */
  owner: string;
  data: [string, string];
}

/** What the head of a token account says: its program, mint, owner (the key that signs for it) and amount. */
export interface TokenAccountHead {
  program: string;
  mint: string;
  owner: string;
  amount: bigint;
}

/** The head of a token account read with a data slice from 0 of at least ACCOUNT_HEAD_BYTES; null for none or less. */
export function tokenAccountHead(account: AccountJson | null): TokenAccountHead | null {
  if (!account) return null;
  const data = base64.decode(account.data[0]);
  if (data.length < ACCOUNT_HEAD_BYTES) return null;
  return {
    program: account.owner,
    mint: new PublicKey(data.subarray(0, 32)).toBase58(),
    owner: new PublicKey(data.subarray(32, 64)).toBase58(),
    amount: new DataView(data.buffer, data.byteOffset + AMOUNT_OFFSET, 8).getBigUint64(0, true),
  };
}
