import { base58, base64 } from "@scure/base";
import { VersionedTransaction } from "@solana/web3.js";
import { encodeTransaction, readWireBase64, SIGNATURE_BYTES, signsMessage } from "./wire";

/**
 * What the winner is asked to sign (the `sign` frame's `transaction`, docs/resolver-protocol.md): the
 * base64 of the serialized swap with every signature slot empty (zero). The winner signs its message
 * bytes, the part after the signature slots.
 */
export function signRequest(tx: VersionedTransaction): string {
  return encodeTransaction(new VersionedTransaction(tx.message));
}

function decodeSignature(signature: string): Uint8Array | null {
  try {
    const bytes = base58.decode(signature);
    return bytes.length === SIGNATURE_BYTES ? bytes : null;
  } catch {
    return null;
  }
}

/**
 * Whether `signature` (base58) is the resolver's ed25519 signature over the message of the sign request
 * `requestBase64`, the resolver (`resolverKey`, base58) being one of the transaction's signers.
 */
export function verifyWinnerSignature(requestBase64: string, resolverKey: string, signature: string): boolean {
  const wire = readWireBase64(requestBase64);
  const sig = decodeSignature(signature);
  if (!wire || !sig || !wire.signers.includes(resolverKey)) return false;
  return signsMessage(wire, resolverKey, sig);
}

/**
 * The transaction `transactionBase64` with `signature` (base58) in `signer`'s slot and every other slot
 * as it was: from a sign request and the winner's verified signature, the quote's `transaction` (the
 * resolver's signature in place, the taker's and the keeper's slots empty). Throws when the transaction
 * cannot be read, `signer` is not one of its signers or the signature is not 64 bytes; it does not
 * verify the signature (`verifyWinnerSignature` does).
 */
export function withSignature(transactionBase64: string, signer: string, signature: string): string {
  const wire = readWireBase64(transactionBase64);
  if (!wire) throw new Error("not a serialized transaction");
  const index = wire.signers.indexOf(signer);
  if (index < 0) throw new Error(`${signer} is not a signer of the transaction`);
  const sig = decodeSignature(signature);
  if (!sig) throw new Error("a signature is 64 bytes in base58");
  const bytes = Uint8Array.from(wire.bytes);
  bytes.set(sig, wire.slotsOffset + index * SIGNATURE_BYTES);
  return base64.encode(bytes);
}
