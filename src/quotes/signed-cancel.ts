import { adapterFor } from "../chains";
import type { RelayConfig } from "../config";
import { RelayError } from "../errors";

/** What a taker's cancel names: the subject's chain and taker, and the text the taker signs for it. */
export interface SignedCancel {
  chainId: number;
  taker: string;
  /** `cancelQuoteMessage` (src/quotes/messages.ts) or `cancelLimitMessage` (src/limit-orders/messages.ts). */
  message: string;
  signature: string;
}

/**
 * Checks a taker's cancel of a quote or a limit order (docs/api.md; docs/limit-orders.md, "Cancel"): the
 * signature must be the taker's over the subject's cancel message, checked by its chain (EIP-191 or
 * ed25519); else 400 `bad_signature`. The message names the chain and the subject and carries no time:
 * a replay cancels nothing more, since only an open subject can be cancelled, once.
 */
export async function verifySignedCancel(config: RelayConfig, cancel: SignedCancel): Promise<void> {
  const chain = config.chains.find((ch) => ch.chainId === cancel.chainId);
  const signed =
    chain !== undefined && (await adapterFor(chain).verifyMessage(cancel.taker, cancel.message, cancel.signature));
  if (!signed) {
    throw new RelayError(400, "bad_signature", "The signature is not the taker's over the cancel message.");
  }
}
