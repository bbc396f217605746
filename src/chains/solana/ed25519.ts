import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";

/** Whether `signature` (base58) is `publicKey`'s (base58) ed25519 signature over the UTF-8 `text`. */
export function verifyEd25519Text(publicKey: string, signature: string, text: string): boolean {
  try {
    const key = base58.decode(publicKey);
    const sig = base58.decode(signature);
    if (key.length !== 32 || sig.length !== 64) return false;
    return ed25519.verify(sig, new TextEncoder().encode(text), key);
  } catch {
    return false;
  }
}
