import { blamed } from "../../states";
import type { SwapFailure } from "./swap-failures";
import { readWire, signsMessage, slotBytes } from "./wire";

/**
 * Whose signature is wrong in a swap the RPC refused for its signatures (docs/settlement.md, "The keeper's
 * steps on Solana"): each slot checked as the runtime checks it (`signsMessage`, strict), in order. The
 * fee payer's (the keeper's, first) is the relay's own; the taker's (`taker`, the first leg's payer)
 * `taker:bad_signature`; any other signer is the winner, whose signature the relay verified when it
 * answered `sign`, so a slot of its that does not verify now is its own doing: `resolver:invalid_signature`.
 * When every slot verifies here, the chain and the relay's check disagree: the relay's.
 */
export function signatureFailureReason(raw: Uint8Array, taker: string | null): string {
  return signatureFailure(raw, taker).reason;
}

/**
 * `signatureFailureReason`, with the key of the resolver whose slot does not verify: in a swap of several
 * makers, each signs its own slot, and only the one whose signature fails is named (docs/legs.md).
 */
export function signatureFailure(raw: Uint8Array, taker: string | null): SwapFailure {
  const relays = { reason: blamed("relay", "simulation_failed:signature_verification") };
  const wire = readWire(raw);
  if (!wire) return relays;
  const refused = wire.signers.findIndex((signer, i) => !signsMessage(wire, signer, slotBytes(wire, i)));
  const signer = wire.signers[refused];
  if (refused <= 0 || signer === undefined) return relays;
  if (signer === taker) return { reason: blamed("taker", "bad_signature") };
  return { reason: blamed("resolver", "invalid_signature"), resolver: signer };
}
