import { type Hex, hashMessage } from "viem";
import { recoverStrict, signedBy } from "./strict-signature";

/**
 * Whether `signature` is an EIP-191 signature of `text` by `address`, under the strict rule every EVM
 * signature the relay verifies meets (src/chains/evm/strict-signature.ts).
 */
export async function verifyPersonalMessage(address: string, text: string, signature: string): Promise<boolean> {
  return signedBy(hashMessage(text), signature, address);
}

/**
 * The signer of an EIP-191 signature over `text`, with its public key: a node's bids are later verified
 * against that key (src/chains/evm/ecdsa.ts). Null when the signature breaks the strict rule or recovers
 * no key.
 */
export async function recoverMessageSigner(
  text: string,
  signature: string,
): Promise<{ address: string; publicKey: Hex } | null> {
  return recoverStrict(hashMessage(text), signature);
}
