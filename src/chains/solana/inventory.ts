import { base64 } from "@scure/base";
import { PublicKey } from "@solana/web3.js";
import type { SolanaChain } from "../../config";
import type { InventoryEntry } from "../../protocol";
import type { InventoryReader } from "../inventory";
import { solanaRpc } from "./rpc";
import { tokenAccount } from "./swap-transaction";

/** The start of every SPL Token (and Token-2022) account: mint (32 bytes), owner (32), amount (u64 LE). */
const ACCOUNT_HEAD_BYTES = 72;
const AMOUNT_OFFSET = 64;

/** An account of a `getMultipleAccounts` answer (`encoding: "base64"`), or null where there is none. */
export interface AccountJson {
  owner: string;
  data: [string, string];
}

type Token = SolanaChain["tokens"][number];

/**
 * What one account holds of `token` for `owner`: the amount of a token account of that mint and owner,
 * kept by the token's program; 0 for a missing account or anything else at that address.
 */
export function heldIn(account: AccountJson | null, token: Token, owner: string): bigint {
  if (!account || account.owner !== token.tokenProgram) return 0n;
  const data = base64.decode(account.data[0]);
  if (data.length < ACCOUNT_HEAD_BYTES) return 0n;
  const mint = new PublicKey(data.subarray(0, 32)).toBase58();
  const holder = new PublicKey(data.subarray(32, 64)).toBase58();
  if (mint !== token.address || holder !== owner) return 0n;
  return new DataView(data.buffer, data.byteOffset + AMOUNT_OFFSET, 8).getBigUint64(0, true);
}

/**
 * The inventory `getMultipleAccounts`'s answer shows, token by token in the order asked. `allowance` is
 * the balance: the resolver signs its own transfer in the swap, so it approves nobody, and all its
 * account holds is what a fill can move (docs/resolver-protocol.md, "Inventory checked on chain").
 */
export function inventoryOfAccounts(
  chain: SolanaChain,
  owner: string,
  tokens: readonly Token[],
  accounts: readonly (AccountJson | null)[],
): InventoryEntry[] {
  if (accounts.length !== tokens.length) throw new Error("getMultipleAccounts answered another number of accounts");
  return tokens.map((token, i) => {
    const balance = heldIn(accounts[i] ?? null, token, owner).toString();
    return { chainId: chain.chainId, token: token.address, balance, allowance: balance };
  });
}

/**
 * A node's SPL balances on a Solana chain, read from its proved Solana key's associated token account of
 * each token (the accounts the swap's resolver legs move from), all in one `getMultipleAccounts` at
 * `confirmed`. A node that proved no Solana key holds nothing the relay could move: no entries, so it is
 * not asked and never flagged for claims it cannot back. A Solana key is never code: the runtime checks
 * its ed25519 signature itself, so `hasCode` is always false.
 */
export function solanaInventoryReader(chain: SolanaChain): InventoryReader {
  return async (node, addresses) => {
    const owner = node.solanaAddress;
    if (owner === null) return { entries: [], hasCode: false };
    const tokens = addresses.map((address) => {
      const token = chain.tokens.find((t) => t.address === address);
      if (!token) throw new Error(`${address} is not a token of ${chain.name}`);
      return token;
    });
    const { value } = await solanaRpc<{ value: (AccountJson | null)[] }>(chain.rpcUrl, "getMultipleAccounts", [
      tokens.map((t) => tokenAccount(t, owner).toBase58()),
      { commitment: "confirmed", encoding: "base64", dataSlice: { offset: 0, length: ACCOUNT_HEAD_BYTES } },
    ]);
    return { entries: inventoryOfAccounts(chain, owner, tokens, value), hasCode: false };
  };
}
