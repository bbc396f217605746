import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { evmAdapter } from "../../src/chains/evm/adapter";
import { Bidder, type BidderOptions } from "../../src/clients/resolver/bidder";
import type { Emit } from "../../src/clients/resolver/events";
import { anvilAccount, solanaSigner } from "../../src/clients/resolver/keys";
import { NodeStates } from "../../src/clients/resolver/node-state";
import { OpenQuotes } from "../../src/clients/resolver/open-quotes";
import { fixedRatePricer, parseDecimal } from "../../src/clients/resolver/pricing";
import type { ChainInfo } from "../../src/clients/resolver/relay-config";
import type { InventoryEntry } from "../../src/protocol/node-frames";
import { OUTPUT_AMOUNT_SLOT, type RfqFrame } from "../../src/protocol/relay-frames";
import { vectorEvmChain, vectorEvmKeys, vectors, vectorTerms } from "../support/signing-vectors";

const CNGN = "CNGNmint1111111111111111111111111111111111";
const USDC = "USDCmint1111111111111111111111111111111111";
const CORRIDOR = `103:${CNGN}:${USDC}`;
const chain: ChainInfo = {
  kind: "solana",
  chainId: 103,
  name: "solana-local",
  executor: "Exec1111111111111111111111111111111111111",
  tokens: [
    { symbol: "cNGN", address: CNGN, decimals: 6 },
    { symbol: "USDC", address: USDC, decimals: 6 },
  ],
};
const solana = solanaSigner(new Uint8Array(32).fill(9));
const plenty: InventoryEntry[] = [{ chainId: 103, token: USDC, balance: "1000000000", allowance: "1000000000" }];

/** A Solana rfq selling 1000 cNGN, its commitment text as the relay writes it. */
function rfq(overrides: Partial<RfqFrame> = {}): RfqFrame {
  const base = {
    type: "rfq" as const,
    rfqId: "r_1",
    quoteId: "q_1",
    chainId: 103,
    sellToken: CNGN,
    buyToken: USDC,
    sellAmount: "1000000000",
    taker: "Taker111111111111111111111111111111111111",
    recipient: "Taker111111111111111111111111111111111111",
    deadline: 1_900_000_000,
    fee: { token: USDC, bps: 10 },
    gasFee: { token: USDC, amount: "5000" },
    band: null,
    ...overrides,
  };
  const text = `relay-solana-bid|${CORRIDOR}|${base.rfqId}|${base.quoteId}|${OUTPUT_AMOUNT_SLOT}|${base.deadline}`;
  return { toSign: { scheme: "ed25519", text }, ...base };
}

function bidder(options: Partial<BidderOptions> = {}) {
  const errors: Error[] = [];
  const emit: Emit = (event, payload) => {
    if (event === "error") errors.push((payload as { error: Error }).error);
  };
  const made = new Bidder({
    account: anvilAccount(1),
    solana,
    chains: [chain],
    pricer: fixedRatePricer({ rate: parseDecimal("0.000633") }),
    random: () => 0.5,
    states: new NodeStates(),
    emit,
    ...options,
  });
  return { bidder: made, errors };
}

const corridor = (inventory = plenty, openQuotes = new OpenQuotes()) => ({
  key: CORRIDOR,
  band: null,
  heartbeats: { inventory, inventoryRead: true, queue: Promise.resolve(), readAt: 0 },
  openQuotes,
});

describe("what the node answers an rfq", () => {
  it("bids what its pricer gives, signed over the commitment with its amount in the slot", async () => {
    const { bidder: b } = bidder();
    const reply = await b.decide(corridor(), rfq());
    expect(reply).toMatchObject({ type: "bid", rfqId: "r_1", outputAmount: "633000" });
    const text = `relay-solana-bid|${CORRIDOR}|r_1|q_1|633000|1900000000`;
    const signature = reply.type === "bid" ? reply.signature : "";
    const verified = ed25519.verify(
      base58.decode(signature),
      new TextEncoder().encode(text),
      base58.decode(solana.address),
    );
    expect(verified).toBe(true);
  });

  /** The signing vector's EVM chain, as the resolver reads it from the relay's configuration. */
  const vectorChain = (legs: { maxLegs?: number; minLegSellAmount?: string } = {}): ChainInfo => {
    const v = vectors.rfqFill;
    return {
      kind: "evm",
      chainId: v.chainId,
      name: "local",
      executor: v.executor,
      tokens: [
        { symbol: "cNGN", address: v.sellToken, decimals: 6, minLegSellAmount: legs.minLegSellAmount ?? null },
        { symbol: "USDC", address: v.buyToken, decimals: 6 },
      ],
      ...(legs.maxLegs === undefined ? {} : { maxLegs: legs.maxLegs }),
    };
  };

  /** The signing vector's rfq. */
  const vectorRfq = (): RfqFrame => {
    const v = vectors.rfqFill;
    return {
      ...rfq({ chainId: v.chainId, sellToken: v.sellToken, buyToken: v.buyToken, sellAmount: v.sellAmount }),
      rfqId: v.rfqId,
      quoteId: v.quoteId,
      taker: v.taker,
      recipient: v.taker,
      deadline: v.deadline,
      toSign: v.toSign,
    };
  };

  it("signs an EVM bid as the test vector's signature, with an account that signs hashes and one that only signs typed data", async () => {
    const v = vectors.rfqFill;
    const evm = vectorChain();
    const frame = vectorRfq();
    const account = privateKeyToAccount(vectors.keys.evm.privateKey);
    const inventory = [{ chainId: v.chainId, token: v.buyToken, balance: "1000000000", allowance: "1000000000" }];
    for (const signer of [account, { ...account, sign: undefined }]) {
      const { bidder: b } = bidder({
        account: signer,
        chains: [evm],
        pricer: () => ({ outputAmount: BigInt(v.outputAmount) }),
      });
      const reply = await b.decide({ ...corridor(inventory), key: `${v.chainId}:${v.sellToken}:${v.buyToken}` }, frame);
      expect(reply).toMatchObject({ type: "bid", outputAmount: v.outputAmount, signature: v.signature });
    }
  });

  it("bids the part its inventory covers when it cannot cover the whole, signed over the part (docs/legs.md)", async () => {
    const v = vectors.rfqFill;
    const whole = BigInt(v.sellAmount);
    const wholeOutput = BigInt(v.outputAmount);
    const evm = (maxLegs: number) => vectorChain({ maxLegs, minLegSellAmount: (whole / 10n).toString() });
    const frame = vectorRfq();
    // It holds 60 % of the whole's output; its price is the same rate for any amount.
    const held = (wholeOutput * 6n) / 10n;
    const inventory = [{ chainId: v.chainId, token: v.buyToken, balance: held.toString(), allowance: held.toString() }];
    const pricer = ({ sellAmount }: { sellAmount: bigint }) => ({ outputAmount: (sellAmount * wholeOutput) / whole });
    const key = `${v.chainId}:${v.sellToken}:${v.buyToken}`;
    const account = privateKeyToAccount(vectors.keys.evm.privateKey);
    const { bidder: b } = bidder({ account, chains: [evm(4)], pricer });
    const reply = await b.decide({ ...corridor(inventory), key }, frame);
    if (reply.type !== "bid") throw new Error(`declined: ${JSON.stringify(reply)}`);
    const part = BigInt(reply.sellAmount ?? "0");
    expect(part).toBe((whole * held) / wholeOutput);
    expect(BigInt(reply.outputAmount)).toBeLessThanOrEqual(held);
    // The relay verifies it over the part, and not over the whole.
    const terms = vectorTerms({
      chain: vectorEvmChain(),
      corridor: vectors.auth.corridor,
      rfqId: v.rfqId,
      quoteId: v.quoteId,
      deadline: v.deadline,
    });
    const adapter = evmAdapter(vectorEvmChain());
    const keys = await vectorEvmKeys();
    const out = BigInt(reply.outputAmount);
    expect(adapter.verifyBid(terms, out, keys, reply.signature, part)).toBe(true);
    expect(adapter.verifyBid(terms, out, keys, reply.signature)).toBe(false);
    expect(adapter.verifyBid(terms, out, keys, reply.signature, part + 1n)).toBe(false);
    // A chain whose fills take one maker, or a part below the token's least, and it declines as before.
    const one = await bidder({ account, chains: [evm(1)], pricer }).bidder.decide(
      { ...corridor(inventory), key },
      frame,
    );
    expect(one).toMatchObject({ type: "decline", reason: "insufficient_inventory" });
    const little = [{ ...inventory[0], balance: (wholeOutput / 20n).toString() }] as typeof inventory;
    const small = await b.decide({ ...corridor(little), key }, frame);
    expect(small).toMatchObject({ type: "decline", reason: "insufficient_inventory" });
  });

  it("declines with the first check that fails, in the documented order", async () => {
    const reason = async (b: Bidder, r = rfq(), c = corridor()) => {
      const reply = await b.decide(c, r);
      return reply.type === "decline" ? reply.reason : "bid";
    };
    const paused = new NodeStates("paused");
    expect(await reason(bidder({ declineRate: 1, states: paused }).bidder)).toBe("random_decline");
    expect(await reason(bidder({ states: paused }).bidder)).toBe("paused");
    expect(await reason(bidder({ chains: [] }).bidder)).toBe("unsupported_chain");
    expect(await reason(bidder({ solana: null }).bidder)).toBe("no_solana_key");
    expect(await reason(bidder().bidder, rfq({ buyToken: "Other111111111111111111111111111111111111" }))).toBe(
      "unknown_token",
    );
    const wrongText = { ...rfq(), toSign: { scheme: "ed25519" as const, text: "relay-solana-bid|x" } };
    expect(await reason(bidder().bidder, wrongText)).toBe("to_sign_mismatch:format");
    expect(await reason(bidder({ pricer: () => ({ decline: "no_band" }) }).bidder)).toBe("no_band");
    expect(await reason(bidder({ pricer: () => ({ outputAmount: 0n }) }).bidder)).toBe("amount_too_small");
    expect(await reason(bidder().bidder, rfq(), corridor([]))).toBe("insufficient_inventory");
  });

  it("bids a taker only from what its own open quotes leave free, and again once a quote it won fails", async () => {
    const { bidder: b } = bidder();
    const open = new OpenQuotes();
    // 1000 USDC in hand, 633 of it won by this taker: its rfq worth 633 more is not covered by the 367 left.
    open.bid(rfq(), 633_000_000n, 0);
    open.result("r_1", true);
    const held = corridor([{ chainId: 103, token: USDC, balance: "1000000000", allowance: "1000000000" }], open);
    const big = rfq({ rfqId: "r_2", quoteId: "q_2", sellAmount: "1000000000000" });
    expect(await b.decide(held, big)).toMatchObject({ type: "decline", reason: "insufficient_inventory" });
    expect(await b.decide(held, rfq({ rfqId: "r_3", quoteId: "q_3" }))).toMatchObject({ type: "bid" });
    // Another taker's rfq is bid from the whole: the first taker's quote holds nothing against it.
    const other = "Other11111111111111111111111111111111111111";
    const theirs = rfq({ rfqId: "r_4", quoteId: "q_4", sellAmount: "1000000000000", taker: other, recipient: other });
    expect(await b.decide(held, theirs)).toMatchObject({ type: "bid", outputAmount: "633000000" });
    open.execution("q_1", "failed", 1);
    expect(await b.decide(held, big)).toMatchObject({ type: "bid", outputAmount: "633000000" });
  });

  it("declines pricing_error and tells listeners when the pricer throws", async () => {
    const { bidder: b, errors } = bidder({
      pricer: () => {
        throw new Error("feed down");
      },
    });
    expect(await b.decide(corridor(), rfq())).toMatchObject({ type: "decline", reason: "pricing_error" });
    expect(errors.map((e) => e.message)).toEqual(["feed down"]);
  });

  it("judges an rfq that beats the first inventory read by that read", async () => {
    const { bidder: b } = bidder();
    const heartbeats = {
      inventory: [] as InventoryEntry[],
      inventoryRead: false,
      queue: Promise.resolve(),
      readAt: null as number | null,
    };
    let read = () => {};
    heartbeats.queue = new Promise<void>((resolve) => {
      read = resolve;
    }).then(() => {
      heartbeats.inventory = plenty;
      heartbeats.inventoryRead = true;
    });
    const decided = b.decide({ key: CORRIDOR, band: null, heartbeats, openQuotes: new OpenQuotes() }, rfq());
    read();
    expect(await decided).toMatchObject({ type: "bid" });
  });

  it("refuses a decline rate or a latency out of range, and draws a latency range with its random source", () => {
    expect(() => bidder({ declineRate: 1.5 })).toThrow("declineRate must be between 0 and 1");
    expect(() => bidder({ latencyMs: { min: 20, max: 10 } })).toThrow("latencyMs must be a non-negative");
    expect(bidder({ latencyMs: { min: 10, max: 30 } }).bidder.latency()).toBe(20);
    expect(bidder({ latencyMs: 7 }).bidder.latency()).toBe(7);
  });
});
