import { getAddress, type Hex, hashMessage, recoverMessageAddress, recoverPublicKey } from "viem";
import { publicKeyToAddress } from "viem/accounts";

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** Whether `signature` is an EIP-191 signature of `text` by `address`. */
export async function verifyPersonalMessage(address: string, text: string, signature: string): Promise<boolean> {
  if (!SIGNATURE.test(signature)) return false;
  try {
    const signer = await recoverMessageAddress({ message: text, signature: signature as Hex });
    return signer.toLowerCase() === address.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * The signer of an EIP-191 signature over `text`, with its public key: a node's bids are later verified
 * against that key (src/chains/evm/ecdsa.ts). Null when the signature recovers no key.
 */
export async function recoverMessageSigner(
  text: string,
  signature: string,
): Promise<{ address: string; publicKey: Hex } | null> {
  if (!SIGNATURE.test(signature)) return null;
  try {
    const publicKey = await recoverPublicKey({ hash: hashMessage(text), signature: signature as Hex });
    return { address: getAddress(publicKeyToAddress(publicKey)), publicKey };
  } catch {
    return null;
  }
}
