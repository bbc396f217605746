/**
 * SPL Token state read from account data (Token and Token-2022), and token amounts in the shape the RPC
 * answers them (`UiTokenAmount`: base units as a string, decimals, and the decimal forms).
 */
import { AccountLayout, AccountState, MintLayout } from "@solana/spl-token";

export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";

const ACCOUNT_SIZE = 165;
const MINT_SIZE = 82;
/** Token-2022 accounts with extensions carry their kind right after the base account. */
const ACCOUNT_TYPE_OFFSET = 165;
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;

export function isTokenProgram(programId: string): boolean {
  return programId === TOKEN_PROGRAM || programId === TOKEN_2022_PROGRAM;
}

export interface TokenAccountState {
  mint: string;
  owner: string;
  amount: bigint;
  state: "initialized" | "frozen";
  delegate: string | null;
  delegatedAmount: bigint;
  /** The rent-exempt reserve of a wrapped SOL account, null for any other. */
  isNative: bigint | null;
  closeAuthority: string | null;
}

export interface MintState {
  mintAuthority: string | null;
  supply: bigint;
  decimals: number;
  freezeAuthority: string | null;
}

function hasKind(programId: string, data: Uint8Array, size: number, kind: number): boolean {
  if (data.length === size) return true;
  return programId === TOKEN_2022_PROGRAM && data.length > ACCOUNT_TYPE_OFFSET && data[ACCOUNT_TYPE_OFFSET] === kind;
}

/** The token account in `data`, if the account is an initialized token account of a token program. */
export function parseTokenAccount(programId: string, data: Uint8Array): TokenAccountState | null {
  if (!isTokenProgram(programId) || !hasKind(programId, data, ACCOUNT_SIZE, ACCOUNT_TYPE_ACCOUNT)) return null;
  const raw = AccountLayout.decode(Buffer.from(data.subarray(0, ACCOUNT_SIZE)));
  if (raw.state === AccountState.Uninitialized) return null;
  return {
    mint: raw.mint.toBase58(),
    owner: raw.owner.toBase58(),
    amount: raw.amount,
    state: raw.state === AccountState.Frozen ? "frozen" : "initialized",
    delegate: raw.delegateOption ? raw.delegate.toBase58() : null,
    delegatedAmount: raw.delegatedAmount,
    isNative: raw.isNativeOption ? raw.isNative : null,
    closeAuthority: raw.closeAuthorityOption ? raw.closeAuthority.toBase58() : null,
  };
}

/** The mint in `data`, if the account is an initialized mint of a token program. */
export function parseMint(programId: string, data: Uint8Array): MintState | null {
  if (!isTokenProgram(programId) || !hasKind(programId, data, MINT_SIZE, ACCOUNT_TYPE_MINT)) return null;
  const raw = MintLayout.decode(Buffer.from(data.subarray(0, MINT_SIZE)));
  if (!raw.isInitialized) return null;
  return {
    mintAuthority: raw.mintAuthorityOption ? raw.mintAuthority.toBase58() : null,
    supply: raw.supply,
    decimals: raw.decimals,
    freezeAuthority: raw.freezeAuthorityOption ? raw.freezeAuthority.toBase58() : null,
  };
}

export interface UiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

/** `amount` base units as a decimal string with `decimals` places, trailing zeros trimmed ("1.5", "0"). */
export function decimalString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const digits = amount.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, -decimals);
  const fraction = digits.slice(-decimals).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  const uiAmountString = decimalString(amount, decimals);
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}
