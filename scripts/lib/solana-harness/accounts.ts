/**
 * The local Solana chain's accounts, derived from fixed seeds so every run, test and script finds the same
 * addresses: `Keypair.fromSeed(sha256(utf8("relay-local-solana:" + name)))`. None of them holds value
 * outside the local chain (docs/local-stack.md, "The local Solana chain").
 */
import { createHash } from "node:crypto";
import { Keypair } from "@solana/web3.js";

export const LOCAL_SOLANA_SEED_PREFIX = "relay-local-solana:";

/** The resolvers' and the takers' numbers, as on the local EVM chain (anvil accounts #1–#4 and #5–#8). */
export const LOCAL_RESOLVER_NUMBERS = [1, 2, 3, 4] as const;
export const LOCAL_TAKER_NUMBERS = [5, 6, 7, 8] as const;

/** The key of a named local account, e.g. `keeper`, `mint:USDC`, `resolver:1`, `taker:5`. */
export function localSolanaKeypair(name: string): Keypair {
  const seed = createHash("sha256").update(`${LOCAL_SOLANA_SEED_PREFIX}${name}`, "utf8").digest();
  return Keypair.fromSeed(seed);
}

export interface LocalSolanaAccounts {
  /** Pays and signs every settlement. */
  keeper: Keypair;
  /** Receives the relay's fee; also the mint authority of both local tokens. */
  treasury: Keypair;
  /** The mint accounts' own keys (their addresses are the tokens' addresses). */
  mints: { USDC: Keypair; cNGN: Keypair };
  /** `resolver:1` … `resolver:4`, in that order. */
  resolvers: Keypair[];
  /** `taker:5` … `taker:8`, in that order. */
  takers: Keypair[];
}

export function localSolanaAccounts(): LocalSolanaAccounts {
  return {
    keeper: localSolanaKeypair("keeper"),
    treasury: localSolanaKeypair("treasury"),
    mints: { USDC: localSolanaKeypair("mint:USDC"), cNGN: localSolanaKeypair("mint:cNGN") },
    resolvers: LOCAL_RESOLVER_NUMBERS.map((n) => localSolanaKeypair(`resolver:${n}`)),
    takers: LOCAL_TAKER_NUMBERS.map((n) => localSolanaKeypair(`taker:${n}`)),
  };
}
