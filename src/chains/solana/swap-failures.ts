import { blamed } from "../../blame";
import type { SwapTransfer } from "./swap-transfers";

/** A transaction error as Solana's JSON-RPC spells it: `"BlockhashNotFound"`, `{"InstructionError":[4,{"Custom":1}]}`. */
export type TransactionErrorJson = string | Record<string, unknown>;

/** SPL Token's `TokenError::InsufficientFunds`. */
const TOKEN_INSUFFICIENT_FUNDS = 1;
/**
 * What the token program answers for a source account that does not exist (the runtime hands it an
 * empty system account): it holds nothing, so it is counted as too little balance.
 */
const MISSING_ACCOUNT_ERRORS = new Set(["InvalidAccountData", "UninitializedAccount", "InvalidAccountOwner"]);

function instructionErrorOf(err: TransactionErrorJson): [number, unknown] | null {
  if (typeof err !== "object" || err === null) return null;
  const value = (err as { InstructionError?: unknown }).InstructionError;
  if (!Array.isArray(value) || typeof value[0] !== "number") return null;
  return [value[0], value[1]];
}

function instructionErrorName(inner: unknown): string {
  if (typeof inner === "string") return inner;
  if (inner && typeof inner === "object") {
    const [name, value] = Object.entries(inner)[0] ?? ["unknown", undefined];
    return name === "Custom" ? `Custom(${String(value)})` : name;
  }
  return "unknown";
}

/** The reason of a swap its fee payer (the keeper) cannot pay for. */
export const KEEPER_INSUFFICIENT_FUNDS = "keeper_insufficient_funds";
/** The transaction errors that mean the fee payer cannot pay: missing, or short for the fee or the rent. */
const KEEPER_CANNOT_PAY = new Set(["AccountNotFound", "InsufficientFundsForFee", "InsufficientFundsForRent"]);

/** A short, stable name for a transaction error: `BlockhashNotFound`, `instruction_4:Custom(1)`. */
export function shortTransactionError(err: TransactionErrorJson): string {
  if (typeof err === "string") return err;
  const instruction = instructionErrorOf(err);
  if (instruction) return `instruction_${instruction[0]}:${instructionErrorName(instruction[1])}`;
  return Object.keys(err)[0] ?? "unknown";
}

/** Whether a failed transfer failed because its source holds too little, or does not exist. */
function isShortOfFunds(inner: unknown, logs: string[]): boolean {
  if (inner && typeof inner === "object" && (inner as { Custom?: unknown }).Custom === TOKEN_INSUFFICIENT_FUNDS) {
    return true;
  }
  if (typeof inner === "string" && MISSING_ACCOUNT_ERRORS.has(inner)) return true;
  // The token program logs its error's text as it fails; a failed simulation stops at that instruction.
  return logs.some((line) => line === "Program log: Error: insufficient funds");
}

/**
 * The requote reason for a swap whose simulation failed (docs/settlement.md, "The keeper's steps on
 * Solana"). `transfers` are the transaction's legs (`swapTransfers`): an `InstructionError` at a
 * transfer's index is that leg's, and the leg's `from` says whose: the first leg's (`proceeds`) is the
 * taker, any other `from` the resolver.
 * - a leg of the taker's whose source is short or missing: `taker:insufficient_balance`;
 * - a leg of the resolver's whose source is short or missing: `resolver:insufficient_balance`;
 * - `BlockhashNotFound`: `taker:blockhash_expired` (the quote's blockhash aged out before it was sent);
 * - the fee payer missing or short of SOL for the fee or the rent of the accounts the swap creates:
 *   `keeper_insufficient_funds` (the keeper pays both; no taker or resolver can fix it);
 * - anything else names no party's shortfall, so it is the relay's: `relay:simulation_failed:<shortTransactionError>`.
 */
export function simulationFailureReason(err: TransactionErrorJson, logs: string[], transfers: SwapTransfer[]): string {
  if (err === "BlockhashNotFound") return "taker:blockhash_expired";
  if (KEEPER_CANNOT_PAY.has(shortTransactionError(err))) return KEEPER_INSUFFICIENT_FUNDS;
  const instruction = instructionErrorOf(err);
  if (instruction) {
    const [index, inner] = instruction;
    const leg = transfers.find((t) => t.index === index);
    const taker = transfers[0]?.from;
    if (leg && isShortOfFunds(inner, logs)) {
      return blamed(leg.from === taker ? "taker" : "resolver", "insufficient_balance");
    }
  }
  return blamed("relay", `simulation_failed:${shortTransactionError(err)}`);
}
