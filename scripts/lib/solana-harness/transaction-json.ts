/**
 * Landed transactions as `getTransaction` answers them: `json` (compiled instructions, account indexes),
 * `jsonParsed` (account keys annotated, instructions with their accounts named; no program's instructions
 * are parsed further) or the wire bytes in base58/base64; with the metadata validators keep.
 */
import { base58, base64 } from "@scure/base";
import { invalidParams, RpcError } from "./jsonrpc";
import type { LandedTransaction } from "./ledger";
import type { CompiledInstructionJson, InnerInstructionsJson } from "./litesvm-bridge";

export type TransactionEncoding = "json" | "jsonParsed" | "base58" | "base64";

/** The code validators answer a transaction version above what the client said it supports with. */
export const UNSUPPORTED_TRANSACTION_VERSION = -32015;

export function transactionEncoding(value: unknown): TransactionEncoding {
  if (value === undefined || value === null) return "json";
  if (value === "json" || value === "jsonParsed" || value === "base58" || value === "base64") return value;
  throw invalidParams(`unsupported encoding: ${String(value)}. Supported encodings: json, jsonParsed, base58, base64`);
}

/** `version` of the answer: omitted for clients that name no supported version (legacy only). */
export function versionField(
  version: "legacy" | number,
  maxSupported: number | undefined,
): "legacy" | number | undefined {
  const numeric = version === "legacy" ? -1 : version;
  if (numeric > (maxSupported ?? -1)) {
    throw new RpcError(
      UNSUPPORTED_TRANSACTION_VERSION,
      `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
    );
  }
  return maxSupported === undefined ? undefined : version;
}

export function partiallyDecoded(ix: CompiledInstructionJson, keys: readonly string[]) {
  return {
    programId: keys[ix.programIdIndex] ?? "",
    accounts: ix.accounts.map((i) => keys[i] ?? ""),
    data: ix.data,
    stackHeight: ix.stackHeight,
  };
}

export function parsedInnerInstructions(inner: readonly InnerInstructionsJson[], keys: readonly string[]) {
  return inner.map((entry) => ({
    index: entry.index,
    instructions: entry.instructions.map((ix) => partiallyDecoded(ix, keys)),
  }));
}

function compiledInstructions(tx: LandedTransaction): CompiledInstructionJson[] {
  return tx.wire.tx.message.compiledInstructions.map((ix) => ({
    programIdIndex: ix.programIdIndex,
    accounts: [...ix.accountKeyIndexes],
    data: base58.encode(ix.data),
    stackHeight: null,
  }));
}

function lookupsJson(tx: LandedTransaction) {
  if (tx.wire.version === "legacy") return {};
  return {
    addressTableLookups: tx.wire.tx.message.addressTableLookups.map((l) => ({
      accountKey: l.accountKey.toBase58(),
      writableIndexes: [...l.writableIndexes],
      readonlyIndexes: [...l.readonlyIndexes],
    })),
  };
}

function transactionPart(tx: LandedTransaction, encoding: TransactionEncoding): unknown {
  if (encoding === "base64") return [base64.encode(tx.wire.bytes), "base64"];
  if (encoding === "base58") return [base58.encode(tx.wire.bytes), "base58"];
  const message = tx.wire.tx.message;
  const signatures = tx.wire.tx.signatures.map((s) => base58.encode(s));
  const statics = message.staticAccountKeys.length;
  if (encoding === "jsonParsed") {
    const accountKeys = tx.accountKeys.map((pubkey, i) => ({
      pubkey,
      signer: message.isAccountSigner(i),
      writable: message.isAccountWritable(i),
      source: i < statics ? "transaction" : "lookupTable",
    }));
    const instructions = compiledInstructions(tx).map((ix) => partiallyDecoded(ix, tx.accountKeys));
    return {
      signatures,
      message: { accountKeys, recentBlockhash: message.recentBlockhash, instructions, ...lookupsJson(tx) },
    };
  }
  return {
    signatures,
    message: {
      header: message.header,
      accountKeys: tx.accountKeys.slice(0, statics),
      recentBlockhash: message.recentBlockhash,
      instructions: compiledInstructions(tx),
      ...lookupsJson(tx),
    },
  };
}

function metaPart(tx: LandedTransaction, encoding: TransactionEncoding) {
  const { execution } = tx;
  const parsed = encoding === "jsonParsed";
  return {
    err: execution.err,
    status: execution.err === null ? { Ok: null } : { Err: execution.err },
    fee: tx.fee,
    preBalances: tx.preBalances,
    postBalances: tx.postBalances,
    innerInstructions: parsed
      ? parsedInnerInstructions(execution.innerInstructions, tx.accountKeys)
      : execution.innerInstructions,
    logMessages: execution.logs,
    preTokenBalances: tx.preTokenBalances,
    postTokenBalances: tx.postTokenBalances,
    rewards: [],
    ...(parsed ? {} : { loadedAddresses: tx.loadedAddresses }),
    computeUnitsConsumed: execution.unitsConsumed,
    ...(execution.returnData ? { returnData: execution.returnData } : {}),
  };
}

export function transactionJson(
  tx: LandedTransaction,
  encoding: TransactionEncoding,
  maxSupportedVersion: number | undefined,
): Record<string, unknown> {
  const version = versionField(tx.wire.version, maxSupportedVersion);
  return {
    slot: tx.slot,
    blockTime: tx.blockTime,
    transaction: transactionPart(tx, encoding),
    meta: metaPart(tx, encoding),
    ...(version === undefined ? {} : { version }),
  };
}
