/**
 * What a chain kind's addresses are (docs/architecture.md, "Adding a chain kind"): each kind gives its
 * rules in its own folder, and these generic helpers turn them into the facts an adapter offers. Pure, and
 * importing no kind, so the kinds' own files build on it.
 */

/** The address rules one chain kind gives. */
export interface AddressRules {
  /** Whether `value` is an address of the kind. */
  test(value: string): boolean;
  /** What an address of the kind looks like, for error messages. */
  readonly description: string;
  /** The form addresses are compared and keyed in. */
  normalise(address: string): string;
  /** The form addresses are shown in, whatever casing a caller sent. */
  canonical(address: string): string;
}

/** A chain's address facts as its adapter offers them (src/chains/adapter.ts), for one kind and token list. */
export function addressFacts<K extends string, T extends { address: string }>(
  kind: K,
  rules: AddressRules,
  tokens: readonly T[],
) {
  const sameAddress = (a: string, b: string) => rules.normalise(a) === rules.normalise(b);
  return {
    kind,
    isAddress: (value: string) => rules.test(value),
    addressDescription: rules.description,
    sameAddress,
    normalise: (address: string) => rules.normalise(address),
    canonical: (address: string) => rules.canonical(address),
    token: (address: string): T | null => tokens.find((t) => sameAddress(t.address, address)) ?? null,
  };
}
