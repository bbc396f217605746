import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { PublicKey } from "@solana/web3.js";
import { SolanaRpcError, solanaRpc } from "../../chains/solana/rpc";
import type { InventorySource } from "./inventory";
import { sameToken } from "./pricing";

/** What a token account balance read needs of a token: its mint and the program that owns its accounts. */
export interface SplToken {
  address: string;
  tokenProgram: string;
}

/** JSON-RPC's answer for an account that is missing or not a token account: "Invalid params". */
const INVALID_PARAMS = -32602;

/**
 * The balance (base units) of `owner`'s associated token account for `token`, by `getTokenAccountBalance`;
 * 0 when that account does not exist, as a validator answers -32602 for it. Any other failure throws.
 */
export async function splBalance(rpcUrl: string, owner: string, token: SplToken): Promise<bigint> {
  const account = getAssociatedTokenAddressSync(
    new PublicKey(token.address),
    new PublicKey(owner),
    true,
    new PublicKey(token.tokenProgram),
  );
  try {
    const { value } = await solanaRpc<{ value: { amount: string } }>(rpcUrl, "getTokenAccountBalance", [
      account.toBase58(),
      { commitment: "confirmed" },
    ]);
    return BigInt(value.amount);
  } catch (e) {
    if (e instanceof SolanaRpcError && e.code === INVALID_PARAMS) return 0n;
    throw e;
  }
}

/**
 * Live SPL inventory of `owner` (base58) on a Solana chain: the balance of its associated token account
 * of each token. The allowance reported is the balance, since a Solana swap moves the resolver's tokens
 * by its own signature on the transaction, with no approval to anyone (docs/reference-resolver.md).
 */
export function solanaRpcInventory(options: { rpcUrl: string; owner: string }): InventorySource {
  return {
    read: (chain, tokens) =>
      Promise.all(
        tokens.map(async (address) => {
          const token = chain.solana?.tokens.find((t) => sameToken(t.address, address));
          if (!token) throw new Error(`${address} is not a token of Solana chain ${chain.chainId}`);
          const balance = (await splBalance(options.rpcUrl, options.owner, token)).toString();
          return { chainId: chain.chainId, token: address, balance, allowance: balance };
        }),
      ),
  };
}
