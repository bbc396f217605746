import { describe, expect, it } from "vitest";
import { quoteAmounts } from "../../src/auction/amounts";
import { type SwapParties, swapLegs } from "../../src/chains/solana/swap-legs";

const parties: SwapParties = {
  taker: "taker",
  resolver: "resolver",
  recipient: "recipient",
  treasury: "treasury",
  keeper: "keeper",
  sellToken: "cNGN",
  buyToken: "USDC",
  sellAmount: 1_580_000_000n,
  gasFeeToken: "USDC",
  feeToken: "USDC",
};

const tokenOf = (side: "buy" | "sell") => (side === "buy" ? "USDC" : "cNGN");

const amounts = (gasFee: bigint, side: "buy" | "sell", feeBps = 10, feeSide: "buy" | "sell" = "buy") => {
  const a = quoteAmounts({
    sellAmount: 1_580_000_000n,
    outputAmount: 1_000_140n,
    fee: { token: tokenOf(feeSide), bps: feeBps, side: feeSide },
    gas: { token: tokenOf(side), amount: gasFee, side },
  });
  if (!a) throw new Error("no amounts");
  return a;
};

describe("the legs of a Solana swap", () => {
  it("take the gas fee in the buy token out of the resolver's output", () => {
    expect(swapLegs(parties, amounts(5_000n, "buy"))).toEqual([
      { role: "proceeds", token: "cNGN", from: "taker", to: "resolver", amount: 1_580_000_000n },
      { role: "received", token: "USDC", from: "resolver", to: "recipient", amount: 994_140n },
      { role: "fee", token: "USDC", from: "resolver", to: "treasury", amount: 1_000n },
      { role: "gasFee", token: "USDC", from: "resolver", to: "keeper", amount: 5_000n },
    ]);
  });

  it("have the taker pay a gas fee in the sell token on top of the sale", () => {
    const legs = swapLegs({ ...parties, gasFeeToken: "cNGN" }, amounts(7_000_000n, "sell"));
    expect(legs).toEqual([
      { role: "proceeds", token: "cNGN", from: "taker", to: "resolver", amount: 1_580_000_000n },
      { role: "received", token: "USDC", from: "resolver", to: "recipient", amount: 999_140n },
      { role: "fee", token: "USDC", from: "resolver", to: "treasury", amount: 1_000n },
      { role: "gasFee", token: "cNGN", from: "taker", to: "keeper", amount: 7_000_000n },
    ]);
    // What each side parts with is what the quote says: takerPays and outputAmount.
    const paid = (from: string, token: string) =>
      legs.filter((l) => l.from === from && l.token === token).reduce((s, l) => s + l.amount, 0n);
    expect(paid("taker", "cNGN")).toBe(1_587_000_000n);
    expect(paid("resolver", "USDC")).toBe(1_000_140n);
  });

  it("have the taker pay a fee in the sell token to the treasury, on top of the sale", () => {
    const legs = swapLegs({ ...parties, feeToken: "cNGN" }, amounts(5_000n, "buy", 10, "sell"));
    expect(legs).toEqual([
      { role: "proceeds", token: "cNGN", from: "taker", to: "resolver", amount: 1_580_000_000n },
      { role: "received", token: "USDC", from: "resolver", to: "recipient", amount: 995_140n },
      { role: "fee", token: "cNGN", from: "taker", to: "treasury", amount: 1_580_000n },
      { role: "gasFee", token: "USDC", from: "resolver", to: "keeper", amount: 5_000n },
    ]);
    // Both fees in the sell token: the taker pays the sale and both; the resolver only the output.
    const both = swapLegs(
      { ...parties, feeToken: "cNGN", gasFeeToken: "cNGN" },
      amounts(7_000_000n, "sell", 10, "sell"),
    );
    const paid = (from: string, token: string) =>
      both.filter((l) => l.from === from && l.token === token).reduce((s, l) => s + l.amount, 0n);
    expect(paid("taker", "cNGN")).toBe(1_580_000_000n + 1_580_000n + 7_000_000n);
    expect(paid("resolver", "USDC")).toBe(1_000_140n);
  });

  it("leave out legs of 0", () => {
    const legs = swapLegs(parties, amounts(0n, "buy", 0));
    expect(legs.map((l) => l.role)).toEqual(["proceeds", "received"]);
    expect(legs[1]?.amount).toBe(1_000_140n);
  });

  it("refuse amounts that do not add up", () => {
    const good = amounts(5_000n, "buy");
    expect(() => swapLegs(parties, { ...good, received: good.received + 1n })).toThrow(/do not add up/);
    expect(() => swapLegs(parties, { ...good, proceeds: 1n })).toThrow(/do not add up/);
    expect(() => swapLegs(parties, { ...good, takerPays: good.takerPays + 5_000n })).toThrow(/takerPays/);
    // A gas fee charged in the sell token must be in takerPays, not taken from the output.
    expect(() => swapLegs({ ...parties, gasFeeToken: "cNGN" }, good)).toThrow(/do not add up/);
    expect(() => swapLegs({ ...parties, gasFeeToken: "SOL" }, good)).toThrow(/neither side/);
    // So must a protocol fee charged in the sell token.
    expect(() => swapLegs({ ...parties, feeToken: "cNGN" }, good)).toThrow(/do not add up/);
    expect(() => swapLegs({ ...parties, feeToken: "SOL" }, good)).toThrow(/neither side/);
    expect(() => swapLegs({ ...parties, buyToken: "cNGN" }, good)).toThrow(/two tokens/);
  });
});
