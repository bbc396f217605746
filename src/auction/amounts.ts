import { type FeeCharge, feeChargeFor, type GasCharge } from "../chains";
import type { QuoteAmounts } from "../types";
import type { CorridorPort } from "./corridor-port";

/**
 * The money of a quote, all in base units as bigint (docs/api.md, "Amounts"):
 * - the winning resolver delivers `outputAmount` of the buy token;
 * - `fee` is the protocol fee in its token (`feeChargeFor`, src/chains/fee-charge.ts), rounded down: in
 *   the buy token `bps` of the output, in the sell token `bps` of the sell amount;
 * - `gasFee` is the keeper's charge, in the configured gas token (null = the buy token; `gasChargeFor`);
 * - `received = outputAmount` less each fee charged in the buy token;
 * - `takerPays = sellAmount` plus each fee charged in the sell token;
 * - `proceeds = sellAmount`, what the resolver gets.
 */

const BPS = 10_000n;

/** A quote's gas charge as priced (docs/api.md, "The gas fee"): how it was set, and at what native price. */
export interface QuoteGasCharge extends GasCharge {
  source: "priced" | "fallback";
  /** Whole charged tokens per whole native unit; null for the fallback. */
  nativePrice: number | null;
}

export function protocolFee(outputAmount: bigint, feeBps: number): bigint {
  return (outputAmount * BigInt(feeBps)) / BPS;
}

/** The amounts of a quote for one bid; null when the bid does not cover the fees (nothing would be received). */
export function quoteAmounts(args: {
  sellAmount: bigint;
  outputAmount: bigint;
  fee: FeeCharge;
  gas: GasCharge;
}): QuoteAmounts | null {
  const feeOnSell = args.fee.side === "sell";
  const fee = protocolFee(feeOnSell ? args.sellAmount : args.outputAmount, args.fee.bps);
  const gasFromOutput = args.gas.side === "buy" ? args.gas.amount : 0n;
  const received = args.outputAmount - (feeOnSell ? 0n : fee) - gasFromOutput;
  if (received <= 0n) return null;
  return {
    outputAmount: args.outputAmount,
    fee,
    gasFee: args.gas.amount,
    received,
    takerPays: args.sellAmount + (feeOnSell ? fee : 0n) + (args.gas.side === "sell" ? args.gas.amount : 0n),
    proceeds: args.sellAmount,
  };
}

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
