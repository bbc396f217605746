import { describe, expect, it } from "vitest";
import { chainPairs, isAddressOf, normaliseAddress, quotesPair, sameAddressOf } from "../../src/chains/addresses";

const CHECKSUMMED = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
const MINT = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";

describe("EVM addresses", () => {
  it("accepts a correct EIP-55 checksum and an address in one case throughout", () => {
    expect(isAddressOf("evm", CHECKSUMMED)).toBe(true);
    expect(isAddressOf("evm", CHECKSUMMED.toLowerCase())).toBe(true);
    expect(isAddressOf("evm", `0x${CHECKSUMMED.slice(2).toUpperCase()}`)).toBe(true);
  });

  it("refuses a mixed-case address whose checksum is wrong: a typo is caught", () => {
    const typo = `${CHECKSUMMED.slice(0, -1)}C`;
    expect(isAddressOf("evm", typo)).toBe(false);
    const flipped = CHECKSUMMED.replace("D1a", "d1a");
    expect(isAddressOf("evm", flipped)).toBe(false);
  });

  it("refuses what is not 20 bytes of hex", () => {
    for (const bad of ["", "0x", `${CHECKSUMMED}0`, CHECKSUMMED.slice(2), MINT]) {
      expect(isAddressOf("evm", bad)).toBe(false);
    }
  });

  it("compares case-insensitively", () => {
    expect(sameAddressOf("evm", CHECKSUMMED, CHECKSUMMED.toLowerCase())).toBe(true);
    expect(normaliseAddress("evm", CHECKSUMMED)).toBe(CHECKSUMMED.toLowerCase());
  });
});

describe("Solana addresses", () => {
  it("are base58 and compared exactly: case matters", () => {
    expect(isAddressOf("solana", MINT)).toBe(true);
    expect(isAddressOf("solana", CHECKSUMMED)).toBe(false);
    expect(sameAddressOf("solana", MINT, MINT.toLowerCase())).toBe(false);
    expect(normaliseAddress("solana", MINT)).toBe(MINT);
  });
});

describe("corridor pairs", () => {
  const tokens = [{ address: "0xAA" }, { address: "0xbb" }, { address: "0xCc" }];

  it("are every pair of tokens on EVM", () => {
    expect(chainPairs({ kind: "evm", tokens })).toEqual([
      ["0xAA", "0xbb"],
      ["0xAA", "0xCc"],
      ["0xbb", "0xCc"],
    ]);
    expect(quotesPair({ kind: "evm", tokens }, "0xcc", "0xaa")).toBe(true);
    expect(quotesPair({ kind: "evm", tokens }, "0xaa", "0xAA")).toBe(false);
  });

  it("are the configured pairs on Solana, either way round, mints compared exactly", () => {
    const chain = {
      kind: "solana" as const,
      tokens: [{ address: "A" }, { address: "B" }, { address: "C" }],
      pairs: [["A", "B"]],
    };
    expect(chainPairs(chain)).toEqual([["A", "B"]]);
    expect(quotesPair(chain, "B", "A")).toBe(true);
    expect(quotesPair(chain, "A", "C")).toBe(false);
    expect(quotesPair(chain, "a", "B")).toBe(false);
  });
});
