import type { SolanaChain } from "../../config";
import type { InventoryEntry } from "../../protocol";
import type { InventoryReader } from "../inventory";
import { solanaRpc } from "./rpc";
import { tokenAccount } from "./swap-transaction";
import { ACCOUNT_HEAD_BYTES, type AccountJson, tokenAccountHead } from "./token-account-head";

type Token = SolanaChain["tokens"][number];

/** The head of `account` when it is an account of `token`, kept by the token's program; null otherwise. */
function headOf(account: AccountJson | null, token: Token) {
  const head = tokenAccountHead(account);
  return head && head.program === token.tokenProgram && head.mint === token.address ? head : null;
}

/**
 * What one account holds of `token` for `owner`: the amount of a token account of that mint and owner,
 * kept by the token's program; 0 for a missing account or anything else at that address.
 */
export function heldIn(account: AccountJson | null, token: Token, owner: string): bigint {
  const head = headOf(account, token);
  return head && head.owner === owner ? head.amount : 0n;
}

/**
 * Whether `owner`'s associated account of `token` is an account of that token another key owns: its owner
 * gave it away (SPL Token `SetAuthority`, `AccountOwner`). A swap could then neither create it (the associated
 * token account program refuses an account of another owner) nor take the resolver's leg from it.
 */
export function givenAway(account: AccountJson | null, token: Token, owner: string): boolean {
  const head = headOf(account, token);
  return head !== null && head.owner !== owner;
}

/**
 * Whether `owner`'s associated account of `token` is missing: no account of that token at its address (none,
 * or closed with SPL Token's `CloseAccount`, its rent back to its owner). A swap paying the node's sale into
 * it would create it, and its rent is not the keeper's to pay (docs/security.md, "A token account closed for
 * its rent").
 */
export function missing(account: AccountJson | null, token: Token): boolean {
  return headOf(account, token) === null;
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
 * its ed25519 signature itself, so `hasCode` is always false. The corridor's tokens are both of a node's
 * accounts (the one it sells from and the one its sale is paid into); one of them that another key owns
 * sets `ownerChanged`, one that does not exist `accountMissing`, and the node is not asked either way
 * (docs/reliability.md, "Blame").
 */
export function solanaInventoryReader(chain: SolanaChain): InventoryReader {
  return async (node, addresses) => {
    const owner = node.ed25519Key;
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
    const ownerChanged = tokens.some((token, i) => givenAway(value[i] ?? null, token, owner));
    const accountMissing = tokens.some((token, i) => missing(value[i] ?? null, token));
    const entries = inventoryOfAccounts(chain, owner, tokens, value);
    return { entries, hasCode: false, ownerChanged, accountMissing };
  };
}
