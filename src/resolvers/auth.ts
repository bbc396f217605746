import { getAddress, type Hex, hashMessage, recoverPublicKey } from "viem";
import { publicKeyToAddress } from "viem/accounts";
import { verifyEd25519Text } from "../chains/solana/ed25519";
import { type AuthFrame, authMessage } from "../protocol/frames";

export type AuthResult =
  | { ok: true; address: string; publicKey: Hex; solanaAddress: string | null }
  | { ok: false; reason: string };

/**
 * Checks a node's `auth` frame against the challenge it was sent: the EIP-191 signature must recover to
 * the claimed address and, when a Solana key is offered, its ed25519 signature must verify too.
 */
export async function verifyNodeAuth(frame: AuthFrame, corridor: string, nonce: string): Promise<AuthResult> {
  const text = authMessage(corridor, nonce);
  let publicKey: Hex;
  try {
    // The key itself, not just its address: bids are later verified against it (src/chains/evm/ecdsa.ts).
    publicKey = await recoverPublicKey({ hash: hashMessage(text), signature: frame.signature as Hex });
  } catch {
    return { ok: false, reason: "bad_signature" };
  }
  if (publicKeyToAddress(publicKey).toLowerCase() !== frame.address.toLowerCase()) {
    return { ok: false, reason: "bad_signature" };
  }
  if (frame.solana && !verifyEd25519Text(frame.solana.address, frame.solana.signature, text)) {
    return { ok: false, reason: "bad_signature" };
  }
  return { ok: true, address: getAddress(frame.address), publicKey, solanaAddress: frame.solana?.address ?? null };
}
