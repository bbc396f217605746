import type { SolanaChain } from "../../config";
import { blamed } from "../../states";
import type { SwapInstructions } from "./swap-failures";
import { tokenAccount } from "./swap-transaction";

/**
 * The recipient's token account and whose its rent is (docs/security.md, "A recipient's token account
 * closed for its rent"). A quote charges the rent of the recipient's account of the buy token only when the
 * account was missing as it was priced (src/chains/solana/costs.ts); one seen to exist is remembered and
 * priced as existing. The swap still creates it idempotently at the keeper's expense, the same bytes for
 * every quote (the winner rebuilds them from the rfq, docs/resolver-protocol.md), so the keeper checks that
 * an account priced as existing still exists before it signs.
 */

/** Why a swap is refused whose recipient's account, priced as existing, is missing: the taker's, nobody struck. */
export const RECIPIENT_ACCOUNT_CLOSED = blamed("taker", "recipient_account_closed");

/** The recipient's associated token account of `buyToken`; null when the token is not one of the chain's. */
export function recipientAccountOf(chain: SolanaChain, recipient: string, buyToken: string): string | null {
  const token = chain.tokens.find((t) => t.address === buyToken);
  return token ? tokenAccount(token, recipient).toBase58() : null;
}

/**
 * The account the keeper must see exist before it signs the swap, or null: the recipient's account (the
 * second leg's destination, `received`) when the quote was priced without its creation (`rentPriced` false)
 * and the swap has `keeper` pay for creating it (a recipient that is the resolver's key pays for its own).
 */
export function unpricedRecipientAccount(swap: SwapInstructions, keeper: string, rentPriced: boolean): string | null {
  if (rentPriced) return null;
  const received = swap.transfers[1];
  const created = received ? swap.creations.find((c) => c.account === received.destination) : undefined;
  return created?.payer === keeper ? created.account : null;
}
