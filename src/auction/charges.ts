import { type FeeCharge, feeChargeFor } from "../chains";
import type { QuoteGasCharge } from "./amounts";
import type { CorridorPort } from "./corridor-port";

/** A fill to charge: its kind (the gas units differ), its pair and who receives the buy token. */
export interface ChargedFill {
  kind: "rfq" | "limit";
  sellToken: string;
  buyToken: string;
  /** Null for an indicative price, which has none (src/chains/costs.ts, `FillToPrice`). */
  recipient: string | null;
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
  const gas = await costs.charge(fill, now, cap);
  const fees = { tokens: adapter.feeTokens, bps: costs.feeBps(fill.buyToken) };
  return { fee: feeChargeFor(fees, fill.sellToken, fill.buyToken, adapter.sameAddress), gas };
}
