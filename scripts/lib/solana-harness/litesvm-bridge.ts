/**
 * What crosses between the harness and LiteSVM: transactions handed over in the shape LiteSVM's Node API
 * takes (the signed message bytes and the signatures by signer, which it re-encodes to the same wire
 * bytes), and its results turned into the RPC's JSON terms.
 */

import { base58, base64 } from "@scure/base";
import { FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from "litesvm";
import {
  InstructionErrorBorshIo,
  InstructionErrorCustom,
  TransactionErrorDuplicateInstruction,
  TransactionErrorInstructionError,
  TransactionErrorInsufficientFundsForRent,
} from "litesvm/dist/internal";
import {
  fieldlessInstructionError,
  fieldlessTransactionError,
  type InstructionErrorJson,
  type TransactionErrorJson,
} from "./tx-errors";
import type { WireTransaction } from "./wire";

export type SvmTransaction = Parameters<LiteSVM["sendTransaction"]>[0];
export type SvmAddress = Parameters<LiteSVM["getAccount"]>[0];
export type SvmResult = ReturnType<LiteSVM["sendTransaction"]>;

/** A base58 address as LiteSVM's API types it. */
export function svmAddress(address: string): SvmAddress {
  return address as SvmAddress;
}

/** The transaction as LiteSVM's `sendTransaction` and `simulateTransaction` take it. */
export function svmTransaction(wire: WireTransaction): SvmTransaction {
  const keys = wire.tx.message.staticAccountKeys;
  const signatures: Record<string, Uint8Array> = {};
  wire.tx.signatures.forEach((signature, i) => {
    // parseTransaction checked there is a distinct signer key for every signature.
    signatures[keys[i]?.toBase58() ?? ""] = signature;
  });
  return { messageBytes: wire.messageBytes, signatures } as unknown as SvmTransaction;
}

function instructionErrorJson(err: ReturnType<TransactionErrorInstructionError["err"]>): InstructionErrorJson {
  if (err instanceof InstructionErrorCustom) return { Custom: err.code };
  if (err instanceof InstructionErrorBorshIo) return { BorshIoError: err.msg };
  return fieldlessInstructionError(err as number);
}

export function transactionErrorJson(err: ReturnType<FailedTransactionMetadata["err"]>): TransactionErrorJson {
  if (typeof err === "number") return fieldlessTransactionError(err);
  if (err instanceof TransactionErrorInstructionError) {
    return { InstructionError: [err.index, instructionErrorJson(err.err())] };
  }
  if (err instanceof TransactionErrorDuplicateInstruction) return { DuplicateInstruction: err.index };
  if (err instanceof TransactionErrorInsufficientFundsForRent) {
    return { InsufficientFundsForRent: { account_index: err.accountIndex } };
  }
  return { ProgramExecutionTemporarilyRestricted: { account_index: err.accountIndex } };
}

export interface CompiledInstructionJson {
  programIdIndex: number;
  accounts: number[];
  data: string;
  stackHeight: number | null;
}

export interface InnerInstructionsJson {
  index: number;
  instructions: CompiledInstructionJson[];
}

export interface ReturnDataJson {
  programId: string;
  data: [string, "base64"];
}

/** What running a transaction produced, in the RPC's terms. */
export interface Execution {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: number;
  innerInstructions: InnerInstructionsJson[];
  returnData: ReturnDataJson | null;
}

function metaOf(meta: TransactionMetadata, err: TransactionErrorJson | null): Execution {
  const innerInstructions = meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return {
          programIdIndex: ix.programIdIndex(),
          accounts: [...ix.accounts()],
          data: base58.encode(ix.data()),
          stackHeight: inner.stackHeight(),
        };
      }),
    }))
    .filter((entry) => entry.instructions.length > 0);
  const returned = meta.returnData();
  const data = returned.data();
  return {
    err,
    logs: meta.logs(),
    unitsConsumed: Number(meta.computeUnitsConsumed()),
    innerInstructions,
    returnData:
      data.length === 0
        ? null
        : { programId: base58.encode(returned.programId()), data: [base64.encode(data), "base64"] },
  };
}

export function executionOf(result: SvmResult | FailedTransactionMetadata): Execution {
  if (result instanceof FailedTransactionMetadata) return metaOf(result.meta(), transactionErrorJson(result.err()));
  return metaOf(result, null);
}

export function failed(result: unknown): result is FailedTransactionMetadata {
  return result instanceof FailedTransactionMetadata;
}
