import { describe, expect, it } from "vitest";
import { localSolanaAccounts, localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { localConfig } from "../../src/config/local";
import type { SolanaChain } from "../../src/config/schema";

const solana = localConfig.chains.find((c): c is SolanaChain => c.kind === "solana");

describe("local Solana accounts", () => {
  it("derive from sha256 of the prefixed name, the same on every run", () => {
    expect(localSolanaKeypair("keeper").publicKey.toBase58()).toBe("7VnpjTYx5z8ByXAYGysz8q55JndTBQ8ftY6HGzZydiDs");
    expect(localSolanaKeypair("resolver:1").publicKey.toBase58()).toBe("GMKzUmNb3DGv1392E7a6n6PyJRe4yGsQbVZkDJ1LLfv4");
    expect(localSolanaKeypair("taker:5").publicKey.toBase58()).toBe("FoWsSXiswBkDBRWk2Nb4U5XaLVCKxQVupugXD8HNiYiM");
  });

  it("name four resolvers and four takers, all distinct", () => {
    const a = localSolanaAccounts();
    const all = [a.keeper, a.treasury, a.mints.USDC, a.mints.cNGN, ...a.resolvers, ...a.takers];
    expect(a.resolvers).toHaveLength(4);
    expect(a.takers).toHaveLength(4);
    expect(new Set(all.map((k) => k.publicKey.toBase58())).size).toBe(all.length);
  });

  it("are the local configuration's keeper, treasury and mints", () => {
    const a = localSolanaAccounts();
    expect(solana?.keeper).toBe(a.keeper.publicKey.toBase58());
    expect(solana?.treasury).toBe(a.treasury.publicKey.toBase58());
    const mint = (symbol: string) => solana?.tokens.find((t) => t.symbol === symbol)?.address;
    expect(mint("USDC")).toBe(a.mints.USDC.publicKey.toBase58());
    expect(mint("cNGN")).toBe(a.mints.cNGN.publicKey.toBase58());
  });
});
