import { type Address, encodeFunctionData, erc20Abi } from "viem";
import type { Erc2612Permit } from "../../schemas";
import { blamed } from "../../states";
import type { FillReadiness } from "../settler";
import { permit2Abi } from "./abi/permit2";
import { ethCallRequest, type RpcAnswer, uintsOf } from "./call-batch";
import { nonceWord } from "./limit-orders";

/** What the chain shows of the taker's side, read in one batch before simulating. */
export interface TakerFunds {
  /** What Permit2 may spend of the taker's sell token. */
  permit2Allowance: bigint;
  balance: bigint;
  /** Whether the quote's Permit2 nonce is spent or invalidated (its bit in `nonceBitmap`). */
  nonceUsed: boolean;
}

/** The reads of the taker's side, for the preflight's batch: Permit2's allowance, the balance, the nonce's word. */
export function takerSideCalls(side: { token: Address; taker: Address; permit2: Address; nonce: bigint }) {
  const { token, taker, permit2 } = side;
  const { wordPos } = nonceWord(side.nonce);
  return [
    ethCallRequest({
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "allowance", args: [taker, permit2] }),
    }),
    ethCallRequest({
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [taker] }),
    }),
    ethCallRequest({
      to: permit2,
      data: encodeFunctionData({ abi: permit2Abi, functionName: "nonceBitmap", args: [taker, wordPos] }),
    }),
  ];
}

/** What the answers to `takerSideCalls` show; `ChainUnavailableError` when the node refused one. */
export function takerFundsOf(answers: readonly RpcAnswer[], nonce: bigint): TakerFunds {
  const [permit2Allowance, balance, bitmap] = uintsOf(answers, "reading the taker's side") as [bigint, bigint, bigint];
  return { permit2Allowance, balance, nonceUsed: (bitmap & nonceWord(nonce).mask) !== 0n };
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
