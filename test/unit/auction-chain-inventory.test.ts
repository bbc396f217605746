import { describe, expect, it } from "vitest";
import { fakeCorridor, quoteInput } from "../support/fake-corridor";

const quoted = <T extends { kind: string }>(outcome: T) => {
  if (outcome.kind !== "quoted") throw new Error(`not quoted: ${JSON.stringify(outcome)}`);
  return outcome as Extract<T, { kind: "quoted" }>;
};

describe("AuctionHouse: inventory as the chain shows it", () => {
  it("does not ask a node whose last on-chain read shows none of the buy token, whatever it claims", async () => {
    const c = fakeCorridor({ nodes: ["alpha", "empty"], chainHoldings: { empty: 0n } });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 1_000_000n);
    const { quote } = quoted(await pending);
    expect(c.node("empty").sent("rfq")).toEqual([]);
    expect(quote.resolver?.name).toBe("alpha");
    expect(quote.replies).toMatchObject({ valid: 1, noReply: 0 });
  });

  it("answers no_offers when the only node's claims are not backed on chain", async () => {
    const c = fakeCorridor({ nodes: ["empty"], chainHoldings: { empty: 0n } });
    const outcome = await c.house.requestQuote(quoteInput());
    expect(outcome).toMatchObject({ kind: "refused", status: 404, code: "no_offers" });
    expect(c.node("empty").sent("rfq")).toEqual([]);
  });

  it("rejects a bid within the heartbeat's inventory but over the chain's as insufficient_inventory", async () => {
    const c = fakeCorridor({ nodes: ["alpha", "short"], chainHoldings: { short: 500_000n } });
    const pending = c.house.requestQuote(quoteInput());
    await c.bid("alpha", 990_000n);
    await c.bid("short", 1_000_000n);
    const { quote } = quoted(await pending);
    expect(
      c
        .node("short")
        .sent("error")
        .map((e) => e.code),
    ).toEqual(["insufficient_inventory"]);
    expect(quote.replies).toMatchObject({ valid: 1, rejected: 1 });
    expect(quote.resolver?.name).toBe("alpha");
  });
});
