import { describe, expect, it } from "vitest";
import { adapterFor, keptForSettlement, type RfqTerms } from "../../src/chains";
import { parseSigning, withBid } from "../../src/chains/evm/stored-signing";
import type { EvmChain } from "../../src/config";
import { localConfig } from "../../src/config/local";

/** What a quote's row keeps of what the taker signs (docs/capacity.md, "Storage"). */

const chain = localConfig.chains.find((c) => c.kind === "evm") as EvmChain;
const [sell, buy] = chain.tokens;
const terms = {
  quoteId: `q_${"ab".repeat(16)}`,
  sellToken: sell?.address,
  buyToken: buy?.address,
  recipient: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
  gasFeeToken: buy?.address,
  deadline: 1_790_000_000,
  chain,
} as unknown as RfqTerms;
const winner = {
  resolver: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  amounts: { takerPays: 1_580_000_000n, received: 998_000n, fee: 1_000n, gasFee: 50_000n, outputAmount: 1_000_000n },
} as Parameters<Extract<ReturnType<typeof adapterFor>["signing"], { kind: "taker" }>["takerSigning"]>[1];

describe("the signing an EVM quote's row keeps", () => {
  const { signing } = adapterFor(chain);
  if (signing.kind !== "taker") throw new Error("EVM quotes are signed by the taker");
  const full: Record<string, unknown> = {
    ...signing.takerSigning(terms, winner),
    // What the quote's row adds: the filling bid (src/auction/quote-row.ts).
    resolver: winner.resolver,
    outputAmount: winner.amounts.outputAmount.toString(),
    resolverSignature: `0x${"11".repeat(65)}`,
    deadline: terms.deadline,
  };
  const kept = keptForSettlement(signing, full);

  it("drops the typed data's domain and types, the contracts' constants, and is under half the bytes", () => {
    expect(kept.typedData).toEqual({ message: (full.typedData as { message: unknown }).message });
    expect(JSON.stringify(kept).length).toBeLessThan(JSON.stringify(full).length / 2);
  });

  it("settles as the whole did: the keeper reads the same order, permit and resolver signature", () => {
    expect(parseSigning(kept)).toEqual(parseSigning(full));
  });

  it("keeps a limit round's signing, which has no typed data, whole", () => {
    const limit = { limit: { limitOrderId: "lo_1", order: {}, nonce: "1" }, resolver: winner.resolver, gasFee: "1" };
    expect(keptForSettlement(signing, limit)).toBe(limit);
  });
});

describe('the signing a faded quote is filled with (docs/legs.md, "Settlement and blame")', () => {
  const { signing } = adapterFor(chain);
  if (signing.kind !== "taker") throw new Error("EVM quotes are signed by the taker");
  const stored = keptForSettlement(signing, {
    ...signing.takerSigning(terms, winner),
    resolver: winner.resolver,
    outputAmount: "1000000",
    resolverSignature: `0x${"11".repeat(65)}`,
    legs: [
      { resolver: winner.resolver, sellAmount: "1", outputAmount: "1", signature: "0x11" },
      { resolver: `0x${"12".repeat(20)}`, sellAmount: "2", outputAmount: "2", signature: "0x12" },
    ],
  });
  const part = (n: number, sellAmount: string | null) => ({
    resolver: `0x${String(n).repeat(40)}`,
    sellAmount,
    outputAmount: `${n}000`,
    signature: `0x${String(n).repeat(130)}`,
  });

  it("puts several parts in as the legs, the first the quote's resolver, the same order signed", () => {
    const legs = [part(3, "700"), part(4, "800")];
    const parsed = parseSigning(withBid(stored, legs));
    expect(parsed.order).toEqual(parseSigning(stored).order);
    expect(parsed.bids.map((b) => [b.resolver.toLowerCase(), b.sellAmount, b.outputAmount])).toEqual([
      [legs[0]?.resolver, 700n, 3000n],
      [legs[1]?.resolver, 800n, 4000n],
    ]);
    expect(parsed.resolver.toLowerCase()).toBe(legs[0]?.resolver);
  });

  it("puts one whole bid in place of every leg, and refuses none or a whole bid among legs", () => {
    const parsed = parseSigning(withBid(stored, [part(5, null)]));
    expect(parsed.bids).toHaveLength(1);
    expect(parsed.bids[0]?.outputAmount).toBe(5000n);
    expect(withBid(stored, [])).toBeNull();
    expect(withBid(stored, [part(3, "700"), part(5, null)])).toBeNull();
  });
});
