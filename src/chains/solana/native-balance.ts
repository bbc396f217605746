import { rpcCall } from "../rpc-call";

/** Accounts one `getMultipleAccounts` may ask for. */
const SOLANA_ACCOUNTS_PER_CALL = 100;

/** Solana: the lamports of every account, confirmed, by `getMultipleAccounts` without data; an account that does not exist holds none. */
export async function solanaBalance(
  rpcUrl: string,
  addresses: readonly string[],
  signal: AbortSignal,
): Promise<bigint> {
  const chunks: string[][] = [];
  for (let i = 0; i < addresses.length; i += SOLANA_ACCOUNTS_PER_CALL)
    chunks.push(addresses.slice(i, i + SOLANA_ACCOUNTS_PER_CALL));
  const config = { commitment: "confirmed", encoding: "base64", dataSlice: { offset: 0, length: 0 } };
  const answers = await Promise.all(
    chunks.map((chunk) =>
      rpcCall<{ value: ({ lamports: number } | null)[] }>(rpcUrl, "getMultipleAccounts", [chunk, config], signal),
    ),
  );
  return answers.flatMap((a) => a.value).reduce((sum, account) => sum + BigInt(account?.lamports ?? 0), 0n);
}
