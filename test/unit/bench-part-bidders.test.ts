import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { PART_SHARES, partBidder } from "../../bench/part-bidders";
import { evmAdapter } from "../../src/chains/evm/adapter";
import { Bidder } from "../../src/clients/resolver/bidder";
import { NodeStates } from "../../src/clients/resolver/node-state";
import { OpenQuotes } from "../../src/clients/resolver/open-quotes";
import { parseDecimal } from "../../src/clients/resolver/pricing";
import type { ChainInfo } from "../../src/clients/resolver/relay-config";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import { vectorEvmChain, vectorEvmKeys, vectors, vectorTerms } from "../support/signing-vectors";

/**
 * The bench's part bidders (bench/part-bidders.ts, bench/README.md "Parts beside whole bids") through the
 * real reference client's bidder, on the signing vector's rfq (1,580 cNGN, the bench's amount): each
 * offers exactly its share, within what it holds at any premium, signed over its part, and a 60 % and a
 * 40 % part sell exactly the whole, so the relay composes them into two legs.
 */

const v = vectors.rfqFill;
const whole = BigInt(v.sellAmount);
const chain: ChainInfo = {
  kind: "evm",
  chainId: v.chainId,
  name: "local",
  executor: v.executor,
  tokens: [
    { symbol: "cNGN", address: v.sellToken, decimals: 6, minLegSellAmount: "100000000" },
    { symbol: "USDC", address: v.buyToken, decimals: 6 },
  ],
  maxLegs: 4,
};
const frame: RfqFrame = {
  type: "rfq",
  rfqId: v.rfqId,
  quoteId: v.quoteId,
  chainId: v.chainId,
  sellToken: v.sellToken,
  buyToken: v.buyToken,
  sellAmount: v.sellAmount,
  taker: v.taker,
  recipient: v.taker,
  deadline: v.deadline,
  fee: { token: v.buyToken, bps: 10 },
  gasFee: { token: v.buyToken, amount: "50000" },
  band: null,
  toSign: v.toSign,
};

async function bidOf(share: (typeof PART_SHARES)[number], draw: number) {
  const { pricer, inventory } = partBidder({
    rate: parseDecimal("0.000633"),
    share,
    wholeSell: whole,
    maxPremiumBps: 380,
    random: () => draw,
    sellToken: v.sellToken,
    chains: [chain],
  });
  const held = await inventory.read(chain, [v.sellToken, v.buyToken]);
  const bidder = new Bidder({
    account: privateKeyToAccount(vectors.keys.evm.privateKey),
    chains: [chain],
    pricer,
    random: () => 0.5,
    states: new NodeStates(),
    emit: () => {},
  });
  const corridor = {
    key: `${v.chainId}:${v.sellToken}:${v.buyToken}`,
    band: null,
    heartbeats: { inventory: held, inventoryRead: true, queue: Promise.resolve(), readAt: 0 },
    openQuotes: new OpenQuotes(),
  };
  const reply = await bidder.decide(corridor, frame);
  if (reply.type !== "bid") throw new Error(`declined: ${JSON.stringify(reply)}`);
  const buy = held.find((e) => e.token === v.buyToken);
  return { reply, held: BigInt(buy?.balance ?? "0") };
}

describe("the bench's part bidders", () => {
  it("offer exactly their share, within what they hold at any premium, signed over the part", async () => {
    const adapter = evmAdapter(vectorEvmChain());
    const keys = await vectorEvmKeys();
    const terms = vectorTerms({
      chain: vectorEvmChain(),
      corridor: vectors.auth.corridor,
      rfqId: v.rfqId,
      quoteId: v.quoteId,
      deadline: v.deadline,
    });
    for (const draw of [0, 0.5, 0.99999]) {
      const parts: bigint[] = [];
      for (const share of PART_SHARES) {
        const { reply, held } = await bidOf(share, draw);
        const part = BigInt(reply.sellAmount ?? "0");
        expect(part).toBe((whole * share.num) / share.den);
        const output = BigInt(reply.outputAmount);
        expect(output).toBeLessThanOrEqual(held);
        // At the resolver's rate, or up to 3.8 % over it.
        const atRate = (part * 633n) / 1_000_000n;
        expect(output).toBeGreaterThanOrEqual(atRate);
        expect(output).toBeLessThanOrEqual((atRate * 10_380n) / 10_000n + 1n);
        expect(adapter.verifyBid(terms, output, keys, reply.signature, part)).toBe(true);
        parts.push(part);
      }
      expect(parts.reduce((a, b) => a + b, 0n)).toBe(whole);
    }
  });
});
