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
 * A failure's reason, and of a resolver's fault the Solana key of the resolver whose leg it is: in a swap of
 * several makers (docs/legs.md) each maker's legs are its own, so the one whose account failed is named.
 */
export interface SwapFailure {
  reason: string;
  resolver?: string;
}

/**
 * The parties of a swap's legs (`swapTransfers`, in `swapLegs` or `makerLegs` order): the taker pays the
 * first; every other payer is a resolver (a maker); the recipient's account is the destination of the first
 * `received`, always the second transfer (a leg's output is never all fees); an account's owner is read from
 * its creation (every destination is created idempotently).
 */
function partiesOf({ transfers, creations }: SwapInstructions) {
  const taker = transfers[0]?.from;
  const resolvers = new Set(transfers.map((t) => t.from).filter((from) => from !== taker));
  const owners = new Map(creations.map((c) => [c.account, c.owner]));
  return { taker, resolvers, recipientAccount: transfers[1]?.destination, owners };
}

const resolvers = (resolver: string, reason: string): SwapFailure => ({ reason: blamed("resolver", reason), resolver });
const byPayer = (from: string, taker: string | undefined, reason: string): SwapFailure =>
  from === taker ? { reason: blamed("taker", reason) } : resolvers(from, reason);

/**
 * Whose a leg's frozen account is, and the reason (docs/reliability.md, "Blame"), as the EVM contracts name
 * a leg whose token refused it: its source is its payer's (`taker:` or `resolver:transfer_failed`, that
 * maker's); its destination is a maker's for its sale (`proceeds`: the account's owner, or the payer of the
 * next transfer, its `received`), the recipient's the taker named for the output — so
 * `taker:recipient_refused` — and the treasury's or the keeper's for a fee (`relay:fee_transfer_failed`).
 */
function frozenLegFailure(leg: SwapTransfer, swap: SwapInstructions, frozen: ReadonlySet<string>): SwapFailure | null {
  const { taker, resolvers: makers, recipientAccount, owners } = partiesOf(swap);
  if (frozen.has(leg.source)) return byPayer(leg.from, taker, "transfer_failed");
  if (!frozen.has(leg.destination)) return null;
  if (leg.destination === recipientAccount) return { reason: blamed("taker", "recipient_refused") };
  const owner = owners.get(leg.destination);
  if (owner !== undefined && makers.has(owner)) return resolvers(owner, "transfer_failed");
  const next = swap.transfers[swap.transfers.indexOf(leg) + 1];
  if (owner === undefined && leg.from === taker && next && makers.has(next.from) && leg.mint !== next.mint) {
    return resolvers(next.from, "transfer_failed");
  }
  return { reason: blamed("relay", "fee_transfer_failed") };
}

/**
 * Whose a destination account is that the swap could not create because another key owns it
 * (docs/reliability.md, "Blame"), by the parties of the legs as `frozenLegFailure` names them: an account
 * derived for a maker's key (the one its sale is paid into) is that maker's, `resolver:transfer_failed`;
 * the recipient's account of the output the taker's, `taker:recipient_refused`; the treasury's or the
 * keeper's for a fee the relay's, `relay:fee_transfer_failed`. Null for an account no leg pays into.
 */
function givenAwayFailure(created: SwapCreation, swap: SwapInstructions): SwapFailure | null {
  const { resolvers: makers, recipientAccount } = partiesOf(swap);
  if (makers.has(created.owner)) return resolvers(created.owner, "transfer_failed");
  if (created.account === recipientAccount) return { reason: blamed("taker", "recipient_refused") };
  const [, , ...rest] = swap.transfers;
  if (rest.some((t) => t.destination === created.account)) return { reason: blamed("relay", "fee_transfer_failed") };
  return null;
}

/** The creation a transaction error says failed with the custom error `code`; null otherwise. */
function failedCreation(err: TransactionErrorJson, creations: SwapCreation[], code: number): SwapCreation | null {
  const instruction = instructionErrorOf(err);
  if (!instruction || customOf(instruction[1]) !== code) return null;
  return creations.find((c) => c.index === instruction[0]) ?? null;
}

/**
 * The maker whose own account the swap failed creating (one it pays for, the payer being the key of its
 * legs: only the account its sale is paid into, closed after its inventory read) because it holds less
 * than the rent: its own shortfall, as a short leg is (docs/security.md, "A token account closed for its
 * rent"). Null for any other failure.
 */
function resolverShortOfRent(err: TransactionErrorJson, swap: SwapInstructions): string | null {
  const created = failedCreation(err, swap.creations, SYSTEM_SHORT_OF_RENT);
  return created !== null && partiesOf(swap).resolvers.has(created.payer) ? created.payer : null;
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
  return simulationFailure(err, logs, swap, evidence).reason;
}

/**
 * `simulationFailureReason`, with the Solana key of the maker whose leg failed when the reason is a
 * resolver's: a swap of several makers names the one whose account was short, closed, frozen or given
 * away, and no other (docs/legs.md, "Settlement and blame").
 */
export function simulationFailure(
  err: TransactionErrorJson,
  logs: string[],
  swap: SwapInstructions,
  evidence: FailureEvidence = {},
): SwapFailure {
  if (err === "BlockhashNotFound") return { reason: "taker:blockhash_expired" };
  if (KEEPER_CANNOT_PAY.has(shortTransactionError(err))) return { reason: KEEPER_INSUFFICIENT_FUNDS };
  const { transfers } = swap;
  const frozen = evidence.frozen ?? new Set();
  const created = failedCreation(err, swap.creations, ATA_INVALID_OWNER);
  const givenAway = created && evidence.givenAway?.has(created.account) ? givenAwayFailure(created, swap) : null;
  if (givenAway) return givenAway;
  const shortOfRent = resolverShortOfRent(err, swap);
  if (shortOfRent) return resolvers(shortOfRent, "insufficient_balance");
  const failed = failedTransfer(err, transfers);
  if (failed) {
    const { leg, inner } = failed;
    const taker = transfers[0]?.from;
    if (isShortOfFunds(inner, logs)) return byPayer(leg.from, taker, "insufficient_balance");
    if (customOf(inner) === TOKEN_OWNER_MISMATCH) return byPayer(leg.from, taker, "transfer_failed");
    const frozenFailure = customOf(inner) === TOKEN_ACCOUNT_FROZEN ? frozenLegFailure(leg, swap, frozen) : null;
    if (frozenFailure) return frozenFailure;
  }
  return { reason: blamed("relay", `simulation_failed:${shortTransactionError(err)}`) };
}
