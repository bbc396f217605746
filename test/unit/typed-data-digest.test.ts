import { type Address, hashTypedData } from "viem";
import { describe, expect, it } from "vitest";
import { limitFillTypedData } from "../../src/chains/evm/limit-typed-data";
import { fillTypedData, quoteIdToBytes32 } from "../../src/chains/evm/typed-data";
import { digestsByAmount, typedDataDigest } from "../../src/chains/evm/typed-data-digest";
import { newId } from "../../src/ids";

const A = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const B = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512" as Address;
const C = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0" as Address;

const rfqFill = (chainId: number, executor: Address, outputAmount: bigint) =>
  fillTypedData({
    chainId,
    executor,
    fill: {
      quoteId: quoteIdToBytes32(newId("q")),
      taker: A,
      sellToken: B,
      sellAmount: 1_580_000_000n,
      buyToken: C,
      outputAmount,
      deadline: 1_800_000_000n,
    },
  });

const limitFill = (outputAmount: bigint) =>
  limitFillTypedData({
    chainId: 31337,
    reactor: C,
    fill: {
      quoteId: quoteIdToBytes32(newId("q")),
      order: {
        taker: A,
        recipient: A,
        sellToken: B,
        buyToken: C,
        sellAmount: 5n,
        minOut: 3n,
        gasFeeToken: C,
        maxGasFee: 1n,
        deadline: 9n,
      },
      nonce: 77n,
      outputAmount,
      deadline: 10n,
    },
  });

const AMOUNTS = [0n, 1n, 999_950n, 2n ** 200n, 2n ** 256n - 1n];

describe("digestsByAmount", () => {
  it("is viem's hashTypedData of the same fill at each amount, RFQ and limit fills", () => {
    const fills = [(n: bigint) => rfqFill(31337, B, n), (n: bigint) => rfqFill(1, C, n), limitFill];
    for (const fill of fills) {
      const digests = digestsByAmount(fill(7n), "outputAmount");
      // Each fill has its own quote id: the template's fields are those of the typed data it was built from.
      const typed = fill(0n);
      const same = digestsByAmount(typed, "outputAmount");
      for (const outputAmount of AMOUNTS) {
        const message = { ...typed.message, outputAmount };
        expect(same(outputAmount)).toBe(hashTypedData({ ...typed, message } as never));
        expect(digests(outputAmount)).not.toBe(same(outputAmount));
      }
    }
  });

  it("refuses a field that is not a top-level uint256, and an amount past uint256", () => {
    const typed = rfqFill(31337, B, 0n);
    expect(() => digestsByAmount(typed, "taker")).toThrow(/no uint256 field taker/);
    expect(() => digestsByAmount(typed, "missing")).toThrow(/no uint256 field/);
    expect(() => digestsByAmount(typed, "outputAmount")(2n ** 256n)).toThrow();
  });
});

describe("typedDataDigest", () => {
  it("is viem's hashTypedData for RFQ fills on several chains and executors, and for limit fills", () => {
    for (const [chainId, executor] of [
      [31337, B],
      [31337, C],
      [1, B],
    ] as const) {
      for (const outputAmount of AMOUNTS) {
        const typed = rfqFill(chainId, executor, outputAmount);
        expect(typedDataDigest(typed)).toBe(hashTypedData(typed));
      }
    }
    const limit = limitFill(4n);
    expect(typedDataDigest(limit)).toBe(hashTypedData(limit));
  });
});
