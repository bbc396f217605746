import { vi } from "vitest";
import type { NonceStore } from "../../src/chains/nonce-store";

/** A nonce store that keeps nothing: for a settler that simulates, signs or reads here and broadcasts nothing. */
export const noNonces: NonceStore = {
  next: () => null,
  hasUnmined: () => false,
  take: (_a, _n, write) => write(),
  release: (_a, _n, write) => write(),
  keepFiller: (_a, _f, write) => write(),
  fillers: () => [],
  dropFiller: () => {},
};

/** The JSON-RPC methods of each request sent through `fetch` from now on, batch by batch (`vi.restoreAllMocks` stops it). */
export function recordBatches(): string[][] {
  const batches: string[][] = [];
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const body = JSON.parse(String(init?.body)) as { method: string } | { method: string }[];
    batches.push((Array.isArray(body) ? body : [body]).map((r) => r.method));
    return real(input, init);
  });
  return batches;
}
