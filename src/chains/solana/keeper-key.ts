import { base58 } from "@scure/base";
import { Keypair } from "@solana/web3.js";

const SECRET_KEY_BYTES = 64;

function bytesOf(secret: string): Uint8Array {
  const text = secret.trim();
  if (text.startsWith("[")) {
    let numbers: unknown;
    try {
      numbers = JSON.parse(text);
    } catch {
      throw new Error("the Solana keeper key is not a JSON array of numbers");
    }
    const valid =
      Array.isArray(numbers) && numbers.every((n) => typeof n === "number" && Number.isInteger(n) && n >= 0 && n < 256);
    if (!valid) throw new Error("the Solana keeper key is not a JSON array of bytes (integers 0–255)");
    return Uint8Array.from(numbers as number[]);
  }
  try {
    return base58.decode(text);
  } catch {
    throw new Error("the Solana keeper key is neither base58 nor a JSON array of bytes");
  }
}

/**
 * The Solana keeper's key from its secret (docs/settlement.md, "The keeper's key on Solana"): the
 * 64-byte secret key (seed then public key) in base58, as `scripts/solana-chain.ts` prints it, or as
 * the JSON array of 64 numbers `solana-keygen` writes. Throws, saying why, for anything else,
 * including a secret whose public half is not its seed's.
 */
export function keeperKeypairFromSecret(secret: string): Keypair {
  const bytes = bytesOf(secret);
  if (bytes.length !== SECRET_KEY_BYTES) {
    throw new Error(`the Solana keeper key is ${bytes.length} bytes; a secret key is ${SECRET_KEY_BYTES}`);
  }
  try {
    return Keypair.fromSecretKey(bytes);
  } catch {
    throw new Error("the Solana keeper key's public half is not its seed's");
  }
}
