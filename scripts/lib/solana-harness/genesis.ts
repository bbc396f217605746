/**
 * The local chain's genesis accounts, written straight into LiteSVM before the first slot (as a test
 * validator's `--account`): SOL for the keeper, the treasury, the resolvers, the takers and the faucet;
 * the USDC and cNGN mints (6 decimals, mint and freeze authority the treasury); and associated token accounts
 * holding 1,000,000 of each token for every resolver and taker, empty ones for the keeper and treasury.
 */
import {
  ACCOUNT_SIZE,
  AccountLayout,
  AccountState,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  MintLayout,
} from "@solana/spl-token";
import { type Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import type { LiteSVM } from "litesvm";
import { type LocalSolanaAccounts, localSolanaAccounts, localSolanaKeypair } from "./accounts";
import { TOKEN_PROGRAM } from "./token-state";

export const LAMPORTS_PER_SOL = 1_000_000_000n;
export const LOCAL_TOKEN_DECIMALS = 6;
/** Each resolver and taker: 10 SOL and 1,000,000 whole units of each token. */
export const PARTICIPANT_LAMPORTS = 10n * LAMPORTS_PER_SOL;
export const PARTICIPANT_TOKENS = 1_000_000n * 10n ** BigInt(LOCAL_TOKEN_DECIMALS);
/** The keeper (pays every settlement's fees) and the treasury. */
export const OPERATOR_LAMPORTS = 1_000n * LAMPORTS_PER_SOL;
/** The faucet `requestAirdrop` pays from (the key of the name `faucet`). */
export const FAUCET_LAMPORTS = 1_000_000n * LAMPORTS_PER_SOL;

type SvmAccount = Parameters<LiteSVM["setAccount"]>[0];

function put(svm: LiteSVM, address: PublicKey, lamports: bigint, owner: PublicKey, data: Uint8Array): void {
  svm.setAccount({
    address: address.toBase58(),
    lamports,
    programAddress: owner.toBase58(),
    executable: false,
    data,
    space: BigInt(data.length),
  } as unknown as SvmAccount);
}

/** A mint's data: SPL Token, 6 decimals, `authority` its mint authority, `freezeAuthority` (none by default). */
export function mintData(authority: PublicKey, supply: bigint, freezeAuthority: PublicKey | null = null): Uint8Array {
  const data = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: 1,
      mintAuthority: authority,
      supply,
      decimals: LOCAL_TOKEN_DECIMALS,
      isInitialized: true,
      freezeAuthorityOption: freezeAuthority ? 1 : 0,
      freezeAuthority: freezeAuthority ?? PublicKey.default,
    },
    data,
  );
  return data;
}

/** A token account's data: initialized, `amount` of `mint` held by `owner`, no delegate. */
export function tokenAccountData(mint: PublicKey, owner: PublicKey, amount: bigint): Uint8Array {
  const data = Buffer.alloc(ACCOUNT_SIZE);
  AccountLayout.encode(
    {
      mint,
      owner,
      amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: AccountState.Initialized,
      isNativeOption: 0,
      isNative: 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  return data;
}

export function faucetKeypair(): Keypair {
  return localSolanaKeypair("faucet");
}

/** Writes the genesis accounts into `svm`. */
export function seedGenesis(svm: LiteSVM, accounts: LocalSolanaAccounts = localSolanaAccounts()): void {
  const tokenProgram = new PublicKey(TOKEN_PROGRAM);
  const system = SystemProgram.programId;
  const participants = [...accounts.resolvers, ...accounts.takers].map((k) => k.publicKey);
  const operators = [accounts.keeper.publicKey, accounts.treasury.publicKey];

  put(svm, faucetKeypair().publicKey, FAUCET_LAMPORTS, system, new Uint8Array());
  for (const owner of operators) put(svm, owner, OPERATOR_LAMPORTS, system, new Uint8Array());
  for (const owner of participants) put(svm, owner, PARTICIPANT_LAMPORTS, system, new Uint8Array());

  const tokenRent = svm.minimumBalanceForRentExemption(BigInt(ACCOUNT_SIZE));
  const mintRent = svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE));
  const supply = PARTICIPANT_TOKENS * BigInt(participants.length);
  for (const mintKey of [accounts.mints.USDC, accounts.mints.cNGN]) {
    const mint = mintKey.publicKey;
    // The treasury is both authorities, as a stablecoin's issuer holds both (USDC on Solana can freeze).
    const treasury = accounts.treasury.publicKey;
    put(svm, mint, mintRent, tokenProgram, mintData(treasury, supply, treasury));
    for (const owner of participants) {
      const ata = getAssociatedTokenAddressSync(mint, owner, true, tokenProgram);
      put(svm, ata, tokenRent, tokenProgram, tokenAccountData(mint, owner, PARTICIPANT_TOKENS));
    }
    for (const owner of operators) {
      const ata = getAssociatedTokenAddressSync(mint, owner, true, tokenProgram);
      put(svm, ata, tokenRent, tokenProgram, tokenAccountData(mint, owner, 0n));
    }
  }
}
