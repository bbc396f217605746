import type { Erc2612Permit } from "../../schemas";
import type { Readiness } from "../settler";

/**
 * Whether a limit order's permit can be pulled whenever it fills (docs/limit-orders.md, "Placing"):
 * the taker holds `permitAmount` of the sell token, and Permit2 may spend it, or the order carries an
 * EIP-2612 approval of Permit2 that the token accepts, for at least `permitAmount`, valid until the
 * order's deadline (the keeper applies it with the fill, which may come at any time until then).
 */
export function limitReadiness(args: {
  funds: { balance: bigint; permit2Allowance: bigint };
  permitAmount: bigint;
  /** The order's EIP-2612 permit, and whether the token accepts it now; null without one. */
  erc2612: { permit: Erc2612Permit; accepted: boolean } | null;
  /** The order's deadline, unix seconds. */
  deadline: bigint;
  /** The sell token's symbol or address, for the detail. */
  token: string;
}): Readiness {
  const { funds, permitAmount, erc2612, token } = args;
  if (funds.balance < permitAmount) {
    return {
      ready: false,
      reason: "insufficient_balance",
      detail: `The taker holds ${funds.balance} of the ${permitAmount} ${token} the order may take.`,
    };
  }
  if (funds.permit2Allowance >= permitAmount) return { ready: true };
  if (!erc2612) {
    return {
      ready: false,
      reason: funds.permit2Allowance === 0n ? "permit2_not_approved" : "permit2_allowance_too_low",
      detail:
        `Permit2 may spend ${funds.permit2Allowance} of the ${permitAmount} ${token} the order may take: approve ` +
        "Permit2 for the sell token once, or send an EIP-2612 `erc2612` permit for Permit2 with the order.",
    };
  }
  const { permit, accepted } = erc2612;
  if (BigInt(permit.deadline) < args.deadline) {
    return {
      ready: false,
      reason: "permit_expires_before_order",
      detail: `The permit's deadline ${permit.deadline} is before the order's ${args.deadline}.`,
    };
  }
  if (BigInt(permit.value) < permitAmount) {
    return {
      ready: false,
      reason: "permit_value_too_low",
      detail: `The permit allows ${permit.value} but the order may take ${permitAmount} ${token}.`,
    };
  }
  if (!accepted) {
    return {
      ready: false,
      reason: "permit_invalid",
      detail: `${token} does not accept the permit: not the taker's signature, a used nonce, or no EIP-2612.`,
    };
  }
  return { ready: true };
}
