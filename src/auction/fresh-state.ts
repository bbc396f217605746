import type { CorridorPort } from "./corridor-port";

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
