import { describe, expect, it } from "vitest";
import { checkFeeBps } from "../../scripts/lib/fee-check";
import type { TokenFeeBps } from "../../src/chains/protocol-fee";
import { localConfig } from "../../src/config/local";
import type { ChainConfig } from "../../src/config/schema";

/** scripts/check-config.ts's fee check (docs/configuration.md, "Checking a configuration"), on a fake chain. */

const bpsOf = (chain: ChainConfig, usdc: number): TokenFeeBps[] =>
  chain.tokens.map((t) => ({ symbol: t.symbol, address: t.address, bps: t.symbol === "USDC" ? usdc : chain.fee.bps }));

describe("check-config's protocol fee check", () => {
  it("agrees when every token's FeeController bps are fee.bps; Solana has none to ask", async () => {
    const check = await checkFeeBps(localConfig, (c) => (c.kind === "evm" ? Promise.resolve(bpsOf(c, 10)) : null));
    expect(check).toEqual({ refused: [], unchecked: [], agreed: ["chain anvil (31337)"] });
  });

  it("refuses a token whose bps differ, naming the chain, the token and both values", async () => {
    const check = await checkFeeBps(localConfig, (c) => (c.kind === "evm" ? Promise.resolve(bpsOf(c, 25)) : null));
    expect(check.refused).toEqual(["chain anvil (31337): fee.bps 10 differs from the FeeController's 25 for USDC"]);
    expect(check.agreed).toEqual([]);
  });

  it("reports a chain whose RPC does not answer as unchecked, and refuses nothing for it", async () => {
    const check = await checkFeeBps(localConfig, (c) =>
      c.kind === "evm" ? Promise.reject(new Error("fetch failed")) : null,
    );
    expect(check).toEqual({
      refused: [],
      unchecked: ["chain anvil (31337): could not check fee.bps against the FeeController: fetch failed"],
      agreed: [],
    });
  });
});
