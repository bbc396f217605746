import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";

/**
 * Whether `signature` is `publicKey`'s (base58) ed25519 signature over `message`, checked strictly
 * (RFC 8032, canonical encodings only, no ZIP-215 leniency), as the Solana runtime checks signatures.
 */
export function verifyEd25519(publicKey: string, signature: Uint8Array, message: Uint8Array): boolean {
  try {
    const key = base58.decode(publicKey);
    if (key.length !== 32 || signature.length !== 64) return false;
    return ed25519.verify(signature, message, key, { zip215: false });
  } catch {
    return false;
  }
}

/** Whether `signature` (base58) is `publicKey`'s (base58) ed25519 signature over the UTF-8 `text`. */
export function verifyEd25519Text(publicKey: string, signature: string, text: string): boolean {
  try {
    return verifyEd25519(publicKey, base58.decode(signature), new TextEncoder().encode(text));
  } catch {
    return false;
  }
}
