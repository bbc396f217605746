import { solanaRpc } from "./rpc";
import type { SwapCreation } from "./swap-creations";
import { ACCOUNT_HEAD_BYTES, type AccountJson, tokenAccountHead } from "./token-account-head";

/**
 * Which of the accounts a swap `creations` makes the chain shows owned by another key than the one each
 * is derived for (its owner gave it away with SPL Token's `SetAuthority`), from one `getMultipleAccounts` of
 * their heads at `confirmed` (docs/settlement.md, "The keeper's steps on Solana"): what names the party of
 * a creation the associated token account program refused. Throws `ChainUnavailableError` when the RPC
 * does not answer.
 */
export async function accountsGivenAway(rpcUrl: string, creations: readonly SwapCreation[]): Promise<Set<string>> {
  if (creations.length === 0) return new Set();
  const { value } = await solanaRpc<{ value: (AccountJson | null)[] }>(rpcUrl, "getMultipleAccounts", [
    creations.map((c) => c.account),
    { commitment: "confirmed", encoding: "base64", dataSlice: { offset: 0, length: ACCOUNT_HEAD_BYTES } },
  ]);
  const given = new Set<string>();
  creations.forEach((creation, i) => {
    const head = tokenAccountHead(value[i] ?? null);
    if (head && head.mint === creation.mint && head.owner !== creation.owner) given.add(creation.account);
  });
  return given;
}
