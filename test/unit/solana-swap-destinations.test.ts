import { describe, expect, it } from "vitest";
import { swapDestinations } from "../../src/chains/solana/swap-destinations";
import { tokenAccount } from "../../src/chains/solana/swap-transaction";
import { localSolana, mintOf } from "../support/solana-swap";

describe("swapDestinations: the accounts a Solana fill may create", () => {
  const usdc = mintOf(localSolana, "USDC");
  const cngn = mintOf(localSolana, "cNGN");
  const recipient = localSolana.keeper;
  const fill = { kind: "rfq" as const, units: null, sellToken: cngn, buyToken: usdc };

  it("counts the recipient's buy-token account for a quote", () => {
    const token = localSolana.tokens.find((t) => t.address === usdc);
    if (!token) throw new Error("no USDC");
    const destinations = swapDestinations(localSolana, { ...fill, recipient });
    expect(destinations).toContain(tokenAccount(token, recipient).toBase58());
  });

  it("leaves out a recipient an indicative price does not have", () => {
    const priced = swapDestinations(localSolana, { ...fill, recipient: null });
    const quoted = swapDestinations(localSolana, { ...fill, recipient: "11111111111111111111111111111111" });
    expect(quoted.length).toBe(priced.length + 1);
    expect(quoted).toEqual(expect.arrayContaining(priced));
  });
});
