import { type FeeCharge, feeChargeFor } from "../chains";
import { protocolFee, type QuoteGasCharge } from "./amounts";
import type { CorridorPort } from "./corridor-port";

/** A fill to charge: its kind (the gas units differ), its pair and who receives the buy token. */
export interface ChargedFill {
  kind: "rfq" | "limit";
  sellToken: string;
  buyToken: string;
  /** Null for an indicative price, which has none (src/chains/costs.ts, `FillToPrice`). */
  recipient: string | null;
  /**
   * A quote's taker and sell amount, which decide whether its fill carries a permit (docs/settlement.md,
   * "The gas of each kind of fill"); an indicative price has neither.
   */
  taker?: string;
  sellAmount?: string;
}

/**
 * The protocol fee and the gas fee a quote of this fill charges now (docs/api.md, "Amounts"): one home for
 * both, so an auction and an indicative price (`GET /v1/prices`) charge alike. `cap` bounds a limit
 * fill's gas fee by what its taker signed.
 */
export async function swapCharges(
  port: Pick<CorridorPort, "adapter" | "costs">,
  fill: ChargedFill,
  now: number,
  cap?: bigint,
): Promise<{ fee: FeeCharge; gas: QuoteGasCharge }> {
  const { adapter, costs } = port;
  const { kind, sellToken, buyToken, recipient, taker, sellAmount } = fill;
  const fees = { tokens: adapter.feeTokens, bps: costs.feeBps(buyToken) };
  const fee = feeChargeFor(fees, sellToken, buyToken, adapter.sameAddress);
  // What the taker pays of the sell token before the gas fee (docs/api.md, "Amounts"): its allowance must cover it.
  const payer =
    taker === undefined || sellAmount === undefined
      ? undefined
      : {
          taker,
          paysBeforeGas: BigInt(sellAmount) + (fee.side === "sell" ? protocolFee(BigInt(sellAmount), fee.bps) : 0n),
        };
  const gas = await costs.charge({ kind, sellToken, buyToken, recipient, payer }, now, cap);
  return { fee, gas };
}
