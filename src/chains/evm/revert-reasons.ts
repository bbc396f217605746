import type { RevertOutcome } from "../settler";

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

/** Reasons with the `taker:` prefix are for the taker to fix; the quote stays open (docs/settlement.md). */
export const TAKER_PREFIX = "taker:";

export const isTakerReason = (reason: string) => reason.startsWith(TAKER_PREFIX);

const same = (a: unknown, b: string) => typeof a === "string" && a.toLowerCase() === b.toLowerCase();

const requote = (reason: string): RevertOutcome => ({ kind: "requote", reason });

/**
 * The executor's, the reactor's, Permit2's, the validation contract's and the tokens' errors (docs/contracts.md), by
 * name. Errors that name an account are told apart by whose account it is.
 */
const byName: Record<string, (args: readonly unknown[], parties: RevertParties) => RevertOutcome> = {
  NotKeeper: () => ({ kind: "keeper_refused", reason: "keeper_not_allowed" }),
  OrderExpired: () => requote("order_expired"),
  NonceMismatch: () => requote("nonce_mismatch"),
  TokenNotAllowed: () => requote("token_not_allowed"),
  SameToken: () => requote("same_token"),
  GasFeeTokenNotInPair: () => requote("gas_fee_token_not_in_pair"),
  GasFeeExceedsTakerPays: () => requote("gas_fee_exceeds_taker_pays"),
  FeeMismatch: () => requote("fee_mismatch"),
  InvalidResolverSignature: () => requote("invalid_resolver_signature"),
  // The reactor (limit rounds)
  FillExpired: () => requote("fill_expired"),
  GasFeeAboveMax: () => requote("gas_fee_above_max"),
  OutputBelowMinOut: () => requote("output_below_min_out"),
  // Permit2
  SignatureExpired: () => requote("signature_expired"),
  InvalidNonce: () => requote("nonce_used"),
  InvalidAmount: () => requote("invalid_amount"),
  InvalidSigner: () => ({ kind: "bad_signature" }),
  // The tokens (OpenZeppelin ERC-20): Permit2 pulls the taker's side, the executor the resolver's.
  ERC20InsufficientBalance: ([sender], p) =>
    requote(
      same(sender, p.taker)
        ? `${TAKER_PREFIX}insufficient_balance`
        : same(sender, p.resolver)
          ? "resolver_insufficient_balance"
          : "insufficient_balance",
    ),
  ERC20InsufficientAllowance: ([spender], p) =>
    requote(
      same(spender, p.permit2)
        ? `${TAKER_PREFIX}insufficient_allowance`
        : same(spender, p.executor)
          ? "resolver_insufficient_allowance"
          : "insufficient_allowance",
    ),
};

/** What a simulated revert means; `null` is a revert without data the ABIs can decode. */
export function revertOutcome(revert: DecodedRevert | null, parties: RevertParties): RevertOutcome {
  const mapped = revert ? byName[revert.name] : undefined;
  if (revert && mapped) return mapped(revert.args, parties);
  return requote("reverted");
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
