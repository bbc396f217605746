/**
 * Accounts as the RPC answers them (`getAccountInfo`, `getMultipleAccounts`, `getTokenAccountsByOwner`,
 * simulation accounts): data as base58 or base64, or for token accounts, mints and address lookup tables
 * `jsonParsed`.
 */
import { base58, base64 } from "@scure/base";
import { AddressLookupTableAccount, AddressLookupTableProgram } from "@solana/web3.js";
import type { AccountReader, AccountView } from "./balances";
import { invalidParams } from "./jsonrpc";
import { parseMint, parseTokenAccount, TOKEN_2022_PROGRAM, uiTokenAmount } from "./token-state";

const LOOKUP_TABLE_PROGRAM = AddressLookupTableProgram.programId.toBase58();

export type AccountEncoding = "binary" | "base58" | "base64" | "jsonParsed";

/**
 * The rent epoch of a rent-exempt account: u64::MAX, written into the JSON text as its exact digits
 * (jsonrpc.ts writes bigints so), as a Solana node does; a JS number would round it to 2^64, which
 * strict clients such as @solana/kit refuse.
 */
const RENT_EXEMPT_EPOCH = 2n ** 64n - 1n;

export interface DataSlice {
  offset: number;
  length: number;
}

export function accountEncoding(value: unknown, fallback: AccountEncoding): AccountEncoding {
  if (value === undefined || value === null) return fallback;
  if (value === "binary" || value === "base58" || value === "base64" || value === "jsonParsed") return value;
  throw invalidParams(`unsupported encoding: ${String(value)}. Supported encodings: base58, base64, jsonParsed`);
}

export function dataSlice(value: unknown): DataSlice | undefined {
  if (value === undefined || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!Number.isInteger(v.offset) || !Number.isInteger(v.length))
    throw invalidParams("dataSlice needs offset and length");
  return { offset: v.offset as number, length: v.length as number };
}

/** The `parsed` member of a token account or mint, null for any other account. */
export function parsedTokenData(account: AccountView, read: AccountReader): Record<string, unknown> | null {
  const program = account.owner === TOKEN_2022_PROGRAM ? "spl-token-2022" : "spl-token";
  const token = parseTokenAccount(account.owner, account.data);
  if (token) {
    const mintAccount = read(token.mint);
    const decimals = (mintAccount && parseMint(mintAccount.owner, mintAccount.data)?.decimals) ?? 0;
    const info: Record<string, unknown> = {
      isNative: token.isNative !== null,
      mint: token.mint,
      owner: token.owner,
      state: token.state,
      tokenAmount: uiTokenAmount(token.amount, decimals),
    };
    if (token.delegate !== null) {
      info.delegate = token.delegate;
      info.delegatedAmount = uiTokenAmount(token.delegatedAmount, decimals);
    }
    if (token.isNative !== null) info.rentExemptReserve = uiTokenAmount(token.isNative, decimals);
    if (token.closeAuthority !== null) info.closeAuthority = token.closeAuthority;
    return { program, parsed: { type: "account", info }, space: account.data.length };
  }
  const mint = parseMint(account.owner, account.data);
  if (mint) {
    const info = {
      decimals: mint.decimals,
      freezeAuthority: mint.freezeAuthority,
      isInitialized: true,
      mintAuthority: mint.mintAuthority,
      supply: mint.supply.toString(),
    };
    return { program, parsed: { type: "mint", info }, space: account.data.length };
  }
  return null;
}

/**
 * The `parsed` member of an address lookup table, null for any other account. Clients resolve a v0
 * transaction's lookups from it (`@solana/kit` fetches the tables `jsonParsed`); its slots are u64s, so
 * they are strings, as validators write them.
 */
export function parsedLookupTable(account: AccountView): Record<string, unknown> | null {
  if (account.owner !== LOOKUP_TABLE_PROGRAM) return null;
  let table: AddressLookupTableAccount["state"];
  try {
    table = AddressLookupTableAccount.deserialize(account.data);
  } catch {
    return null;
  }
  const info: Record<string, unknown> = {
    deactivationSlot: table.deactivationSlot.toString(),
    lastExtendedSlot: table.lastExtendedSlot.toString(),
    lastExtendedSlotStartIndex: table.lastExtendedSlotStartIndex,
  };
  if (table.authority) info.authority = table.authority.toBase58();
  info.addresses = table.addresses.map((address) => address.toBase58());
  return { program: "address-lookup-table", parsed: { type: "lookupTable", info }, space: account.data.length };
}

export function accountJson(
  account: AccountView,
  encoding: AccountEncoding,
  read: AccountReader,
  slice?: DataSlice,
): Record<string, unknown> {
  const bytes = slice ? account.data.subarray(slice.offset, slice.offset + slice.length) : account.data;
  let data: unknown;
  if (encoding === "jsonParsed") {
    data = parsedTokenData(account, read) ?? parsedLookupTable(account) ?? [base64.encode(bytes), "base64"];
  } else if (encoding === "base64") data = [base64.encode(bytes), "base64"];
  else if (encoding === "base58") data = [base58.encode(bytes), "base58"];
  else data = base58.encode(bytes);
  return {
    data,
    executable: account.executable,
    lamports: account.lamports,
    owner: account.owner,
    rentEpoch: RENT_EXEMPT_EPOCH,
    space: account.data.length,
  };
}
