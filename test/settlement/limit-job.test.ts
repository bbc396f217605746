import { env, runInDurableObject } from "cloudflare:test";
import { erc20Abi } from "viem";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { loadConfig } from "../../src/config/load";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import { limitPass } from "../../src/keeper/limit-job";
import { limitJobPort } from "../../src/keeper/limit-port";
import { corridorStub, oracleStub } from "../../src/stubs";
import { type Bidder, bidder, marketSellAmount } from "../support/bidder";
import { nodeAccount } from "../support/ws-client";
import { app, balanceOf, chainClient, EVM, indexUntil, keeper, newTaker, testClient, walletOf } from "./helpers";
import { readOrder, signedOrder, storeOrder } from "./limit-orders";
import { LIMIT_CORRIDOR, steadyBand } from "./steady-band";

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
