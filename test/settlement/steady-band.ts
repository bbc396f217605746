import { corridorKey } from "../../src/chains/corridor-keys";
import type { Band } from "../../src/schemas/quote";
import { EVM } from "./helpers";

/** The corridor of the stored limit orders (test/settlement/limit-orders.ts): cNGN sold for USDC. */
export const LIMIT_CORRIDOR = corridorKey(EVM.chainId, EVM.cngn.toLowerCase(), EVM.usdc.toLowerCase());

/**
 * A corridor's band for the limit job passes a test runs: the oracle's first band for the corridor, then
 * that one for the rest of the file (read it once in `beforeAll`, beside the market's sell amount). The oracle's round polls the stand-in sources with 500 ms each and
 * keeps its outcome 10 s (docs/oracle.md); a round in which the loaded machine answered none of them in
 * time had no band, and every pass for those 10 s recorded `relay:no_band` instead of the round the test
 * was about. The job's own handling of a missing band is tested in test/unit/limit-job.test.ts.
 */
export function steadyBand(read: (corridorKey: string) => Promise<Band | null>) {
  const held = new Map<string, Band>();
  return async (corridorKey: string): Promise<Band | null> => {
    const kept = held.get(corridorKey);
    if (kept) return kept;
    const band = await read(corridorKey);
    if (band) held.set(corridorKey, band);
    return band;
  };
}
