import type { TestProject } from "vitest/node";
import { startSolanaHarness } from "../../scripts/lib/solana-harness/server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The LiteSVM harness every test of the `solana` project shares (scripts/lib/solana-harness/). */
    solanaRpcUrl: string;
  }
}

/** Slots of 100 ms, so a landed swap is `finalized` (32 slots later) in about 3 s. */
const SLOT_MS = 100;

/**
 * One local Solana chain for the `solana` project, with the seeded accounts funded (the harness's
 * genesis). The project runs its files one at a time, since they share the keeper and the accounts.
 */
export default async function setup(project: TestProject) {
  const harness = await startSolanaHarness({ port: 0, slotMs: SLOT_MS });
  project.provide("solanaRpcUrl", harness.url);
  return () => harness.stop();
}
