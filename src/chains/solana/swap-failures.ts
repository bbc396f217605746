import { blamed } from "../../states";
import type { SwapCreation } from "./swap-creations";
import type { SwapTransfer } from "./swap-transfers";

/** What of a swap transaction a failure is read against: its transfers (the legs) and its account creations. */
export interface SwapInstructions {
  transfers: SwapTransfer[];
  creations: SwapCreation[];
}

/** A transaction error as Solana's JSON-RPC spells it: `"BlockhashNotFound"`, `{"InstructionError":[4,{"Custom":1}]}`. */
export type TransactionErrorJson = string | Record<string, unknown>;

/** SPL Token's `TokenError::InsufficientFunds`. */
const TOKEN_INSUFFICIENT_FUNDS = 1;
/** SPL Token's `TokenError::OwnerMismatch`: the source's owner is no longer the key that signed the leg. */
const TOKEN_OWNER_MISMATCH = 4;
/** SPL Token's `TokenError::AccountFrozen`: the transfer's source or destination is frozen. */
const TOKEN_ACCOUNT_FROZEN = 17;
/**
 * The associated token account program's `InvalidOwner`, from `CreateIdempotent`: the account exists and
 * another key owns it (its owner gave it away with SPL Token's `SetAuthority`).
 */
const ATA_INVALID_OWNER = 0;
/**
 * The system program's `ResultWithNegativeLamports`, from `CreateIdempotent`'s call to it for a missing
 * account: the creation's payer holds less than the account's rent.
 */
const SYSTEM_SHORT_OF_RENT = 1;
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

const customOf = (inner: unknown): unknown =>
  inner && typeof inner === "object" ? (inner as { Custom?: unknown }).Custom : undefined;

/** The failed `TransferChecked` of a transaction error and what it failed with; null for any other error. */
function failedTransfer(err: TransactionErrorJson, transfers: SwapTransfer[]) {
  const instruction = instructionErrorOf(err);
  const leg = instruction ? transfers.find((t) => t.index === instruction[0]) : undefined;
  return instruction && leg ? { leg, inner: instruction[1] } : null;
}

/**
 * The token accounts whose state says whose a failure is: a transfer refused because its source or its
 * destination is frozen names neither, so both are read (`frozenAccounts`). None for any other failure.
 */
export function frozenSuspects(err: TransactionErrorJson, { transfers }: SwapInstructions): string[] {
  const failed = failedTransfer(err, transfers);
  if (!failed || customOf(failed.inner) !== TOKEN_ACCOUNT_FROZEN) return [];
  return [failed.leg.source, failed.leg.destination];
}

/**
 * Whose a leg's frozen account is, and the reason (docs/reliability.md, "Blame"), as the EVM contracts name
 * a leg whose token refused it: its source is its payer's (`taker:` or `resolver:transfer_failed`); its
 * destination is the resolver's for the sale (`proceeds`, always the first leg), the recipient's the taker
 * named for the output (`received`, always the second: a quote's output is never all fees) — so
 * `taker:recipient_refused` — and the treasury's or the keeper's for a fee (`relay:fee_transfer_failed`).
 */
function frozenLegReason(leg: SwapTransfer, transfers: SwapTransfer[], frozen: ReadonlySet<string>): string | null {
  const taker = transfers[0]?.from;
  if (frozen.has(leg.source)) return blamed(leg.from === taker ? "taker" : "resolver", "transfer_failed");
  if (!frozen.has(leg.destination)) return null;
  if (leg === transfers[0]) return blamed("resolver", "transfer_failed");
  if (leg === transfers[1]) return blamed("taker", "recipient_refused");
  return blamed("relay", "fee_transfer_failed");
}

/**
 * Whose a destination account is that the swap could not create because another key owns it
 * (docs/reliability.md, "Blame"), by the parties of the legs as `frozenLegReason` names them: an account
 * derived for the resolver's key (the one the sale is paid into) is the resolver's, `resolver:transfer_failed`;
 * the recipient's account of the output (the second leg's destination) the taker's, `taker:recipient_refused`;
 * the treasury's or the keeper's for a fee the relay's, `relay:fee_transfer_failed`. Null for an account no
 * leg pays into.
 */
function givenAwayReason(created: SwapCreation, transfers: SwapTransfer[]): string | null {
  const [, received, ...fees] = transfers;
  if (created.owner === received?.from) return blamed("resolver", "transfer_failed");
  if (created.account === received?.destination) return blamed("taker", "recipient_refused");
  if (fees.some((fee) => fee.destination === created.account)) return blamed("relay", "fee_transfer_failed");
  return null;
}

/** The creation a transaction error says failed with the custom error `code`; null otherwise. */
function failedCreation(err: TransactionErrorJson, creations: SwapCreation[], code: number): SwapCreation | null {
  const instruction = instructionErrorOf(err);
  if (!instruction || customOf(instruction[1]) !== code) return null;
  return creations.find((c) => c.index === instruction[0]) ?? null;
}

/**
 * Whether the swap failed creating the resolver's own account (one it pays for, the payer being the key of
 * its legs: only the account its sale is paid into, closed after its inventory read) because the resolver
 * holds less than the rent: its own shortfall, as a short leg is (docs/security.md, "A token account closed
 * for its rent").
 */
function resolverShortOfRent(err: TransactionErrorJson, { transfers, creations }: SwapInstructions): boolean {
  const created = failedCreation(err, creations, SYSTEM_SHORT_OF_RENT);
  return created !== null && created.payer === transfers[1]?.from;
}

/**
 * The account whose owner says whose a failure is: a creation refused as `InvalidOwner` (the code a program
 * it calls could answer too), so the chain is asked whether another key owns it (`accountsGivenAway`).
 * None for any other failure.
 */
export function givenAwaySuspects(err: TransactionErrorJson, { creations }: SwapInstructions): SwapCreation[] {
  const created = failedCreation(err, creations, ATA_INVALID_OWNER);
  return created ? [created] : [];
}

/** What the chain showed of a failure's suspects: frozen accounts (`frozenSuspects`), accounts given away (`givenAwaySuspects`). */
export interface FailureEvidence {
  frozen?: ReadonlySet<string>;
  givenAway?: ReadonlySet<string>;
}

/**
 * The requote reason for a swap whose simulation failed (docs/settlement.md, "The keeper's steps on
 * Solana"). `swap.transfers` are the transaction's legs (`swapTransfers`): an `InstructionError` at a
 * transfer's index is that leg's, and the leg's `from` says whose: the first leg's (`proceeds`) is the
 * taker, any other `from` the resolver. `swap.creations` are its destination accounts' creations
 * (`swapCreations`). `evidence` is what the chain shows of the suspects: those frozen (`frozenSuspects`),
 * those given away (`givenAwaySuspects`).
 * - a leg of the taker's whose source is short or missing (closed): `taker:insufficient_balance`;
 * - a leg of the resolver's whose source is short or missing (closed): `resolver:insufficient_balance`;
 * - a leg whose source's owner is no longer the key that signed it (the payer gave its account away):
 *   the payer's, `taker:` or `resolver:transfer_failed`;
 * - a leg refused for a frozen account: that account's party (`frozenLegReason`), so a resolver whose
 *   account its token's freeze authority froze is struck as for a short one;
 * - a destination account the swap could not create (`InvalidOwner`), the chain showing another key owns
 *   it: its owner's (`givenAwayReason`), so a resolver that gave away the account its sale is paid into is
 *   struck, and a taker whose recipient did is told `taker:recipient_refused`;
 * - the resolver's own account, which it pays to create (it closed it after its inventory read), not
 *   created because the resolver holds less than its rent (`Custom(1)` of the system program, at a
 *   creation whose payer is the resolver): `resolver:insufficient_balance`;
 * - `BlockhashNotFound`: `taker:blockhash_expired` (the quote's blockhash aged out before it was sent);
 * - the fee payer missing or short of SOL for the fee or the rent of the accounts the swap creates:
 *   `keeper_insufficient_funds` (the keeper pays both; no taker or resolver can fix it);
 * - anything else names no party's shortfall, so it is the relay's: `relay:simulation_failed:<shortTransactionError>`.
 */
export function simulationFailureReason(
  err: TransactionErrorJson,
  logs: string[],
  swap: SwapInstructions,
  evidence: FailureEvidence = {},
): string {
  if (err === "BlockhashNotFound") return "taker:blockhash_expired";
  if (KEEPER_CANNOT_PAY.has(shortTransactionError(err))) return KEEPER_INSUFFICIENT_FUNDS;
  const { transfers } = swap;
  const frozen = evidence.frozen ?? new Set();
  const created = failedCreation(err, swap.creations, ATA_INVALID_OWNER);
  const givenAway = created && evidence.givenAway?.has(created.account) ? givenAwayReason(created, transfers) : null;
  if (givenAway) return givenAway;
  if (resolverShortOfRent(err, swap)) return blamed("resolver", "insufficient_balance");
  const failed = failedTransfer(err, transfers);
  if (failed) {
    const { leg, inner } = failed;
    const payer = leg.from === transfers[0]?.from ? "taker" : "resolver";
    if (isShortOfFunds(inner, logs)) return blamed(payer, "insufficient_balance");
    if (customOf(inner) === TOKEN_OWNER_MISMATCH) return blamed(payer, "transfer_failed");
    const frozenReason = customOf(inner) === TOKEN_ACCOUNT_FROZEN ? frozenLegReason(leg, transfers, frozen) : null;
    if (frozenReason) return frozenReason;
  }
  return blamed("relay", `simulation_failed:${shortTransactionError(err)}`);
}
