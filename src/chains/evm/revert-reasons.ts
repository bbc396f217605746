import type { Hex } from "viem";
import { type Blame, blamed } from "../../states";
import type { RevertOutcome } from "../settler";
import { decodedRevertData } from "./rpc";

/** A custom error (or `Error(string)` / `Panic(uint256)`) decoded from revert data. */
export interface DecodedRevert {
  name: string;
  args: readonly unknown[];
}

/** The parties of a fill, to tell whose balance or allowance a token error is about. */
export interface RevertParties {
  taker: string;
  resolver: string;
  permit2: string;
  /** The contract that pulls the resolver's side: the executor, or the reactor in a limit round. */
  executor: string;
}

const requote = (party: Blame, code: string): RevertOutcome => ({ kind: "requote", reason: blamed(party, code) });

/** A balance error: its party's, and by how much the resolver fell short when it is the resolver's. */
function shortOf(party: Blame, balance: unknown, needed: unknown): RevertOutcome {
  const reason = blamed(party, "insufficient_balance");
  const known = party === "resolver" && typeof balance === "bigint" && typeof needed === "bigint";
  return known && needed > balance
    ? { kind: "requote", reason, shortfall: needed - balance }
    : { kind: "requote", reason };
}

const same = (a: unknown, b: string) => typeof a === "string" && a.toLowerCase() === b.toLowerCase();

/** Whose account a token error names: the taker's, the resolver's, or anybody else's (the relay's fee legs). */
const partyOf = (account: unknown, taker: string, resolver: string): Blame =>
  same(account, taker) ? "taker" : same(account, resolver) ? "resolver" : "relay";

/**
 * The executor's, the reactor's, Permit2's, the validation contract's and the tokens' errors (docs/contracts.md), by
 * name, each blamed on the party the chain's evidence names (docs/reliability.md, "Blame"). The relay
 * checks the fees, the tokens and the deadlines before it quotes, so a revert over any of them is its own
 * fault. It also checks the bid's signature by the strictest rule any verifier on chain applies, so a
 * contract that refuses it is asking the resolver's account something its key no longer answers (its EOA
 * delegated by EIP-7702 since, to code whose ERC-1271 check says no): the resolver's doing. A used
 * Permit2 nonce can only be the taker's doing; a token's balance or allowance error names whose account
 * fell short.
 */
const byName: Record<string, (args: readonly unknown[], parties: RevertParties) => RevertOutcome> = {
  NotKeeper: () => ({ kind: "keeper_refused", reason: "keeper_not_allowed" }),
  OrderExpired: () => requote("relay", "order_expired"),
  NonceMismatch: () => requote("relay", "nonce_mismatch"),
  TokenNotAllowed: () => requote("relay", "token_not_allowed"),
  SameToken: () => requote("relay", "same_token"),
  GasFeeTokenNotInPair: () => requote("relay", "gas_fee_token_not_in_pair"),
  GasFeeExceedsTakerPays: () => requote("relay", "gas_fee_exceeds_taker_pays"),
  // The keeper fills only with a bid whose `received` meets the signed minimum: one that does not is its own doing.
  ReceivedBelowMinimum: () => requote("relay", "received_below_minimum"),
  // It names its leg's resolver: a resolver's doing whichever leg it is.
  InvalidResolverSignature: (args) => withResolver(requote("resolver", "invalid_signature"), args[0]),
  // The legs the keeper sends are the relay's composition (docs/contracts.md, "The fill call").
  LegCountOutOfRange: () => requote("relay", "leg_count_out_of_range"),
  DuplicateResolver: () => requote("relay", "duplicate_resolver"),
  ZeroAmountLeg: () => requote("relay", "zero_amount_leg"),
  LegsSumMismatch: () => requote("relay", "legs_sum_mismatch"),
  // The reactor (limit rounds)
  FillExpired: () => requote("relay", "fill_expired"),
  GasFeeAboveMax: () => requote("relay", "gas_fee_above_max"),
  OutputBelowMinOut: () => requote("relay", "output_below_min_out"),
  // Permit2
  SignatureExpired: () => requote("relay", "signature_expired"),
  InvalidNonce: () => requote("taker", "nonce_used"),
  InvalidAmount: () => requote("relay", "invalid_amount"),
  InvalidSigner: () => ({ kind: "bad_signature" }),
  // The tokens (OpenZeppelin ERC-20): Permit2 pulls the taker's side, the executor the resolver's.
  ERC20InsufficientBalance: ([sender, balance, needed], p) =>
    shortOf(partyOf(sender, p.taker, p.resolver), balance, needed),
  ERC20InsufficientAllowance: ([spender], p) =>
    requote(
      same(spender, p.permit2) ? "taker" : same(spender, p.executor) ? "resolver" : "relay",
      "insufficient_allowance",
    ),
};

/**
 * The settlement contracts' guarded legs (docs/contracts.md, "Leg errors"): a party's transfer failed, carrying the
 * token's (or Permit2's) own revert data, last. Evidence inside wins: an error this module knows (Permit2's, or a
 * balance or allowance error, which names its account) keeps its mapping, so a fee-on-transfer token leaving the
 * executor short is the relay's, not the resolver's; anything else is blamed on the leg (docs/reliability.md,
 * "Blame"). A resolver's leg names its resolver first: a token error about that account is a resolver's, even when
 * it is another leg's than the winner's.
 */
const legs: Record<string, RevertOutcome> = {
  TakerLegFailed: requote("taker", "transfer_failed"),
  ResolverLegFailed: requote("resolver", "transfer_failed"),
  // The contract already holds the output: the recipient the taker named does not take it.
  RecipientLegFailed: requote("taker", "recipient_refused"),
  FeeLegFailed: requote("relay", "fee_transfer_failed"),
};

function legOutcome(leg: RevertOutcome, reason: unknown, parties: RevertParties): RevertOutcome {
  const inner = typeof reason === "string" && reason.startsWith("0x") ? decodedRevertData(reason as Hex) : null;
  const mapped = inner ? byName[inner.name] : undefined;
  return inner && mapped ? mapped(inner.args, parties) : leg;
}

/** A resolver's outcome with the resolver its leg names, when the revert names one (an address). */
function withResolver(outcome: RevertOutcome, resolver: unknown): RevertOutcome {
  const isResolvers = outcome.kind === "requote" && outcome.reason.startsWith("resolver:");
  return isResolvers && typeof resolver === "string" ? { ...outcome, resolver } : outcome;
}

/** What a simulated revert means; one the ABIs cannot decode names no leg, so it is the relay's. */
export function revertOutcome(revert: DecodedRevert | null, parties: RevertParties): RevertOutcome {
  const leg = revert ? legs[revert.name] : undefined;
  if (revert && leg) {
    const [named] = revert.args;
    const namesResolver = revert.name === "ResolverLegFailed" && revert.args.length === 2 && typeof named === "string";
    const resolver = namesResolver ? named : parties.resolver;
    const outcome = legOutcome(leg, revert.args.at(-1), { ...parties, resolver });
    return namesResolver ? withResolver(outcome, named) : outcome;
  }
  const mapped = revert ? byName[revert.name] : undefined;
  if (revert && mapped) return mapped(revert.args, parties);
  return requote("relay", "reverted");
}

/**
 * A short reason for a broadcast the RPC refused, from its error message (nodes word these differently;
 * the common ones are matched, anything else keeps a trimmed message).
 */
export function refusalReason(message: string): string {
  const m = message.toLowerCase();
  if (m.includes("insufficient funds")) return "insufficient_funds";
  if (m.includes("nonce too low")) return "nonce_too_low";
  if (m.includes("nonce too high")) return "nonce_too_high";
  if (m.includes("underpriced") || m.includes("fee too low") || m.includes("max fee per gas less than block base fee"))
    return "underpriced";
  if (m.includes("gas limit") || m.includes("intrinsic gas")) return "gas_limit";
  if (m.includes("already known") || m.includes("known transaction")) return "already_known";
  const trimmed = message.replace(/\s+/g, " ").trim().slice(0, 120);
  return trimmed ? `rejected: ${trimmed}` : "rejected";
}
