import { describe, expect, it } from "vitest";
import type { LegTerms } from "../../src/auction/compose-legs";
import { decideWinner } from "../../src/auction/decide";
import { type RankedOffer, rankBids } from "../../src/auction/rank";
import type { QuoteSigning, RfqTerms } from "../../src/chains/adapter";
import type { NodeSession } from "../../src/nodes";
import { FakeClock } from "../support/fake-clock";
import { legBid } from "../support/leg-bids";

// A fill of legs where every leg's resolver signs the settlement transaction after the auction (Solana,
// docs/legs.md "In the auction"): one transaction of every leg, sent to each leg's resolver at once, every
// signature verified in its own place; a resolver that does not sign is struck alone and the fill composed
// again without it.

const terms = { rfqId: "r", quoteId: "q", sellAmount: 100n } as RfqTerms;
const legTerms: LegTerms = {
  sellAmount: 100n,
  minLegSellAmount: 10n,
  maxLegs: 2,
  fee: { bps: 0, side: "buy" },
  gas: { perSwap: 0n, perLeg: 10n },
};

/** The transaction names its legs' resolvers; a resolver's signature is `signed:<its key>:<transaction>`. */
const signing: Extract<QuoteSigning, { kind: "winner" }> = {
  kind: "winner",
  keepFresh: async () => {},
  request: (_t, winner) => ({
    transaction: `tx:${(winner.legs ?? [winner]).map((l) => l.resolver).join(",")}`,
    facts: { legs: winner.legs?.length ?? 1 },
  }),
  verify: (request, keys, signature) => signature === `signed:${keys.ed25519Key}:${request.transaction}`,
  takerSigning: (request, keys, signature, others = []) => ({
    transaction: request.transaction,
    signatures: [signature, ...others.map((o) => o.signature)],
    signers: [keys.ed25519Key, ...others.map((o) => o.keys.ed25519Key)],
  }),
};

const bid = legBid;

/** Parts a (60) and b (40) that pay 10,100 together, and a whole bid w of 10,000: the parts win by 80. */
const auction = () =>
  rankBids([bid("w", 10_000n), bid("a", 6_100n, 60n), bid("b", 4_000n, 40n)], { bandGuardBps: 300, bounds: null })
    .offers;

const node = (address: string) => ({ address, publicKey: "0x04", ed25519Key: `key-${address}` }) as NodeSession;
const nodes = new Map(["w", "a", "b"].map((a) => [a, node(a)]));

/** How each resolver answers `sign`: its signature, nothing, or a signature of something else. */
type Answer = "signs" | "silent" | "wrong";

function decide(offers: RankedOffer[], answers: Record<string, Answer> = {}, unbuildable = false) {
  const calls: string[] = [];
  /** Who had been asked when each answer came: all of a round's resolvers, asked before any answer. */
  const asked: string[][] = [];
  const struck: [string, string][] = [];
  const held = new Set<string>();
  const decision = decideWinner(
    {
      signing: unbuildable ? { ...signing, request: () => null } : signing,
      terms,
      nodes,
      fresh: Promise.resolve(),
      clock: new FakeClock(),
      amountsOf: (o) => (o.bid as ReturnType<typeof bid>).amounts as never,
      verifyBid: () => true,
      askToSign: async (address, transaction) => {
        calls.push(address);
        await Promise.resolve();
        asked.push([...calls]);
        const answer = answers[address] ?? "signs";
        if (answer === "silent") return null;
        return answer === "wrong" ? "signed:else" : `signed:key-${address}:${transaction}`;
      },
      strike: (address, why) => struck.push([address, why]),
      hold: (o) => {
        held.add(o.resolver);
        return () => held.delete(o.resolver);
      },
      legTerms: async () => legTerms,
    },
    offers,
  );
  return { decision, asked, struck, held };
}

describe("decideWinner with legs whose resolvers sign after the auction", () => {
  it("asks every leg's resolver at once to sign the one transaction, and puts every signature in place", async () => {
    const { decision, asked, struck, held } = decide(auction());
    const d = await decision;
    expect(asked).toEqual([
      ["a", "b"],
      ["a", "b"],
    ]);
    expect(struck).toEqual([]);
    expect(d.winner?.legs?.map((l) => l.resolver)).toEqual(["a", "b"]);
    expect(d.winner?.offer.resolver).toBe("a");
    expect(d.winner?.signing).toEqual({
      transaction: "tx:a,b",
      signatures: ["signed:key-a:tx:a,b", "signed:key-b:tx:a,b"],
      signers: ["key-a", "key-b"],
    });
    expect(d.winner?.winnerSignature).toBe("signed:key-a:tx:a,b");
    expect([...held].sort()).toEqual(["a", "b"]);
  });

  it.each([
    ["silent", "did not sign within 500 ms"],
    ["wrong", "signed something else"],
  ] as const)(
    "strikes only the leg's resolver that is %s, lets go of the legs held, and composes again without it",
    async (answer, why) => {
      const { decision, struck, held } = decide(auction(), { b: answer });
      const d = await decision;
      expect(struck).toEqual([["b", why]]);
      // Without b no parts cover 100: the whole bid fills, signed by its own resolver.
      expect(d.winner?.legs).toBeUndefined();
      expect(d.winner?.offer.resolver).toBe("w");
      expect(d.winner?.signing).toMatchObject({ transaction: "tx:w", signers: ["key-w"] });
      expect([...held]).toEqual(["w"]);
    },
  );

  it("has no quote when the transaction cannot be built, and holds nothing", async () => {
    const { decision, asked, held } = decide(auction(), {}, true);
    const d = await decision;
    expect(d).toMatchObject({ winner: null, unbuildable: true });
    expect(asked).toEqual([]);
    expect([...held]).toEqual([]);
  });
});
