import { getAddress, type Hex, recoverMessageAddress } from "viem";
import { verifyEd25519Text } from "../chains/solana/ed25519";
import { type AuthFrame, authMessage } from "../protocol/frames";

export type AuthResult = { ok: true; address: string; solanaAddress: string | null } | { ok: false; reason: string };

/**
 * Checks a node's `auth` frame against the challenge it was sent: the EIP-191 signature must recover to
 * the claimed address and, when a Solana key is offered, its ed25519 signature must verify too.
 */
export async function verifyNodeAuth(frame: AuthFrame, corridor: string, nonce: string): Promise<AuthResult> {
  const text = authMessage(corridor, nonce);
  let signer: string;
  try {
    signer = await recoverMessageAddress({ message: text, signature: frame.signature as Hex });
  } catch {
    return { ok: false, reason: "bad_signature" };
  }
  if (signer.toLowerCase() !== frame.address.toLowerCase()) return { ok: false, reason: "bad_signature" };
  if (frame.solana && !verifyEd25519Text(frame.solana.address, frame.solana.signature, text)) {
    return { ok: false, reason: "bad_signature" };
  }
  return { ok: true, address: getAddress(frame.address), solanaAddress: frame.solana?.address ?? null };
}
