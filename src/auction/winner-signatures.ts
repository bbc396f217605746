import { resolverKey } from "../ids";
import { type RelayFrame, SIGN_TIMEOUT_MS, type SignedFrame } from "../protocol";
import type { Clock } from "./clock";

/**
 * Winners asked to sign after their auction (`sign`) and their answers (`signed`), on chains where the
 * winner signs the settlement transaction (docs/resolver-protocol.md, "Signing after the auction").
 */
export class WinnerSignatures {
  /** By rfq: the node asked, and how its answer settles the wait. */
  private readonly awaiting = new Map<string, { address: string; answer(signature: string): void }>();

  constructor(
    private readonly send: (address: string, frame: RelayFrame) => void,
    private readonly clock: Clock,
  ) {}

  /** Sends `sign` to the node; its signature, or null when none came within SIGN_TIMEOUT_MS. */
  ask(rfqId: string, address: string, transaction: string): Promise<string | null> {
    return new Promise((resolve) => {
      const settle = (signature: string | null) => {
        cancel();
        this.awaiting.delete(rfqId);
        resolve(signature);
      };
      const cancel = this.clock.after(SIGN_TIMEOUT_MS, () => settle(null));
      this.awaiting.set(rfqId, { address: resolverKey(address), answer: settle });
      this.send(address, { type: "sign", rfqId, transaction });
    });
  }

  /** A node's `signed`: false when no `sign` sent to this node awaits it (late, or never asked). */
  answer(address: string, frame: SignedFrame): boolean {
    const waiting = this.awaiting.get(frame.rfqId);
    if (!waiting || waiting.address !== resolverKey(address)) return false;
    waiting.answer(frame.signature);
    return true;
  }
}
