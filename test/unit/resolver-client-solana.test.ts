import { Keypair } from "@solana/web3.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { type SolanaHarness, startSolanaHarness } from "../../scripts/lib/solana-harness/server";
import type { ProvedKeys } from "../../src/chains/adapter";
import { solanaAdapter } from "../../src/chains/solana/adapter";
import type { SwapMaker } from "../../src/chains/solana/swap-legs";
import { signRequest, verifyWinnerSignature } from "../../src/chains/solana/swap-signatures";
import { buildSwapTransaction } from "../../src/chains/solana/swap-transaction";
import { ResolverClient } from "../../src/clients/resolver/client";
import type { ResolverClientOptions } from "../../src/clients/resolver/client-options";
import { staticInventory } from "../../src/clients/resolver/inventory";
import { anvilAccount, solanaSigner } from "../../src/clients/resolver/keys";
import { fixedRatePricer, parseDecimal } from "../../src/clients/resolver/pricing";
import { type ChainInfo, chainsFromRecord, targetKey } from "../../src/clients/resolver/relay-config";
import { solanaRpcInventory } from "../../src/clients/resolver/solana-inventory";
import { SignRefusedError } from "../../src/clients/resolver/solana-sign";
import { localConfig } from "../../src/config/local";
import { configRecord } from "../../src/config/record";
import { SIGN_TIMEOUT_MS } from "../../src/protocol/frame-limits";
import { bidFrame, heartbeatFrame, signedFrame } from "../../src/protocol/node-frames";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import { FakeRelay, type RelaySocket } from "../support/fake-relay";
import { localSolana, mintOf, swapQuote } from "../support/solana-swap";

// The reference resolver on a Solana corridor, against a scripted relay: it bids with an ed25519
// commitment the relay's own adapter verifies, and signs the swap the relay's own builder makes for its
// bid, and nothing else.

const chain = chainsFromRecord(configRecord(localConfig)).find((c) => c.kind === "solana") as ChainInfo;
const USDC = mintOf(localSolana, "USDC");
const CNGN = mintOf(localSolana, "cNGN");
const CORRIDOR = targetKey(chain, { chainId: 103, tokenA: USDC, tokenB: CNGN });
const BLOCKHASH = "CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3PECGUCAEMbky";
const adapter = solanaAdapter(localSolana);
const account = anvilAccount(1);
const solanaKey = Keypair.generate();
const signer = solanaSigner(solanaKey.secretKey);
const keys: ProvedKeys = { address: account.address, publicKey: "0x04", ed25519Key: signer.address };
const taker = Keypair.generate().publicKey.toBase58();
const SELL = 1_580_000_000n;
/** 1,580 cNGN at 0.000625 USDC per cNGN. */
const OUTPUT = 987_500n;

let relay: FakeRelay;
let client: ResolverClient | null = null;
let errors: Error[] = [];

function startClient(overrides: Partial<ResolverClientOptions> = {}): ResolverClient {
  client = new ResolverClient({
    relayUrl: relay.url,
    account,
    name: "alpha",
    version: "test",
    solana: signer,
    chains: [chain],
    corridors: [{ chainId: 103, tokenA: USDC, tokenB: CNGN }],
    pricer: fixedRatePricer({ rate: parseDecimal("0.000625"), sellSymbol: "cNGN" }),
    inventory: staticInventory([
      { chainId: 103, token: USDC, balance: "10000000", allowance: "10000000" },
      { chainId: 103, token: CNGN, balance: "50000000000", allowance: "50000000000" },
    ]),
    backoff: { initialMs: 20, maxMs: 100 },
    ...overrides,
  });
  client.on("error", ({ error }) => errors.push(error));
  client.start();
  return client;
}

/** A quote's terms and the rfq the relay sends for them: the adapter's own commitment text. */
function solanaRfq(sellAmount = SELL, quoteId = `q_${crypto.randomUUID().replaceAll("-", "")}`) {
  const { terms } = swapQuote({ taker, sell: "cNGN", sellAmount, outputAmount: OUTPUT, quoteId });
  const rfq: RfqFrame = {
    type: "rfq",
    rfqId: terms.rfqId,
    quoteId: terms.quoteId,
    chainId: 103,
    sellToken: terms.sellToken,
    buyToken: terms.buyToken,
    sellAmount: terms.sellAmount.toString(),
    taker: terms.taker,
    recipient: terms.recipient,
    deadline: terms.deadline,
    fee: { token: terms.fee.token, bps: terms.fee.bps },
    gasFee: { token: terms.gasFeeToken, amount: localSolana.gasFee.fixed },
    band: null,
    toSign: adapter.bidToSign(terms),
  };
  return { terms, rfq };
}

/** The `sign` request the relay makes for a win of `outputAmount` by `resolver`. */
function signRequestFor(rfq: ReturnType<typeof solanaRfq>, outputAmount: bigint, resolver = signer.address): string {
  const { amounts } = swapQuote({
    taker,
    sell: "cNGN",
    sellAmount: rfq.terms.sellAmount,
    outputAmount,
    quoteId: rfq.terms.quoteId,
  });
  return signRequest(buildSwapTransaction(localSolana, rfq.terms, { resolver, amounts }, BLOCKHASH));
}

async function welcomed(): Promise<RelaySocket> {
  const socket = await relay.nextConnection();
  await socket.handshake("n-1");
  await socket.next("heartbeat");
  return socket;
}

beforeEach(async () => {
  errors = [];
  relay = new FakeRelay({ corridor: CORRIDOR, band: null });
  await relay.listening();
});

afterEach(async () => {
  await client?.stop();
  client = null;
  await relay.close();
});

describe("the reference resolver on a Solana corridor", () => {
  it("bids with an ed25519 signature over the commitment text that the relay's adapter verifies", async () => {
    startClient();
    const socket = await welcomed();
    const rfq = solanaRfq();
    socket.send(rfq.rfq);
    const bid = bidFrame.parse(await socket.next("bid"));
    expect(bid).toMatchObject({ rfqId: rfq.rfq.rfqId, outputAmount: OUTPUT.toString() });
    expect(adapter.verifyBid(rfq.terms, OUTPUT, keys, bid.signature)).toBe(true);
    expect(adapter.verifyBid(rfq.terms, OUTPUT - 1n, keys, bid.signature)).toBe(false);
  });

  it("declines what it cannot sign for, or a commitment that is not this rfq's", async () => {
    startClient();
    const socket = await welcomed();
    const text = (r: RfqFrame) => (r.toSign as { text: string }).text;
    const withText = (r: RfqFrame, t: string): RfqFrame => ({ ...r, toSign: { scheme: "ed25519", text: t } });
    const [a, b, c, d, e] = [solanaRfq(), solanaRfq(), solanaRfq(), solanaRfq(), solanaRfq()];
    const cases: [RfqFrame, string][] = [
      [{ ...a.rfq, toSign: b.rfq.toSign }, "to_sign_mismatch:rfqId"],
      [withText(b.rfq, text(b.rfq).replace(CORRIDOR, "103:a:b")), "to_sign_mismatch:corridor"],
      [withText(c.rfq, text(c.rfq).replace("{outputAmount}", "1")), "to_sign_mismatch:outputAmount"],
      [withText(d.rfq, `${text(d.rfq)}|extra`), "to_sign_mismatch:format"],
      [
        { ...e.rfq, toSign: { scheme: "eip712", domain: {}, types: {}, primaryType: "X", message: {} } },
        "unsupported_chain",
      ],
      // Short of the whole where no part is taken (a fee in the sell token): it declines.
      [{ ...solanaRfq(17_000_000_000n).rfq, fee: { token: CNGN, bps: 10 } }, "insufficient_inventory"],
    ];
    for (const [rfq, reason] of cases) {
      socket.send(rfq);
      expect(await socket.next("decline")).toEqual({ type: "decline", rfqId: rfq.rfqId, reason });
    }
  });

  it("declines Solana rfqs without a Solana key", async () => {
    startClient({ solana: null });
    const socket = await welcomed();
    const { rfq } = solanaRfq();
    socket.send(rfq);
    expect(await socket.next("decline")).toEqual({ type: "decline", rfqId: rfq.rfqId, reason: "no_solana_key" });
  });

  it("signs the swap the relay builds for its bid, in time, with a signature the relay verifies", async () => {
    const c = startClient();
    const socket = await welcomed();
    const rfq = solanaRfq();
    socket.send(rfq.rfq);
    await socket.next("bid");
    const signedEvent = new Promise((resolve) => c.on("signed", resolve));
    const request = signRequestFor(rfq, OUTPUT);
    socket.send({ type: "sign", rfqId: rfq.rfq.rfqId, transaction: request });
    const signed = signedFrame.parse(await socket.next("signed"));
    expect(signed.rfqId).toBe(rfq.rfq.rfqId);
    expect(verifyWinnerSignature(request, signer.address, signed.signature)).toBe(true);
    const event = (await signedEvent) as { outputAmount: bigint; elapsedMs: number };
    expect(event.outputAmount).toBe(OUTPUT);
    expect(event.elapsedMs).toBeLessThan(SIGN_TIMEOUT_MS);
    expect(errors).toEqual([]);
  });

  it("refuses a swap that is not its bid, an rfq it did not bid on, and a second request: no answer, an error", async () => {
    startClient();
    const socket = await welcomed();
    const won = solanaRfq();
    socket.send(won.rfq);
    await socket.next("bid");
    const cheated = solanaRfq();
    socket.send(cheated.rfq);
    await socket.next("bid");

    // More of its output than it bid; another resolver's swap; an rfq never bid on.
    socket.send({ type: "sign", rfqId: cheated.rfq.rfqId, transaction: signRequestFor(cheated, OUTPUT + 1n) });
    const stranger = solanaRfq();
    socket.send({ type: "sign", rfqId: stranger.rfq.rfqId, transaction: signRequestFor(stranger, OUTPUT) });
    const otherKey = Keypair.generate().publicKey.toBase58();
    socket.send({ type: "sign", rfqId: won.rfq.rfqId, transaction: signRequestFor(won, OUTPUT, otherKey) });
    await socket.nothing("signed", 300);
    expect(errors.map((e) => e instanceof SignRefusedError && [e.rfqId, e.reason])).toEqual([
      [cheated.rfq.rfqId, "the transaction does not move exactly what was bid"],
      [stranger.rfq.rfqId, "this node sent no Solana bid for it on this corridor"],
      [won.rfq.rfqId, "the transaction does not move exactly what was bid"],
    ]);

    // The refused request used up the bid: the right swap, asked again, is not signed either.
    socket.send({ type: "sign", rfqId: won.rfq.rfqId, transaction: signRequestFor(won, OUTPUT) });
    await socket.nothing("signed", 200);
    expect(errors).toHaveLength(4);
  });
});

describe("the reference resolver's parts on a Solana corridor", () => {
  /** The `sign` request of a swap of two makers: this node's part and another key's. */
  function legsRequestFor(rfq: ReturnType<typeof solanaRfq>, mine: SwapMaker, other: SwapMaker): string {
    const makers = [mine, other];
    const outputAmount = mine.outputAmount + other.outputAmount;
    const fee = makers.reduce((sum, m) => sum + (m.outputAmount * 10n) / 10_000n, 0n);
    const gasFee = BigInt(localSolana.gasFee.fixed);
    const sold = rfq.terms.sellAmount;
    const amounts = {
      outputAmount,
      fee,
      gasFee,
      received: outputAmount - fee - gasFee,
      takerPays: sold,
      proceeds: sold,
    };
    const winner = { resolver: mine.resolver, amounts, makers };
    return signRequest(buildSwapTransaction(localSolana, rfq.terms, winner, BLOCKHASH));
  }

  it("bids the part its inventory covers, signed over the part, and signs its own leg of the makers' swap", async () => {
    startClient();
    const socket = await welcomed();
    // 17,000 cNGN would take 10.625 USDC; it holds 10: it offers the 16,000 cNGN that 10 USDC buys.
    const rfq = solanaRfq(17_000_000_000n);
    socket.send(rfq.rfq);
    const bid = bidFrame.parse(await socket.next("bid"));
    expect([bid.sellAmount, bid.outputAmount]).toEqual(["16000000000", "10000000"]);
    expect(adapter.verifyBid(rfq.terms, 10_000_000n, keys, bid.signature, 16_000_000_000n)).toBe(true);
    expect(adapter.verifyBid(rfq.terms, 10_000_000n, keys, bid.signature, 16_000_000_001n)).toBe(false);
    expect(adapter.verifyBid(rfq.terms, 10_000_000n, keys, bid.signature)).toBe(false);

    const other = Keypair.generate().publicKey.toBase58();
    const mine = { resolver: signer.address, sellAmount: 16_000_000_000n, outputAmount: 10_000_000n };
    const theirs = { resolver: other, sellAmount: 1_000_000_000n, outputAmount: 625_000n };
    // Its part paid out more than it bid: refused, and the bid kept for the relay's next request.
    const more = legsRequestFor(rfq, { ...mine, outputAmount: 10_000_001n }, { ...theirs, outputAmount: 624_999n });
    socket.send({ type: "sign", rfqId: rfq.rfq.rfqId, transaction: more });
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors.map((e) => e instanceof SignRefusedError && e.reason)).toEqual([
      "the transaction does not pay out exactly the output bid",
    ]);
    const request = legsRequestFor(rfq, mine, theirs);
    socket.send({ type: "sign", rfqId: rfq.rfq.rfqId, transaction: request });
    const signed = signedFrame.parse(await socket.next("signed"));
    expect(verifyWinnerSignature(request, signer.address, signed.signature)).toBe(true);
  });
});

describe("Solana inventory from the node's token accounts", () => {
  let harness: SolanaHarness;

  beforeAll(async () => {
    harness = await startSolanaHarness({ port: 0, slotMs: 3_600_000 });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it("reports each token's balance as both balance and allowance, 0 where it has no account", async () => {
    const funded = localSolanaKeypair("resolver:1").publicKey.toBase58();
    const expected = "1000000000000";
    expect(await solanaRpcInventory({ rpcUrl: harness.url, owner: funded }).read(chain, [USDC, CNGN])).toEqual([
      { chainId: 103, token: USDC, balance: expected, allowance: expected },
      { chainId: 103, token: CNGN, balance: expected, allowance: expected },
    ]);
    const empty = Keypair.generate().publicKey.toBase58();
    expect(await solanaRpcInventory({ rpcUrl: harness.url, owner: empty }).read(chain, [USDC])).toEqual([
      { chainId: 103, token: USDC, balance: "0", allowance: "0" },
    ]);
  });

  it("heartbeats it on the Solana corridor, and fails the read on a chain that does not answer", async () => {
    const owner = localSolanaKeypair("resolver:2");
    startClient({
      solana: solanaSigner(owner.secretKey),
      inventory: solanaRpcInventory({ rpcUrl: harness.url, owner: owner.publicKey.toBase58() }),
    });
    const socket = await relay.nextConnection();
    await socket.handshake("n-1");
    const heartbeat = heartbeatFrame.parse(await socket.next("heartbeat"));
    expect(heartbeat).toMatchObject({ state: "quoting" });
    expect(heartbeat.inventory.map((i) => [i.token, i.balance, i.allowance])).toEqual([
      [USDC, "1000000000000", "1000000000000"],
      [CNGN, "1000000000000", "1000000000000"],
    ]);
    const down = solanaRpcInventory({ rpcUrl: "http://127.0.0.1:9", owner: owner.publicKey.toBase58() });
    await expect(down.read(chain, [USDC])).rejects.toThrow();
  });
});
