import type { AddressRules } from "../address-rules";

/** Solana addresses: base58 public keys, case-sensitive, compared and shown as they are. */
export const solanaAddressRules: AddressRules = {
  test: (value) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value),
  description: "a base58 public key",
  normalise: (address) => address,
  canonical: (address) => address,
};
