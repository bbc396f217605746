import { env, runInDurableObject } from "cloudflare:test";
import { type LocalAccount, maxUint256, type PrivateKeyAccount } from "viem";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { kvHoldStore } from "../../src/auction/hold-store";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import type { Quote } from "../../src/schemas/quote";
import { type Bidder, bidder, marketSellAmount, quoteBody, signBid } from "../support/bidder";
import {
  authenticate,
  connect,
  evmCorridorKey,
  heartbeat,
  type TestSocket,
  untilInventoryChecked,
} from "../support/ws-client";
import { app, approve, EVM, getQuote, newTaker, runIndexer, signQuote, submit } from "./helpers";

/**
 * A resolver sells only what it holds (docs/security.md, "Two quotes drain one balance"): the corridor
 * holds each open quote's output against its winner's last chain-read balance, so a taker who opens two
 * quotes that one resolver's balance covers only one at a time cannot have both won by it, fail the
 * second, and get the resolver struck.
 */

let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
});

let open: TestSocket[] = [];
afterEach(async () => {
  for (const s of open) s.close();
  await Promise.all(open.map((s) => s.closed));
  open = [];
});

/** What the thin resolver holds on chain: enough for one quote of 1 USDC, not for two. */
const THIN_USDC = 1_500_000n;
const THIN_BID = 1_000_000n;
const DEEP_BID = 990_000n;

/** A registered resolver holding THIN_USDC, heartbeating what it holds, once the corridor has read it. */
async function thinNode(): Promise<{ account: PrivateKeyAccount; socket: TestSocket }> {
  const account = (await newTaker({ tokens: THIN_USDC, approvePermit2: false })) as PrivateKeyAccount;
  await approve(account, EVM.usdc, EVM.executor, maxUint256);
  await upsertRegistration(env.DB, account.address, { name: "thin" }, new Date().toISOString());
  const socket = await connect();
  open.push(socket);
  await authenticate(socket, account, { name: "thin" });
  await socket.next("welcome");
  const held = THIN_USDC.toString();
  socket.send(
    heartbeat("quoting", { inventory: [{ chainId: EVM.chainId, token: EVM.usdc, balance: held, allowance: held }] }),
  );
  await untilInventoryChecked(account.address);
  return { account, socket };
}

async function deepNode(): Promise<Bidder> {
  const node = await bidder(1, "deep");
  open.push(node.socket);
  return node;
}

const requestQuote = (taker: LocalAccount) =>
  app.request(
    "/v1/quotes",
    {
      method: "POST",
      body: JSON.stringify(quoteBody({ sellAmount, taker: taker.address })),
      headers: { "content-type": "application/json" },
    },
    env,
  );

async function bidOn(node: { account: PrivateKeyAccount; socket: TestSocket }, rfq: RfqFrame, amount: bigint) {
  const signature = await signBid(node.account, rfq, amount);
  node.socket.send({ type: "bid", rfqId: rfq.rfqId, outputAmount: amount.toString(), signature });
}

type Quoted = Quote & { typedData: Record<string, unknown> };

async function quoted(res: Response): Promise<Quoted> {
  expect(res.status).toBe(200);
  return (await res.json()) as Quoted;
}

/** The taker signs and submits the quote; what the relay answered. */
async function fill(taker: LocalAccount, quote: Quoted) {
  return submit({ quoteId: quote.quoteId, signature: await signQuote(taker, quote.typedData) });
}

/** The holds the corridor object keeps in its storage, which a restarted object reads back: whose, and how much. */
const storedHolds = () =>
  runInDurableObject(env.CORRIDOR.get(env.CORRIDOR.idFromName(evmCorridorKey)), (_, state) =>
    kvHoldStore(state.storage.kv)
      .all()
      .map((h) => [h.quoteId, h.resolver, h.amount]),
  );

const demotions = async (account: LocalAccount) => (await readResolver(env.DB, account.address))?.demotions ?? 0;

/** Who won each quote, what each fill came to once indexed, and how often the thin resolver was demoted. */
async function outcome(taker: LocalAccount, quotes: Quoted[], names: Record<string, string>) {
  const answers = [];
  for (const q of quotes) answers.push((await fill(taker, q)).body.status);
  await runIndexer();
  const statuses = [];
  for (const q of quotes) statuses.push((await getQuote(q.quoteId)).status);
  return { winners: quotes.map((q) => names[q.resolver?.address ?? ""]), answers, statuses };
}

describe("a resolver sells only what it holds", () => {
  it("two quotes one after the other: the thin resolver wins the first, the second goes to the next bid, both settle, nobody is struck", async () => {
    const thin = await thinNode();
    const deep = await deepNode();
    const names = { [thin.account.address]: "thin", [deep.account.address]: "deep" };
    const taker = await newTaker();

    const first = requestQuote(taker);
    await bidOn(thin, await thin.socket.next("rfq"), THIN_BID);
    await deep.bid(await deep.nextRfq(), DEEP_BID);
    const q1 = await quoted(await first);
    const second = requestQuote(taker);
    // Half a USDC is still free, so it is asked; its bid of one is over that.
    await bidOn(thin, await thin.socket.next("rfq"), THIN_BID);
    await deep.bid(await deep.nextRfq(), DEEP_BID);
    const q2 = await quoted(await second);
    const refused = await thin.socket.next("error", 500).then(
      (e) => e.code,
      () => null,
    );
    const stored = await storedHolds();

    expect({
      ...(await outcome(taker, [q1, q2], names)),
      refused,
      stored,
      demotions: await demotions(thin.account),
    }).toEqual({
      winners: ["thin", "deep"],
      answers: ["submitted", "submitted"],
      statuses: ["settled", "settled"],
      refused: "insufficient_inventory",
      stored: expect.arrayContaining([
        [q1.quoteId, thin.account.address.toLowerCase(), THIN_BID],
        [q2.quoteId, deep.account.address.toLowerCase(), DEEP_BID],
      ]),
      demotions: 0,
    });
  });

  it("two quotes open at once: the thin resolver wins one of them, the other goes to the next bid, both settle, nobody is struck", async () => {
    const thin = await thinNode();
    const deep = await deepNode();
    const names = { [thin.account.address]: "thin", [deep.account.address]: "deep" };
    const taker = await newTaker();

    const pending = [requestQuote(taker), requestQuote(taker)];
    // Each bid is within what it holds as it comes in: both are in before either auction is decided.
    const thinRfqs = [await thin.socket.next("rfq"), await thin.socket.next("rfq")];
    const deepRfqs = [await deep.nextRfq(), await deep.nextRfq()];
    for (const rfq of thinRfqs) await bidOn(thin, rfq, THIN_BID);
    for (const rfq of deepRfqs) await deep.bid(rfq, DEEP_BID);
    const quotes = await Promise.all(pending.map(async (p) => quoted(await p)));

    const seen = await outcome(taker, quotes, names);
    expect({ ...seen, winners: [...seen.winners].sort(), demotions: await demotions(thin.account) }).toEqual({
      winners: ["deep", "thin"],
      answers: ["submitted", "submitted"],
      statuses: ["settled", "settled"],
      demotions: 0,
    });
  });
});
