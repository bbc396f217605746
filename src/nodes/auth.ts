import { recoverMessageSigner, verifyEd25519Text } from "../chains";
import { resolverKey } from "../ids";
import { type AuthFrame, authMessage } from "../protocol";
import type { Attachment } from "./node-sockets";
import { NO_HEARTBEAT } from "./nodes";

export type AuthResult =
  | { ok: true; address: string; publicKey: string; ed25519Key: string | null }
  | { ok: false; reason: "bad_signature" };

/**
 * Checks a node's `auth` frame against the challenge it was sent: the EIP-191 signature must recover to
 * the claimed address and, when a Solana key is offered, its ed25519 signature must verify too. A node's
 * identity is its EVM key on every corridor (docs/resolver-protocol.md), so both checks apply everywhere.
 */
export async function verifyNodeAuth(frame: AuthFrame, corridor: string, nonce: string): Promise<AuthResult> {
  const text = authMessage(corridor, nonce);
  // The key itself, not just its address: bids are later verified against it (src/chains/evm/ecdsa.ts).
  const signer = await recoverMessageSigner(text, frame.signature);
  if (!signer || resolverKey(signer.address) !== resolverKey(frame.address)) {
    return { ok: false, reason: "bad_signature" };
  }
  if (frame.solana && !verifyEd25519Text(frame.solana.address, frame.solana.signature, text)) {
    return { ok: false, reason: "bad_signature" };
  }
  return {
    ok: true,
    address: signer.address,
    publicKey: signer.publicKey,
    ed25519Key: frame.solana?.address ?? null,
  };
}

/** The session a proved `auth` frame opens, before its first heartbeat. */
export function authenticatedNode(
  proved: Extract<AuthResult, { ok: true }>,
  frame: AuthFrame,
): NonNullable<Attachment["node"]> {
  return {
    address: proved.address,
    ed25519Key: proved.ed25519Key,
    publicKey: proved.publicKey,
    name: frame.name,
    version: frame.version,
    region: frame.region ?? null,
    signerType: frame.signerType ?? null,
    lastHeartbeat: null,
    // It has said nothing of its state yet: not asked until its first heartbeat (docs/resolver-protocol.md).
    state: "degraded",
    degraded: NO_HEARTBEAT,
  };
}
