import type { SolanaChain } from "../../config";
import type { FillToPrice } from "../costs";
import { feeChargeFor, gasChargeFor } from "../fee-charge";
import { tokenAccount } from "./swap-transaction";

/**
 * The token accounts a swap of `fill` creates when they are missing, at the keeper's expense, that can be
 * known before the auction (docs/settlement.md, "What a Solana fill costs"): as `createDestinations` in
 * src/chains/solana/swap-transaction.ts, the recipient's buy-token account, the treasury's account of
 * the fee token (when the chain charges a fee) and the keeper's account of the gas fee token, each once.
 * The fourth destination, the resolver's sell-token account, is left out: the keeper never pays for it.
 * A resolver is asked only while both of its corridor's accounts exist (src/chains/solana/inventory.ts), and
 * the swap's creation of that account, needed only if the resolver closed it since, is the resolver's to
 * pay (docs/security.md, "A token account closed for its rent").
 */
export function swapDestinations(chain: SolanaChain, fill: FillToPrice): string[] {
  const same = (a: string, b: string) => a === b;
  const { sellToken, buyToken } = fill;
  const gasToken = gasChargeFor(chain.gasFee, sellToken, buyToken, same).token;
  const feeToken = feeChargeFor(chain.fee, sellToken, buyToken, same).token;
  const owned: [string, string][] = [
    ...(fill.recipient === null ? [] : [[fill.recipient, buyToken] as [string, string]]),
    ...(chain.fee.bps > 0 ? [[chain.treasury, feeToken] as [string, string]] : []),
    [chain.keeper, gasToken],
  ];
  const accounts: string[] = [];
  for (const [owner, mint] of owned) {
    const token = chain.tokens.find((t) => t.address === mint);
    if (!token) continue;
    const account = tokenAccount(token, owner).toBase58();
    if (!accounts.includes(account)) accounts.push(account);
  }
  return accounts;
}
