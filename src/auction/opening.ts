import type { RfqTerms } from "../chains";
import { newId } from "../ids";
import type { Band } from "../schemas";
import type { QuoteInput } from "../types";
import { type QuoteGasCharge, swapCharges } from "./amounts";
import { freshBand } from "./band-guard";
import type { CorridorPort } from "./corridor-port";
import { rfqTerms } from "./rfq";

/** A quote request's auction as it opens: its terms, what it charges, and the band its rfq carries. */
export interface Opening {
  input: QuoteInput;
  terms: RfqTerms;
  gas: QuoteGasCharge;
  band: Band | null;
  expiresAt: number;
  now: number;
}

/**
 * The auction's terms at `now`: its ids (the quote's starts with the corridor's `tag`, so a read that
 * misses the quote in D1 finds it here, src/quotes/read-through.ts), its expiry, and the fees it charges.
 */
export async function openAuction(port: CorridorPort, tag: string, input: QuoteInput, now: number): Promise<Opening> {
  const band = freshBand(port.band.current(), now);
  const quoteId = newId("q", tag);
  const rfqId = newId("rfq");
  const expiresAt = now + port.config.quoteTtlSeconds * 1000;
  const maxGasFee = input.limit ? BigInt(input.limit.order.maxGasFee ?? 0) : undefined;
  const kind = input.limit ? "limit" : "rfq";
  const { gas, fee } = await swapCharges(port, { kind, ...input }, now, maxGasFee);
  const terms = rfqTerms(port.corridor, input, rfqId, quoteId, expiresAt, gas, fee);
  return { input, terms, gas, band, expiresAt, now };
}

/**
 * Keeps the chain state a quote is built with (Solana: a recent blockhash) and priced with (the gas fee's
 * inputs) fresh, outside any quote's path; settles when the state to build with is read.
 */
export function keepStateFresh(
  port: Pick<CorridorPort, "costs" | "adapter" | "waitUntil">,
  now: number,
): Promise<void> {
  void port.costs.keepFresh(now);
  const { signing } = port.adapter;
  if (signing.kind !== "winner") return Promise.resolve();
  const read = signing.keepFresh(now);
  port.waitUntil(read);
  return read;
}
