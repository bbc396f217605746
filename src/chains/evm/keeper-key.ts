import type { Hex } from "viem";

/** A keeper private key as the secret holds it: 32 bytes of hex, with or without 0x. */
export function parseKeeperKey(secret: string | undefined): Hex | null {
  const key = secret?.trim() ?? "";
  const hex = key.startsWith("0x") ? key.slice(2) : key;
  return /^[0-9a-fA-F]{64}$/.test(hex) ? `0x${hex}` : null;
}

/**
 * The keeper's wallet pool as `KEEPER_PRIVATE_KEY` holds it (docs/settlement.md, "The wallet pool"):
 * one key, or several separated by commas, each as `parseKeeperKey` reads it. A key listed twice is one
 * wallet (two wallets of one address would hand out the same nonce). Null when any part is not a key.
 */
export function parseKeeperKeys(secret: string | undefined): Hex[] | null {
  const parts = (secret ?? "").split(",").filter((p) => p.trim() !== "");
  const keys = parts.map(parseKeeperKey);
  if (keys.length === 0 || keys.some((k) => k === null)) return null;
  return [...new Set((keys as Hex[]).map((k) => k.toLowerCase() as Hex))];
}
