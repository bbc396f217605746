import { blamed } from "../../states";
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
  const relays = blamed("relay", "simulation_failed:signature_verification");
  const wire = readWire(raw);
  if (!wire) return relays;
  const refused = wire.signers.findIndex((signer, i) => !signsMessage(wire, signer, slotBytes(wire, i)));
  if (refused <= 0) return relays;
  return wire.signers[refused] === taker ? blamed("taker", "bad_signature") : blamed("resolver", "invalid_signature");
}
