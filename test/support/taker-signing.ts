import type { ChainAdapter, QuoteSigning } from "../../src/chains/adapter";

/** What the taker signs on a chain whose quotes the taker signs at once (EVM); throws on any other. */
export function takerSigningOf(adapter: ChainAdapter): Extract<QuoteSigning, { kind: "taker" }>["takerSigning"] {
  const { signing } = adapter;
  if (signing.kind !== "taker") throw new Error(`the taker does not sign first on ${adapter.chain.name}`);
  return signing.takerSigning;
}
