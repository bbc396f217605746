import { env, runInDurableObject } from "cloudflare:test";
import { erc20Abi, type Hex, maxUint256 } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { testTokenAbi } from "../../src/chains/evm/abi/test-token";
import { loadConfig } from "../../src/config/load";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import { limitPass } from "../../src/keeper/limit-job";
import { limitJobPort } from "../../src/keeper/limit-port";
import { corridorStub, oracleStub } from "../../src/objects";
import { type Bidder, bidder, marketSellAmount } from "../support/bidder";
import { nodeAccount } from "../support/ws-client";
import {
  app,
  approve,
  balanceOf,
  chainClient,
  cngnPermit,
  EVM,
  indexUntil,
  keeper,
  newTaker,
  testClient,
  walletOf,
} from "./helpers";
import { readOrder, signedOrder, storeOrder } from "./limit-orders";
import { LIMIT_CORRIDOR, steadyBand } from "./steady-band";
import { blacklistingUsdc } from "./usdc-blacklist";

/**
 * The keeper's limit job over D1 and the real objects (docs/limit-orders.md, "The keeper's job"): an
 * order stored open is auctioned on its corridor, filled through the reactor, and marked filled.
 */

const band = steadyBand((key) => oracleStub(env).band(key));
const port = limitJobPort({
  db: env.DB,
  config: () => loadConfig(env.RELAY_CONFIG),
  band,
  auction: (key, input) => corridorStub(env, key).requestQuote(input),
  submit: (request) => keeper().submit(request),
  paused: () => false,
  moved: () => {},
});

let sellAmount = 0n;
let node: Bidder | null = null;
beforeAll(async () => {
  sellAmount = BigInt(await marketSellAmount((path) => app.request(path, {}, env)));
  if (!(await band(LIMIT_CORRIDOR))) throw new Error("no band for the limit orders' corridor");
});
// The keeper object runs the job on its own every 5 s once it wakes (its `limits` row): taken off its
// schedule, so an order's rounds, and its attempts, are those of the passes a test runs. A row removed
// before the test stores its order leaves no pass of the object's that could read it.
beforeEach(async () => {
  await runInDurableObject(keeper(), (_obj, state) => {
    state.storage.sql.exec("DELETE FROM keeper_schedule WHERE job = 'limits'");
  });
});
afterEach(() => {
  node?.socket.close();
  node = null;
});

async function mined(hash: Promise<Hex>): Promise<void> {
  const receipt = await chainClient.waitForTransactionReceipt({ hash: await hash });
  expect(receipt.status).toBe("success");
}

/** A pass of the job while alpha bids `outputAmount` on every rfq it gets (none, if none comes). */
async function passWithBids(outputAmount: bigint): Promise<string[]> {
  node ??= await bidder(0, "alpha");
  const bidder_ = node;
  const rfqs: string[] = [];
  const pass = limitPass(port);
  const bidding = (async () => {
    for (;;) {
      const rfq = await bidder_.nextRfq(1_500).catch(() => null);
      if (!rfq) return;
      rfqs.push(rfq.limit?.limitOrderId ?? "not a limit round");
      await bidder_.bid(rfq, outputAmount);
    }
  })();
  await pass;
  await bidding;
  return rfqs;
}

describe("the keeper's limit job", () => {
  it("auctions an order at the market, fills it through the reactor, and marks it filled", async () => {
    const taker = await newTaker();
    const id = await storeOrder(await signedOrder(taker, sellAmount, 900_000n), 1_000_000n);
    const before = await balanceOf(EVM.usdc, taker.address);
    expect(await passWithBids(1_000_000n)).toEqual([id]);
    const filling = await readOrder(id);
    // Filling, or filled already if the indexer saw the fill settle first.
    expect(filling).toMatchObject({ attempts: 1, best_received: "949000", last_error: null });
    expect(["filling", "filled"]).toContain(filling?.status);
    const quoteId = filling?.quote_id ?? "";
    await indexUntil(quoteId, (q) => q.status === "settled");
    // Filled as its quote settles, in the indexer's batch: no pass ran since.
    expect(await readOrder(id)).toMatchObject({ status: "filled", quote_id: quoteId });
    await testClient.mine({ blocks: 1 });
    await indexUntil(quoteId, (q) => q.final);
    await passWithBids(1_000_000n);
    expect(await readOrder(id)).toMatchObject({ status: "filled", quote_id: quoteId });
    expect((await balanceOf(EVM.usdc, taker.address)) - before).toBe(949_000n);
  });

  it("records a round whose best bid misses minOut, and leaves the order open", async () => {
    const taker = await newTaker();
    const id = await storeOrder(await signedOrder(taker, sellAmount, 960_000n), 1_000_000n);
    await passWithBids(1_000_000n);
    expect(await readOrder(id)).toMatchObject({
      status: "open",
      attempts: 1,
      best_received: "949000",
      last_error: "below_limit",
      last_checked_at: expect.any(String),
    });
  });

  it("ends an order whose nonce the taker revoked on chain: five passes, no round, no strike", async () => {
    const taker = await newTaker();
    const signed = await signedOrder(taker, sellAmount, 900_000n);
    const id = await storeOrder(signed, 1_000_000n);
    await upsertRegistration(env.DB, nodeAccount(0).address, { name: "alpha" }, new Date().toISOString());
    const before = await readResolver(env.DB, nodeAccount(0).address);
    const receipt = await chainClient.waitForTransactionReceipt({
      hash: await walletOf(taker).writeContract({
        address: EVM.permit2,
        abi: permit2Abi,
        functionName: "invalidateUnorderedNonces",
        args: [signed.nonce >> 8n, 1n << (signed.nonce & 255n)],
      }),
    });
    expect(receipt.status).toBe("success");
    const auctioned: string[] = [];
    for (let pass = 0; pass < 5; pass++) auctioned.push(...(await passWithBids(1_000_000n)));
    expect(auctioned).not.toContain(id);
    expect(await readOrder(id)).toMatchObject({ status: "cancelled", last_error: "taker:nonce_revoked" });
    const after = await readResolver(env.DB, nodeAccount(0).address);
    expect(after?.demotions).toBe(before?.demotions);
    expect(after?.demotedUntil).toBeNull();
  });

  it("keeps a short taker's order open and unauctioned, its attempts unraised, until the funds are back", async () => {
    const taker = await newTaker();
    const id = await storeOrder(await signedOrder(taker, sellAmount, 900_000n), 1_000_000n);
    const held = await balanceOf(EVM.cngn, taker.address);
    const other = await newTaker();
    const move = async (from: typeof taker, to: typeof taker) =>
      chainClient.waitForTransactionReceipt({
        hash: await walletOf(from).writeContract({
          address: EVM.cngn,
          abi: erc20Abi,
          functionName: "transfer",
          args: [to.address, held],
        }),
      });
    await move(taker, other);
    expect(await passWithBids(1_000_000n)).not.toContain(id);
    expect(await readOrder(id)).toMatchObject({
      status: "open",
      attempts: 0,
      last_error: "taker:insufficient_balance",
      last_checked_at: expect.any(String),
    });
    await move(other, taker);
    expect(await passWithBids(1_000_000n)).toContain(id);
    const order = await readOrder(id);
    expect(order?.attempts).toBe(1);
    expect(["filling", "filled"]).toContain(order?.status);
  });

  it("rests an order whose recipient the buy token refuses: no round for three passes, then filled once it takes it", async () => {
    const taker = await newTaker();
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const id = await storeOrder(await signedOrder(taker, sellAmount, 900_000n, recipient), 1_000_000n);
    const usdc = await blacklistingUsdc();
    try {
      await usdc.refuse(recipient);
      // The first round finds out: the reactor's transfer to the recipient fails in the simulation.
      expect(await passWithBids(1_000_000n)).toContain(id);
      expect(await readOrder(id)).toMatchObject({ status: "open", attempts: 1, last_error: "taker:recipient_refused" });
      const rounds: string[] = [];
      for (let pass = 0; pass < 3; pass++) rounds.push(...(await passWithBids(1_000_000n)));
      expect(rounds.filter((r) => r === id)).toHaveLength(0);
      expect(await readOrder(id)).toMatchObject({ status: "open", attempts: 1, last_error: "taker:recipient_refused" });
      await usdc.accept(recipient);
      expect(await passWithBids(1_000_000n)).toContain(id);
      const order = await readOrder(id);
      expect(order?.attempts).toBe(2);
      expect(["filling", "filled"]).toContain(order?.status);
    } finally {
      await usdc.restore();
    }
  }, 40_000);

  it("rests an order whose EIP-2612 permit was spent: no round for three passes, then filled once Permit2 may pull", async () => {
    const taker = await newTaker({ approvePermit2: false });
    const other = await newTaker({ approvePermit2: false });
    const signed = await signedOrder(taker, sellAmount, 900_000n);
    const permit = await cngnPermit(taker, maxUint256, 7_200);
    const spent = await storeOrder(signed, 1_000_000n, undefined, permit);
    const live = await storeOrder(
      await signedOrder(other, sellAmount, 900_000n),
      1_000_000n,
      undefined,
      await cngnPermit(other, maxUint256, 7_200),
    );
    // The taker uses the permit's nonce itself, then takes the allowance back: the permit grants nothing now.
    const { v, r, s } = permit;
    await mined(
      walletOf(taker).writeContract({
        address: EVM.cngn,
        abi: testTokenAbi,
        functionName: "permit",
        args: [taker.address, EVM.permit2, maxUint256, BigInt(permit.deadline), v, r, s],
      }),
    );
    await approve(taker, EVM.cngn, EVM.permit2, 0n);
    const rounds: string[] = [];
    for (let pass = 0; pass < 3; pass++) rounds.push(...(await passWithBids(1_000_000n)));
    expect(rounds.filter((r) => r === spent)).toHaveLength(0);
    // An order whose permit still grants is auctioned and filled with it, in the first pass.
    expect(rounds.filter((r) => r === live)).toHaveLength(1);
    expect(await readOrder(spent)).toMatchObject({ status: "open", attempts: 0, last_error: "taker:permit_spent" });
    await approve(taker, EVM.cngn, EVM.permit2, maxUint256);
    expect(await passWithBids(1_000_000n)).toContain(spent);
    expect(["filling", "filled"]).toContain((await readOrder(spent))?.status);
  }, 40_000);

  it("does not auction an order asking more than 150 bps over the market, and sweeps one past its expiry", async () => {
    const taker = await newTaker();
    const far = await storeOrder(await signedOrder(taker, sellAmount, 900_000n), 1_016_000n);
    const old = await storeOrder(await signedOrder(taker, sellAmount, 900_000n), 1_000_000n, Date.now() - 1_000);
    const auctioned = await passWithBids(1_000_000n);
    expect(auctioned).not.toContain(far);
    expect(auctioned).not.toContain(old);
    expect(await readOrder(far)).toMatchObject({ status: "open", attempts: 0 });
    expect(await readOrder(old)).toMatchObject({ status: "expired", attempts: 0 });
  });
});
