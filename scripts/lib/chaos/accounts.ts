/**
 * The chaos run's takers: EVM accounts of their own, derived from fixed seeds like the local keeper pool
 * (scripts/lib/evm-deploy.ts) and funded by `prepareLocalChain`, so no other local taker moves their
 * balances; on Solana the local chain's seeded takers (docs/local-stack.md, "Seeded accounts").
 */
import type { Keypair } from "@solana/web3.js";
import { keccak256, type LocalAccount, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { LOCAL_TAKER_NUMBERS, localSolanaKeypair } from "../solana-harness/accounts";

/** Public, derived from a fixed text: these keys hold value on local chains only. */
const chaosAccount = (name: string): LocalAccount => privateKeyToAccount(keccak256(toHex(`relay-chaos:${name}`)));

export const chaosEvmTakers = (count: number): LocalAccount[] =>
  Array.from({ length: count }, (_, i) => chaosAccount(`taker:${i + 1}`));

/** The taker that places the run's limit order, and nothing else, so its balances say only what that did. */
export const chaosLimitTaker = (): LocalAccount => chaosAccount("limit-taker");

/** `count` of the local chain's seeded Solana takers, from the last one down (`taker:8`, `taker:7`, …). */
export function chaosSolanaTakers(count: number): Keypair[] {
  const numbers = [...LOCAL_TAKER_NUMBERS].reverse().slice(0, count);
  if (numbers.length < count) throw new Error(`the local Solana chain has ${LOCAL_TAKER_NUMBERS.length} takers`);
  return numbers.map((n) => localSolanaKeypair(`taker:${n}`));
}
