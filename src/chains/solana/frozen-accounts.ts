import { base64 } from "@scure/base";
import { solanaRpc } from "./rpc";

/**
 * Where a token account keeps its state (SPL Token's layout, which Token-2022 accounts begin with): after
 * the mint (32 bytes), the owner (32), the amount (8) and the delegate (4 + 32). 2 is `Frozen`.
 */
const STATE_OFFSET = 108;
const FROZEN = 2;

/**
 * Which of `accounts` the chain shows frozen, from one `getMultipleAccounts` of the state byte alone at
 * `confirmed` (docs/settlement.md, "The keeper's steps on Solana"): what names the party of a transfer the
 * token program refused as `AccountFrozen`. Throws `ChainUnavailableError` when the RPC does not answer.
 */
export async function frozenAccounts(rpcUrl: string, accounts: readonly string[]): Promise<Set<string>> {
  if (accounts.length === 0) return new Set();
  const { value } = await solanaRpc<{ value: ({ data: [string, string] } | null)[] }>(rpcUrl, "getMultipleAccounts", [
    accounts,
    { commitment: "confirmed", encoding: "base64", dataSlice: { offset: STATE_OFFSET, length: 1 } },
  ]);
  const frozen = new Set<string>();
  value.forEach((account, i) => {
    const address = accounts[i];
    if (account && address && base64.decode(account.data[0])[0] === FROZEN) frozen.add(address);
  });
  return frozen;
}
