import { resolverKey } from "../ids";
import { type RelayFrame, SIGN_TIMEOUT_MS, type SignedFrame } from "../protocol";
import type { Clock } from "./clock";

/**
 * Winners asked to sign after their auction (`sign`) and their answers (`signed`), on chains where the
 * winner signs the settlement transaction (docs/resolver-protocol.md, "Signing after the auction").
 */
export class WinnerSignatures {
  /**
   * By rfq and node asked: how its answer settles the wait. A fill of several makers asks each leg's
   * resolver at once (docs/legs.md).
   */
  private readonly awaiting = new Map<string, (signature: string) => void>();

  constructor(
    private readonly send: (address: string, frame: RelayFrame) => void,
    private readonly clock: Clock,
  ) {}

  /** Sends `sign` to the node; its signature, or null when none came within SIGN_TIMEOUT_MS. */
  ask(rfqId: string, address: string, transaction: string): Promise<string | null> {
    return new Promise((resolve) => {
      const key = awaitKey(rfqId, address);
      const settle = (signature: string | null) => {
        cancel();
        this.awaiting.delete(key);
        resolve(signature);
      };
      const cancel = this.clock.after(SIGN_TIMEOUT_MS, () => settle(null));
      this.awaiting.set(key, settle);
      this.send(address, { type: "sign", rfqId, transaction });
    });
  }

  /** A node's `signed`: false when no `sign` sent to this node awaits it (late, or never asked). */
  answer(address: string, frame: SignedFrame): boolean {
    const waiting = this.awaiting.get(awaitKey(frame.rfqId, address));
    if (!waiting) return false;
    waiting(frame.signature);
    return true;
  }
}

const awaitKey = (rfqId: string, address: string) => `${rfqId} ${resolverKey(address)}`;
