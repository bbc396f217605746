import type { Erc2612Permit } from "../../schemas/execution";
import type { Readiness } from "../settler";

/** What Permit2 may spend of the taker's sell token, as the chain shows it. */
export interface TakerFunds {
  permit2Allowance: bigint;
}

/**
 * Whether the taker's side can be pulled: Permit2 must be allowed to spend `takerPays` of the sell token,
 * or the submission must carry an EIP-2612 permit that allows it. A balance shortfall is left to the
 * simulation, which names it (`taker:insufficient_balance`).
 */
export function takerReadiness(args: {
  funds: TakerFunds;
  takerPays: bigint;
  permit: Erc2612Permit | null;
  /** Unix seconds. */
  now: number;
  token: string;
}): Readiness {
  const { takerPays, permit, token } = args;
  const { permit2Allowance } = args.funds;
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
