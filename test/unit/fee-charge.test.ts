import { describe, expect, it } from "vitest";
import { evmAdapter } from "../../src/chains/evm/adapter";
import { feeChargeFor } from "../../src/chains/fee-charge";
import { solanaAdapter } from "../../src/chains/solana/adapter";
import { localConfig } from "../../src/config/local";
import type { EvmChain, SolanaChain } from "../../src/config/schema";

const exact = (a: string, b: string) => a === b;
const anyCase = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

describe("feeChargeFor", () => {
  it("charges the first fee token that is a side of the swap, on that side", () => {
    const fee = { tokens: ["USDC", "cNGN"], bps: 10 };
    expect(feeChargeFor(fee, "USDC", "cNGN", exact)).toEqual({ token: "USDC", bps: 10, side: "sell" });
    expect(feeChargeFor(fee, "cNGN", "USDC", exact)).toEqual({ token: "USDC", bps: 10, side: "buy" });
    // Priority, not position in the pair: the first listed wins even when it is the buy token.
    expect(feeChargeFor({ tokens: ["EURC", "cNGN", "USDC"], bps: 5 }, "USDC", "cNGN", exact)).toEqual({
      token: "cNGN",
      bps: 5,
      side: "buy",
    });
  });

  it("falls to the buy token when neither side is a fee token, or the chain names none (EVM)", () => {
    expect(feeChargeFor({ tokens: ["EURC"], bps: 10 }, "USDC", "cNGN", exact)).toEqual({
      token: "cNGN",
      bps: 10,
      side: "buy",
    });
    expect(feeChargeFor({ tokens: [], bps: 10 }, "0xSELL", "0xBUY", anyCase)).toEqual({
      token: "0xBUY",
      bps: 10,
      side: "buy",
    });
  });

  it("compares tokens as the chain does, and answers the swap's own spelling", () => {
    expect(feeChargeFor({ tokens: ["0xsell"], bps: 1 }, "0xSELL", "0xBUY", anyCase)).toEqual({
      token: "0xSELL",
      bps: 1,
      side: "sell",
    });
    expect(feeChargeFor({ tokens: ["usdc"], bps: 1 }, "USDC", "cNGN", exact).side).toBe("buy");
  });

  it("is decided by the adapters' facts: Solana's fee.tokens, none on EVM", () => {
    const solana = localConfig.chains.find((c): c is SolanaChain => c.kind === "solana") as SolanaChain;
    const evm = localConfig.chains.find((c): c is EvmChain => c.kind === "evm") as EvmChain;
    expect(solanaAdapter(solana).feeTokens).toEqual(solana.fee.tokens);
    expect(evmAdapter(evm).feeTokens).toEqual([]);
    const [usdc, cngn] = [solana.fee.tokens[0] as string, solana.tokens[1]?.address as string];
    const adapter = solanaAdapter(solana);
    const fees = { tokens: adapter.feeTokens, bps: solana.fee.bps };
    expect(feeChargeFor(fees, usdc, cngn, adapter.sameAddress).side).toBe("sell");
    expect(feeChargeFor(fees, cngn, usdc, adapter.sameAddress).side).toBe("buy");
  });
});
