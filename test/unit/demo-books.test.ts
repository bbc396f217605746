import { describe, expect, it } from "vitest";
import { keeperBooksLines } from "../../scripts/lib/demo-books";

/** What `npm run demo` prints last (scripts/lib/demo-books.ts): the keeper's books of its swap. */

const USDC = { symbol: "USDC", decimals: 6 };

describe("the demo's keeper books", () => {
  it("gives spent, charged and the margin in native units and in the charged token at the quote's price", () => {
    const keeper = {
      spent: "150000000000000",
      charged: { token: "0xusdc", amount: "600000" },
      nativePrice: 3000,
    };
    expect(keeperBooksLines(keeper, "evm", USDC)).toEqual([
      "the keeper's books for this swap:",
      "  spent    0.00015 ETH (gas, paid by the keeper)",
      "  charged  0.6 USDC = 0.0002 ETH at 3000 USDC per ETH",
      "  margin   +0.00005 ETH = +0.15 USDC",
    ]);
  });

  it("shows a negative margin in lamports and in the token on Solana", () => {
    const keeper = { spent: "2054480", charged: { token: "mint", amount: "150000" }, nativePrice: 100 };
    expect(keeperBooksLines(keeper, "solana", USDC).slice(2)).toEqual([
      "  charged  0.15 USDC = 0.0015 SOL at 100 USDC per SOL",
      "  margin   -0.00055448 SOL = -0.055448 USDC",
    ]);
  });

  it("shows an even margin without a sign", () => {
    const keeper = { spent: "15200", charged: { token: "mint", amount: "2280" }, nativePrice: 150 };
    expect(keeperBooksLines(keeper, "solana", USDC).at(-1)).toBe("  margin   0 SOL = 0 USDC");
  });

  it("gives no margin for a fallback fee, and says when nothing is recorded", () => {
    const keeper = { spent: "5000", charged: { token: "0xusdc", amount: "5000" }, nativePrice: null };
    expect(keeperBooksLines(keeper, "evm", USDC).at(-1)).toBe(
      "  charged  0.005 USDC (the fallback fee: no native price to convert at; no margin)",
    );
    expect(keeperBooksLines(null, "evm", USDC)).toEqual([
      "the keeper's books: not recorded (the execution has not settled)",
    ]);
  });
});
