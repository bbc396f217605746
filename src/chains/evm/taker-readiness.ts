import type { Erc2612Permit } from "../../schemas";
import { blamed } from "../../states";
import type { FillReadiness } from "../settler";

/** What the chain shows of the taker's side, read in one batch before simulating. */
export interface TakerFunds {
  /** What Permit2 may spend of the taker's sell token. */
  permit2Allowance: bigint;
  balance: bigint;
  /** Whether the quote's Permit2 nonce is spent or invalidated (its bit in `nonceBitmap`). */
  nonceUsed: boolean;
}

/**
 * Whether the taker's side can be pulled: its Permit2 nonce unused (else `taker:nonce_used`: the taker
 * invalidated it, or spent it), the balance to pay (else `taker:insufficient_balance`), and Permit2
 * allowed to spend `takerPays` of the sell token, or an EIP-2612 permit with the submission that allows it.
 */
export function takerReadiness(args: {
  funds: TakerFunds;
  takerPays: bigint;
  permit: Erc2612Permit | null;
  /** Unix seconds. */
  now: number;
  token: string;
}): FillReadiness {
  const { takerPays, permit, token } = args;
  const { permit2Allowance, balance, nonceUsed } = args.funds;
  if (nonceUsed) return { ready: false, requote: blamed("taker", "nonce_used") };
  if (balance < takerPays) return { ready: false, requote: blamed("taker", "insufficient_balance") };
  if (permit2Allowance >= takerPays) return { ready: true };
  if (!permit) {
    const reason = permit2Allowance === 0n ? "permit2_not_approved" : "permit2_allowance_too_low";
    return {
      ready: false,
      reason,
      detail:
        `Permit2 may spend ${permit2Allowance} of the ${takerPays} ${token} this quote takes: approve ` +
        "Permit2 for the sell token once, or send an EIP-2612 `permit` for Permit2 with the submission.",
    };
  }
  if (BigInt(permit.deadline) < BigInt(args.now)) {
    return { ready: false, reason: "permit_expired", detail: `The permit's deadline ${permit.deadline} has passed.` };
  }
  if (BigInt(permit.value) < takerPays) {
    return {
      ready: false,
      reason: "permit_value_too_low",
      detail: `The permit allows ${permit.value} but the quote takes ${takerPays} ${token}.`,
    };
  }
  return { ready: true };
}
