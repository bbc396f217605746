import { ed25519 } from "@noble/curves/ed25519";
import { base58 } from "@scure/base";
import { type Address, type Hex, recoverMessageAddress, recoverTypedDataAddress } from "viem";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { corridorKey } from "../../src/chains/corridor-keys";
import { evmAdapter } from "../../src/chains/evm/adapter";
import { completeToSign, eip712ToSign } from "../../src/chains/evm/json-typed-data";
import { fillTypedData, quoteIdToBytes32 } from "../../src/chains/evm/typed-data";
import { ResolverClient } from "../../src/clients/resolver/client";
import type { ResolverClientOptions } from "../../src/clients/resolver/client-options";
import { staticInventory } from "../../src/clients/resolver/inventory";
import { anvilAccount, solanaSigner } from "../../src/clients/resolver/keys";
import { bandSpreadPricer, fixedRatePricer, parseDecimal } from "../../src/clients/resolver/pricing";
import { backoffDelay } from "../../src/clients/resolver/reconnect";
import type { ChainInfo } from "../../src/clients/resolver/relay-config";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { authFrame, authMessage, bidFrame, declineFrame, heartbeatFrame } from "../../src/protocol/node-frames";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import type { Band } from "../../src/schemas/quote";
import { FakeClock } from "../support/fake-clock";
import { FakeRelay } from "../support/fake-relay";

const CNGN: Address = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const USDC: Address = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const EXECUTOR: Address = "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707";
const CORRIDOR = corridorKey(31337, CNGN.toLowerCase(), USDC.toLowerCase());
const chain: ChainInfo = {
  kind: "evm",
  chainId: 31337,
  name: "anvil",
  executor: EXECUTOR,
  tokens: [
    { symbol: "cNGN", address: CNGN, decimals: 6 },
    { symbol: "USDC", address: USDC, decimals: 6 },
  ],
};
const band: Band = { base: "USD", quote: "NGN", mid: 1600, low: 1590, high: 1610, sources: 3, at: 0 };

/** An rfq as the relay sends it: fillTypedData with integers as strings and outputAmount left null. */
function rfqFor(
  sellToken: Address,
  buyToken: Address,
  sellAmount: bigint,
  overrides: Partial<RfqFrame> = {},
): RfqFrame {
  const quoteId = `q_${crypto.randomUUID().replaceAll("-", "")}`;
  const taker: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
  const deadline = 1_900_000_000;
  const typed = fillTypedData({
    chainId: 31337,
    executor: EXECUTOR,
    fill: {
      quoteId: quoteIdToBytes32(quoteId),
      taker,
      sellToken,
      sellAmount,
      buyToken,
      outputAmount: 0n,
      deadline: BigInt(deadline),
    },
  });
  const message = Object.fromEntries(
    Object.entries(typed.message).map(([k, v]) => [k, k === "outputAmount" ? null : String(v)]),
  );
  return {
    type: "rfq",
    rfqId: `r_${quoteId.slice(2)}`,
    quoteId,
    chainId: 31337,
    sellToken,
    buyToken,
    sellAmount: sellAmount.toString(),
    taker,
    recipient: taker,
    deadline,
    fee: { token: buyToken, bps: 10 },
    gasFee: { token: USDC, amount: "50000" },
    band: null,
    toSign: JSON.parse(JSON.stringify({ scheme: "eip712", ...typed, message })),
    ...overrides,
  };
}

const account = anvilAccount(1);
const solana = solanaSigner(new Uint8Array(32).fill(7));
let relay: FakeRelay;
let client: ResolverClient | null = null;

function startClient(overrides: Partial<ResolverClientOptions> = {}): ResolverClient {
  client = new ResolverClient({
    relayUrl: relay.url,
    account,
    name: "alpha",
    version: "test",
    region: "lagos",
    signerType: "keyfile",
    solana,
    chains: [chain],
    corridors: [{ chainId: 31337, tokenA: CNGN, tokenB: USDC }],
    pricer: fixedRatePricer({ rate: parseDecimal("0.000625"), sellSymbol: "cNGN" }),
    inventory: staticInventory([
      { chainId: 31337, token: USDC, balance: "10000000", allowance: "10000000" },
      { chainId: 31337, token: CNGN, balance: "50000000000", allowance: "50000000000" },
    ]),
    backoff: { initialMs: 20, maxMs: 100 },
    ...overrides,
  });
  client.start();
  return client;
}

beforeEach(async () => {
  relay = new FakeRelay({ corridor: CORRIDOR, band });
  await relay.listening();
});

afterEach(async () => {
  await client?.stop();
  client = null;
  await relay.close();
});

describe("resolver client against a relay", () => {
  it("authenticates with an EIP-191 signature and a Solana proof over the challenge text", async () => {
    startClient();
    const socket = await relay.nextConnection();
    expect(socket.path).toBe(`/v1/corridors/31337/${CNGN}/${USDC}/connect`);
    socket.send({ type: "challenge", nonce: "n-1", corridor: CORRIDOR });
    const auth = authFrame.parse(await socket.next("auth"));
    const text = authMessage(CORRIDOR, "n-1");
    expect(await recoverMessageAddress({ message: text, signature: auth.signature as Hex })).toBe(account.address);
    expect(auth).toMatchObject({ address: account.address, name: "alpha", version: "test", region: "lagos" });
    const proof = auth.solana;
    expect(proof?.address).toBe(solana.address);
    expect(
      ed25519.verify(
        base58.decode(proof?.signature ?? ""),
        new TextEncoder().encode(text),
        base58.decode(proof?.address ?? ""),
      ),
    ).toBe(true);
  });

  it("heartbeats at once after welcome and then on schedule, with the corridor's inventory", async () => {
    const c = startClient({ heartbeatEveryMs: 60 });
    const socket = await relay.nextConnection();
    await socket.handshake("n-1");
    const first = heartbeatFrame.parse(await socket.next("heartbeat", 500));
    expect(first.state).toBe("quoting");
    expect(first.inventory.map((i) => [i.token, i.balance])).toEqual([
      [USDC, "10000000"],
      [CNGN, "50000000000"],
    ]);
    heartbeatFrame.parse(await socket.next("heartbeat", 500));
    expect(c.status()[0]).toMatchObject({ corridor: CORRIDOR, authenticated: true, band });
  });

  it("reports a state change at once and declines rfqs while paused", async () => {
    const c = startClient();
    const socket = await relay.nextConnection();
    await socket.handshake("n-1");
    await socket.next("heartbeat");
    c.setState("degraded", "rpc lagging");
    expect(heartbeatFrame.parse(await socket.next("heartbeat", 200))).toMatchObject({
      state: "degraded",
      degraded: "rpc lagging",
    });
    c.setState("paused");
    expect(await socket.next("heartbeat", 200)).toMatchObject({ state: "paused", degraded: null });
    const rfq = rfqFor(CNGN, USDC, 1_000_000_000n);
    socket.send(rfq);
    expect(await socket.next("decline")).toEqual({ type: "decline", rfqId: rfq.rfqId, reason: "paused" });
  });

  it("bids the priced amount with a signature the relay verifies over the completed toSign", async () => {
    const c = startClient();
    const socket = await relay.nextConnection();
    await socket.handshake("n-1");
    const rfq = rfqFor(CNGN, USDC, 1_600_000_000n);
    const answered = new Promise((resolve) => c.on("answer", resolve));
    socket.send(rfq);
    const bid = bidFrame.parse(await socket.next("bid"));
    expect(await answered).toMatchObject({ corridor: CORRIDOR, rfq: { rfqId: rfq.rfqId }, reply: bid });
    expect(bid).toMatchObject({ rfqId: rfq.rfqId, outputAmount: "1000000" });
    const signer = await recoverTypedDataAddress({
      ...completeToSign(eip712ToSign(rfq.toSign), BigInt(bid.outputAmount)),
      signature: bid.signature as Hex,
    });
    expect(signer).toBe(account.address);
  });

  it("bids in a limit order's round with a LimitFill the relay's adapter verifies, and declines one for another reactor", async () => {
    const relayChain = primaryEvmChain(localConfig);
    startClient({ chains: [{ ...chain, executor: relayChain.executor, reactor: relayChain.reactor }] });
    const socket = await relay.nextConnection();
    await socket.handshake("n-1");
    const base = rfqFor(CNGN, USDC, 1_600_000_000n);
    const order = {
      taker: base.taker,
      recipient: base.taker,
      sellToken: CNGN,
      buyToken: USDC,
      sellAmount: base.sellAmount,
      minOut: "900000",
      gasFeeToken: USDC,
      maxGasFee: "150000",
      deadline: "1900000000",
    };
    const terms = {
      corridor: CORRIDOR,
      rfqId: base.rfqId,
      quoteId: base.quoteId,
      chain: relayChain,
      taker: base.taker,
      recipient: base.taker,
      sellToken: CNGN,
      buyToken: USDC,
      sellAmount: 1_600_000_000n,
      deadline: base.deadline,
      gasFeeToken: USDC,
      fee: { token: USDC, bps: relayChain.fee.bps, side: "buy" as const },
      limit: { limitOrderId: "lo_1", order, nonce: "5", minOut: "900000", limitAmount: "1000000" },
    };
    const adapter = evmAdapter(relayChain);
    const limitRfq = {
      ...base,
      toSign: adapter.bidToSign(terms),
      limit: { limitOrderId: "lo_1", minOut: "900000", limitAmount: "1000000" },
    };
    socket.send(limitRfq);
    const bid = bidFrame.parse(await socket.next("bid"));
    const keys = { address: account.address, publicKey: account.publicKey, ed25519Key: null };
    expect(adapter.verifyBid(terms, BigInt(bid.outputAmount), keys, bid.signature)).toBe(true);
    // The same terms signed for an RFQ are not a fill of the order.
    expect(adapter.verifyBid({ ...terms, limit: undefined }, BigInt(bid.outputAmount), keys, bid.signature)).toBe(
      false,
    );

    const other = rfqFor(CNGN, USDC, 1_600_000_000n);
    socket.send({
      ...other,
      toSign: limitRfq.toSign,
      limit: { limitOrderId: "lo_1", minOut: "900000", limitAmount: "1000000" },
    });
    expect(declineFrame.parse(await socket.next("decline")).reason).toMatch(/^to_sign_mismatch:/);
  });

  it("reports itself degraded while its inventory cannot be read", async () => {
    let fail = true;
    const errors: string[] = [];
    const c = startClient({
      inventory: {
        read: async (_, tokens) => {
          if (fail) throw new Error("rpc down");
          return tokens.map((token) => ({ chainId: 31337, token, balance: "1", allowance: "1" }));
        },
      },
    });
    c.on("error", ({ error }) => errors.push(error.message));
    const socket = await relay.nextConnection();
    await socket.handshake("n-1");
    expect(await socket.next("heartbeat")).toMatchObject({
      state: "degraded",
      degraded: "inventory_unavailable",
      inventory: [],
    });
    expect(errors).toEqual(["rpc down"]);
    fail = false;
    c.setState("quoting");
    expect(await socket.next("heartbeat")).toMatchObject({ state: "quoting", degraded: null });
  });

  it("prices off the latest band when the rfq carries none", async () => {
    startClient({ pricer: bandSpreadPricer({ spreadBps: 0 }) });
    const socket = await relay.nextConnection();
    await socket.handshake("n-1", null);
    socket.send(rfqFor(USDC, CNGN, 1_000_000n));
    expect(await socket.next("decline")).toMatchObject({ reason: "no_band" });
    socket.send({ type: "band", ...band, mid: 1500 });
    socket.send(rfqFor(USDC, CNGN, 1_000_000n));
    expect(await socket.next("bid")).toMatchObject({ outputAmount: "1500000000" });
  });

  it("declines every rfq at a decline rate of 1", async () => {
    startClient({ declineRate: 1 });
    const socket = await relay.nextConnection();
    await socket.handshake("n-1");
    for (let i = 0; i < 3; i++) {
      const rfq = rfqFor(CNGN, USDC, 1_000_000_000n);
      socket.send(rfq);
      expect(declineFrame.parse(await socket.next("decline"))).toEqual({
        type: "decline",
        rfqId: rfq.rfqId,
        reason: "random_decline",
      });
    }
  });

  it("declines an output its inventory cannot cover, and a toSign that differs from the rfq", async () => {
    startClient();
    const socket = await relay.nextConnection();
    await socket.handshake("n-1");
    socket.send(rfqFor(CNGN, USDC, 16_000_000_000n));
    expect(await socket.next("bid")).toMatchObject({ outputAmount: "10000000" });
    socket.send(rfqFor(CNGN, USDC, 16_000_000_001n + 1_600n));
    expect(await socket.next("decline")).toMatchObject({ reason: "insufficient_inventory" });
    const honest = rfqFor(CNGN, USDC, 1_000_000_000n);
    const toSign = eip712ToSign(honest.toSign);
    socket.send({ ...honest, toSign: { ...toSign, message: { ...toSign.message, sellAmount: "1" } } });
    expect(await socket.next("decline")).toMatchObject({ reason: "to_sign_mismatch:sellAmount" });
  });

  it("waits out the configured reply latency", async () => {
    startClient({ latencyMs: { min: 150, max: 150 } });
    const socket = await relay.nextConnection();
    await socket.handshake("n-1");
    const sentAt = Date.now();
    socket.send(rfqFor(CNGN, USDC, 1_000_000_000n));
    await socket.next("bid");
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(140);
  });

  it("reconnects after the relay drops the socket and authenticates again", async () => {
    const c = startClient();
    const closes: number[] = [];
    c.on("close", ({ code }) => closes.push(code));
    const first = await relay.nextConnection();
    await first.handshake("n-1");
    await first.next("heartbeat");
    first.socket.terminate();
    const second = await relay.nextConnection(1_000);
    second.send({ type: "challenge", nonce: "n-2", corridor: CORRIDOR });
    const auth = authFrame.parse(await second.next("auth"));
    const signer = await recoverMessageAddress({
      message: authMessage(CORRIDOR, "n-2"),
      signature: auth.signature as Hex,
    });
    expect(signer).toBe(account.address);
    expect(closes).toHaveLength(1);
  });

  it("stops for good: closes with 1000 and does not come back", async () => {
    const clock = new FakeClock();
    const c = startClient({ timer: clock });
    const socket = await relay.nextConnection();
    const welcomed = c.waitFor("welcome");
    await socket.handshake("n-1");
    expect((await welcomed).address).toBe(account.address);
    await c.stop();
    expect(await socket.closed).toEqual({ code: 1000, reason: "stopped" });
    // Past every backoff: no reconnect is armed to run.
    await clock.advance(60_000);
    expect(clock.pending).toBe(0);
    expect(relay.connections).toBe(1);
  });
});

describe("backoffDelay", () => {
  it("doubles from the initial delay up to the cap, keeping at least half of each step", () => {
    const low = () => 0;
    const high = () => 1;
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, high))).toEqual([250, 500, 1000, 2000]);
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, low))).toEqual([125, 250, 500, 1000]);
    expect(backoffDelay(10, high)).toBe(15_000);
    expect(backoffDelay(1_000, low)).toBe(7_500);
  });
});
