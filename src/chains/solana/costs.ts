import type { SolanaChain } from "../../config";
import { log } from "../../log";
import type { ChainCosts } from "../costs";
import { KeptInput } from "../kept-input";
import { readLamportsPerSignature, readTokenAccountRent } from "./cost-inputs";
import { existingAccountsOn } from "./existing-accounts";
import { swapDestinations } from "./swap-destinations";
import { SWAP_SIGNATURES } from "./swap-transaction";

/** Decimals of SOL: its base unit is the lamport. */
export const SOL_DECIMALS = 9;

/** How often the background inputs are read: well inside the 60 s after which a quote falls back. */
export const INPUTS_EVERY_MS = 10_000;

/**
 * What a Solana fill costs the keeper, in lamports (docs/settlement.md, "What a Solana fill costs"):
 * `solanaFillCost` of the swap's three signatures, its compute budget (`computeUnitLimit` ×
 * `computeUnitPrice`) and the rent of each destination token account it would create.
 *
 * - Lamports per signature and a token account's rent are read in the background (`keepFresh`, at most
 *   every `INPUTS_EVERY_MS`, one read of each at a time, failures logged); `at` is the older one's read.
 * - Which destinations exist is read on the quote's path, in one `getMultipleAccounts` of the accounts
 *   not already seen to exist, within `ACCOUNTS_READ_TIMEOUT_MS`; once every one is known, nothing is
 *   read. The resolver's sell-token account is not charged (`swapDestinations`). `existing` is the chain's
 *   memory of them, which the swap's build reads too (`existingAccountsOn`).
 * - `fillCost` is null while an input is missing or when the accounts cannot be read: the quote then
 *   charges `gasFee.fixed`.
 * - The protocol fee's bps are the configured ones: Solana has no fee contract to read them from.
 */
export function solanaChainCosts(chain: SolanaChain, existing = existingAccountsOn(chain)): ChainCosts {
  const failed = (input: string) => (e: unknown) =>
    log.error("chain_cost_read_failed", { chainId: chain.chainId, input, error: String(e) });
  const perSignature = new KeptInput(
    () => readLamportsPerSignature(chain.rpcUrl, chain.keeper),
    INPUTS_EVERY_MS,
    failed("lamports_per_signature"),
  );
  const rent = new KeptInput(() => readTokenAccountRent(chain.rpcUrl), INPUTS_EVERY_MS, failed("token_account_rent"));

  return {
    nativeDecimals: SOL_DECIMALS,

    keepFresh: async (now) => {
      await Promise.all([perSignature.refresh(now), rent.refresh(now)]);
    },

    async fillCost(fill) {
      const signature = perSignature.current();
      const rentPerAccount = rent.current();
      if (!signature || !rentPerAccount) return null;
      let accountsCreated: number;
      try {
        accountsCreated = await existing.missing(swapDestinations(chain, fill));
      } catch (e) {
        failed("destination_accounts")(e);
        return null;
      }
      const native = solanaFillCost({
        // Each maker past the first signs the swap too (docs/legs.md, "What a leg costs").
        signatures: SWAP_SIGNATURES + Math.max((fill.legs ?? 1) - 1, 0),
        lamportsPerSignature: signature.value,
        computeUnitLimit: chain.computeUnitLimit,
        computeUnitPrice: BigInt(chain.computeUnitPrice),
        accountsCreated,
        rentPerAccount: rentPerAccount.value,
      });
      return { native, at: Math.min(signature.at, rentPerAccount.at) };
    },

    feeBps: () => chain.fee.bps,

    // The taker signs the swap transaction itself: no fill carries a permit, and nothing is read for it.
    keepTakerFresh: async () => {},
    carriesPermit: () => false,
  };
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/**
 * What a Solana fill costs in lamports: its signatures, its compute budget (`computeUnitPrice` in
 * micro-lamports per unit, rounded up) and the rent of every token account it creates.
 */
export function solanaFillCost(args: {
  signatures: number;
  lamportsPerSignature: bigint;
  computeUnitLimit: number;
  computeUnitPrice: bigint;
  accountsCreated: number;
  rentPerAccount: bigint;
}): bigint {
  const signatures = BigInt(args.signatures) * args.lamportsPerSignature;
  const compute = ceilDiv(BigInt(args.computeUnitLimit) * args.computeUnitPrice, 1_000_000n);
  return signatures + compute + BigInt(args.accountsCreated) * args.rentPerAccount;
}
