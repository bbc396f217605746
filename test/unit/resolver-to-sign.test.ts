import { type Address, recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { completeToSign, type JsonTypedData, ToSignError } from "../../src/chains/evm/json-typed-data";
import { fillTypedData, quoteIdToBytes32 } from "../../src/chains/evm/typed-data";

const resolver = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const executor: Address = "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707";
const fill = {
  quoteId: quoteIdToBytes32("q_0123456789abcdef0123456789abcdef"),
  taker: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  sellToken: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
  sellAmount: 1_000_000_000n,
  buyToken: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
  outputAmount: 0n,
  deadline: 1_900_000_000n,
} as const;

/** What the relay puts on the wire: fillTypedData, integers as strings, outputAmount null, through JSON. */
function wireToSign(): JsonTypedData {
  const typed = fillTypedData({ chainId: 31337, executor, fill });
  const message = Object.fromEntries(
    Object.entries(typed.message).map(([k, v]) => [k, k === "outputAmount" ? null : String(v)]),
  );
  return JSON.parse(JSON.stringify({ ...typed, message }));
}

describe("completeToSign", () => {
  it("signs exactly what fillTypedData describes, so the relay recovers the resolver", async () => {
    const completed = completeToSign(wireToSign(), 633_000n);
    const signature = await resolver.signTypedData(completed);
    const direct = await resolver.signTypedData(
      fillTypedData({ chainId: 31337, executor, fill: { ...fill, outputAmount: 633_000n } }),
    );
    expect(signature).toBe(direct);
    expect(await recoverTypedDataAddress({ ...completed, signature })).toBe(resolver.address);
  });

  it("binds the output amount: a signature for one amount does not verify for another", async () => {
    const signature = await resolver.signTypedData(completeToSign(wireToSign(), 633_000n));
    const other = await recoverTypedDataAddress({ ...completeToSign(wireToSign(), 633_001n), signature });
    expect(other).not.toBe(resolver.address);
  });

  it("turns integer fields into bigints and leaves the others alone", () => {
    const { message, domain } = completeToSign(wireToSign(), 5n);
    expect(message).toEqual({
      quoteId: fill.quoteId,
      taker: fill.taker,
      sellToken: fill.sellToken,
      sellAmount: 1_000_000_000n,
      buyToken: fill.buyToken,
      outputAmount: 5n,
      deadline: 1_900_000_000n,
    });
    expect(domain).toEqual({ name: "Relay Executor", version: "1", chainId: 31337, verifyingContract: executor });
  });

  it("does not change the toSign it was given", () => {
    const toSign = wireToSign();
    const before = structuredClone(toSign);
    completeToSign(toSign, 5n);
    expect(toSign).toEqual(before);
  });

  it("converts nested structs, arrays of structs and signed integers", async () => {
    const toSign: JsonTypedData = {
      domain: { name: "Nested", version: "2", chainId: "8453", verifyingContract: executor },
      types: {
        Order: [
          { name: "leg", type: "Leg" },
          { name: "legs", type: "Leg[]" },
          { name: "limits", type: "uint64[2]" },
          { name: "outputAmount", type: "uint256" },
        ],
        Leg: [
          { name: "token", type: "address" },
          { name: "amount", type: "uint128" },
          { name: "skew", type: "int32" },
        ],
      },
      primaryType: "Order",
      message: {
        leg: { token: executor, amount: "7", skew: "-3" },
        legs: [
          { token: executor, amount: "1", skew: "0" },
          { token: executor, amount: "2", skew: "2147483647" },
        ],
        limits: ["10", "18446744073709551615"],
        outputAmount: null,
      },
    };
    const completed = completeToSign(toSign, 99n);
    expect(completed.domain.chainId).toBe(8453n);
    expect(completed.message).toEqual({
      leg: { token: executor, amount: 7n, skew: -3n },
      legs: [
        { token: executor, amount: 1n, skew: 0n },
        { token: executor, amount: 2n, skew: 2147483647n },
      ],
      limits: [10n, 18446744073709551615n],
      outputAmount: 99n,
    });
    const signature = await resolver.signTypedData(completed);
    expect(await recoverTypedDataAddress({ ...completed, signature })).toBe(resolver.address);
  });

  it.each([
    ["a number where a decimal string belongs", { sellAmount: 1000 }, /sellAmount: expected a decimal string/],
    ["a non-decimal string", { sellAmount: "0x10" }, /sellAmount: expected a decimal string/],
    ["a leading zero", { deadline: "01" }, /deadline: expected a decimal string/],
    ["a negative unsigned value", { sellAmount: "-1" }, /out of range for uint256/],
    ["a value over 256 bits", { sellAmount: (1n << 256n).toString() }, /out of range for uint256/],
    ["a missing field", { taker: undefined }, /RfqFill.taker: missing/],
  ])("refuses %s", (_, patch, error) => {
    const toSign = wireToSign();
    expect(() => completeToSign({ ...toSign, message: { ...toSign.message, ...patch } }, 1n)).toThrow(error);
  });

  it("refuses a negative output, a primary type without outputAmount and a foreign domain field", () => {
    const toSign = wireToSign();
    expect(() => completeToSign(toSign, -1n)).toThrow(ToSignError);
    const withoutOutput = { ...toSign, types: { RfqFill: (toSign.types.RfqFill ?? []).slice(0, 5) } };
    expect(() => completeToSign(withoutOutput, 1n)).toThrow(/no outputAmount field/);
    expect(() => completeToSign({ ...toSign, primaryType: "Nope" }, 1n)).toThrow(/no entry in types/);
    expect(() => completeToSign({ ...toSign, domain: { ...toSign.domain, extra: 1 } }, 1n)).toThrow(/domain.extra/);
  });
});
