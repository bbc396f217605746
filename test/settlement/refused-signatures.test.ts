import { env, runInDurableObject } from "cloudflare:test";
import { getAddress, maxUint256, type PrivateKeyAccount } from "viem";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import { limitPass } from "../../src/keeper/limit-job";
import { limitJobPort } from "../../src/keeper/limit-port";
import { corridorStub, oracleStub } from "../../src/objects";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import type { Quote } from "../../src/schemas/quote";
import { type Bidder, bidder, marketSellAmount, quoteBody, signBid } from "../support/bidder";
import {
  authenticate,
  connect,
  eventually,
  heartbeat,
  nodeAccount,
  type TestSocket,
  untilInventoryChecked,
} from "../support/ws-client";
import { delegateToRefusingWallet } from "./delegation";
import { app, approve, EVM, getExecution, keeper, newResolver, newTaker, signQuote, submit } from "./helpers";
import { readOrder, signedOrder, storeOrder } from "./limit-orders";
import { LIMIT_CORRIDOR, steadyBand } from "./steady-band";

/**
 * Signatures the chain refuses after the relay accepted them (docs/reliability.md, "Blame"): a resolver or
 * a taker that delegates its EOA by EIP-7702 to code whose ERC-1271 check refuses, once its signature is
 * in. The executor, the reactor and Permit2 verify through OpenZeppelin's SignatureChecker, which asks an
 * account with code instead of its key, so the fill is refused although the signature is good. The relay
 * checked it; only the signer changed anything since, and the failure is the signer's.
 */

const reactor = getAddress(primaryEvmChain(localConfig).reactor);
let sellAmount = "";

beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
  if (!(await band(LIMIT_CORRIDOR))) throw new Error("no band for the limit orders' corridor");
});

// The keeper object runs the limit job on its own every 5 s (its `limits` row): taken off its schedule, so
// an order's rounds are those of the passes a test runs. Left on, its round and the test's could both
// reach the rogue resolver, the second after the first's failed fill had reopened the order: two
// failed fills, two strikes.
beforeEach(async () => {
  await runInDurableObject(keeper(), (_obj, state) => {
    state.storage.sql.exec("DELETE FROM keeper_schedule WHERE job = 'limits'");
  });
});

let open: TestSocket[] = [];
afterEach(async () => {
  for (const s of open) s.close();
  await Promise.all(open.map((s) => s.closed));
  open = [];
});

/** A fresh resolver with funds and approvals, connected to the EVM corridor and asked once its inventory is read. */
async function connectedResolver(name: string) {
  const account = (await newResolver()) as PrivateKeyAccount;
  await approve(account, EVM.usdc, reactor, maxUint256);
  const socket = await connect();
  open.push(socket);
  await authenticate(socket, account, { name });
  await socket.next("welcome");
  const plenty = "5000000000";
  socket.send(
    heartbeat("quoting", {
      inventory: [{ chainId: EVM.chainId, token: EVM.usdc, balance: plenty, allowance: plenty }],
    }),
  );
  await untilInventoryChecked(account.address);
  const bid = async (rfq: RfqFrame, outputAmount: bigint) =>
    socket.send({
      type: "bid",
      rfqId: rfq.rfqId,
      outputAmount: outputAmount.toString(),
      signature: await signBid(account, rfq, outputAmount),
    });
  return { account, socket, bid };
}

const demotions = async (address: string) => (await readResolver(env.DB, address))?.demotions ?? 0;

describe("a resolver that delegates its account after its bid is in", () => {
  it("fails its RFQ fill as its own fault: resolver:invalid_signature, one strike, demoted", async () => {
    const rogue = await connectedResolver("rogue");
    const taker = await newTaker();
    const pending = app.request(
      "/v1/quotes",
      {
        method: "POST",
        body: JSON.stringify(quoteBody({ sellAmount, taker: taker.address })),
        headers: { "content-type": "application/json" },
      },
      env,
    );
    await rogue.bid(await rogue.socket.next("rfq"), 1_000_000n);
    const res = await pending;
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Quote & { typedData: Record<string, unknown> };
    expect(quote.resolver?.address).toBe(rogue.account.address);

    // The relay verified the bid with the resolver's key; the executor will ask the account's code.
    await delegateToRefusingWallet(rogue.account);
    const answer = await submit({ quoteId: quote.quoteId, signature: await signQuote(taker, quote.typedData) });
    expect(answer.body).toMatchObject({ status: "requote", reason: "resolver:invalid_signature" });
    expect(await getExecution(String(answer.body.executionId))).toMatchObject({ blame: "resolver" });
    expect(await rogue.socket.next("error")).toMatchObject({ code: "strike" });
    expect((await rogue.socket.next("demoted")).reason).toBe(
      "strike 1: requote resolver:invalid_signature; demoted for 15 min",
    );
    expect(await demotions(rogue.account.address)).toBe(1);
  });
});

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

/** A pass of the limit job while `answer` handles every rfq it gets; the limit order ids the rfqs were for. */
async function passAnswering(socket: TestSocket, answer: (rfq: RfqFrame) => Promise<void>) {
  const rfqs: string[] = [];
  const pass = limitPass(port);
  const answering = (async () => {
    for (;;) {
      const rfq = await socket.next("rfq", 1_500).catch(() => null);
      if (!rfq) return;
      rfqs.push(rfq.limit?.limitOrderId ?? "not a limit round");
      await answer(rfq);
    }
  })();
  await pass;
  await answering;
  return rfqs;
}

describe("a limit fill whose resolver signature the chain refuses", () => {
  it("a winning resolver that delegates within the round fails the limit fill: resolver:invalid_signature, struck", async () => {
    const taker = await newTaker();
    const id = await storeOrder(await signedOrder(taker, BigInt(sellAmount), 900_000n), 1_000_000n);
    const rogue = await connectedResolver("rogue-limit");
    let delegated = false;
    const rfqs = await passAnswering(rogue.socket, async (rfq) => {
      // Inside the round's window, mined before the bid: the relay checks the bid with the resolver's key,
      // and the round closes on its one reply, so the keeper's simulation of executeLimit comes after.
      if (!delegated) await delegateToRefusingWallet(rogue.account);
      delegated = true;
      await rogue.bid(rfq, 1_000_000n);
    });
    expect(rfqs).toContain(id);
    const reasons = await eventually(async () => {
      const { results } = await env.DB.prepare("SELECT reason FROM executions WHERE lower(resolver) = ?1")
        .bind(rogue.account.address.toLowerCase())
        .all<{ reason: string }>();
      expect(results.length).toBeGreaterThan(0);
      return results.map((r) => r.reason);
    }, 5_000);
    expect(reasons).toEqual(["resolver:invalid_signature"]);
    expect(await demotions(rogue.account.address)).toBe(1);
    // The taker did nothing wrong: its order stays open for the next round.
    expect((await readOrder(id))?.status).toBe("open");
    // Not left for the rounds of the next test.
    await env.DB.prepare("UPDATE limit_orders SET status = 'cancelled' WHERE limit_order_id = ?").bind(id).run();
  });
});

describe("a limit order whose taker signature the chain refuses", () => {
  it("ends cancelled when its taker delegates after placing it, taker:bad_signature, never auctioned again", async () => {
    const taker = await newTaker();
    const id = await storeOrder(await signedOrder(taker, BigInt(sellAmount), 900_000n), 1_000_000n);
    await upsertRegistration(env.DB, nodeAccount(0).address, { name: "alpha" }, new Date().toISOString());
    const alpha: Bidder = await bidder(0, "alpha");
    open.push(alpha.socket);
    await delegateToRefusingWallet(taker as PrivateKeyAccount);

    const first = await passAnswering(alpha.socket, (rfq) => alpha.bid(rfq, 1_000_000n));
    expect(first).toContain(id);
    await eventually(async () =>
      expect(await readOrder(id)).toMatchObject({ status: "cancelled", last_error: "taker:bad_signature" }),
    );
    const later: string[] = [];
    for (let pass = 0; pass < 3; pass++)
      later.push(...(await passAnswering(alpha.socket, (rfq) => alpha.bid(rfq, 1_000_000n))));
    expect(later).not.toContain(id);
    expect(await readOrder(id)).toMatchObject({ status: "cancelled", last_error: "taker:bad_signature" });
    // The winner delivered what it promised: no strike.
    expect(await demotions(alpha.account.address)).toBe(0);
  });
});
