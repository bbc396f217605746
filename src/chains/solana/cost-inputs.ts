import { base64 } from "@scure/base";
import { PublicKey, TransactionMessage } from "@solana/web3.js";
import { solanaRpc } from "./rpc";

/**
 * The chain inputs of a Solana fill's cost that change slowly, read in the background (docs/settlement.md,
 * "What a Solana fill costs"): what a signature costs and what a token account's rent is.
 */

/** The size of an SPL token account; its rent-exempt minimum is what creating one costs its payer. */
export const TOKEN_ACCOUNT_BYTES = 165;

/**
 * Lamports per signature: `getFeeForMessage` of a message `payer` alone signs, with no instruction (so
 * no priority fee), built on the latest blockhash, since the node prices only a message it could land.
 * Two calls; throws when either fails or the node no longer knows the blockhash (errors as `solanaRpc`'s).
 */
export async function readLamportsPerSignature(rpcUrl: string, payer: string): Promise<bigint> {
  const { value: latest } = await solanaRpc<{ value: { blockhash: string } }>(rpcUrl, "getLatestBlockhash", [
    { commitment: "confirmed" },
  ]);
  const message = new TransactionMessage({
    payerKey: new PublicKey(payer),
    recentBlockhash: latest.blockhash,
    instructions: [],
  }).compileToV0Message();
  const { value } = await solanaRpc<{ value: number | null }>(rpcUrl, "getFeeForMessage", [
    base64.encode(message.serialize()),
    { commitment: "confirmed" },
  ]);
  if (value === null) throw new Error("getFeeForMessage: the node no longer knows the blockhash");
  return BigInt(value);
}

/** The rent-exempt minimum of a token account, in lamports: what the keeper pays for each one a swap creates. */
export async function readTokenAccountRent(rpcUrl: string): Promise<bigint> {
  const lamports = await solanaRpc<number>(rpcUrl, "getMinimumBalanceForRentExemption", [
    TOKEN_ACCOUNT_BYTES,
    { commitment: "confirmed" },
  ]);
  return BigInt(lamports);
}
