import type { EvmChain } from "../../config";
import { isLimitSigning } from "./limit-call";

/** A fill's gas limit, as a multiple of the gas its kind is configured to use (docs/settlement.md, "Gas"). */
const GAS_LIMIT_MULTIPLE = 2n;

/** Head room over the gas estimate of a fill that needs more than its kind's limit, in percent. */
const GAS_HEADROOM_PERCENT = 20n;

/**
 * The gas a fill is simulated and signed with: twice its kind's configured gas (`gasFee.units`), so that
 * one `eth_call` both simulates it and shows it does not run out of gas.
 */
export const fillGasLimit = (units: EvmChain["gasFee"]["units"], signing: unknown): bigint =>
  GAS_LIMIT_MULTIPLE * BigInt(units[isLimitSigning(signing) ? "limit" : "rfq"]);

/** The gas a fill over its kind's limit is signed with: its estimate and head room. */
export const withHeadroom = (estimate: bigint): bigint => estimate + (estimate * GAS_HEADROOM_PERCENT) / 100n;
