import { env } from "cloudflare:test";
import { keccak256, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import type { Quote } from "../../src/schemas/quote";
import { quoteBody as baseBody, marketSellAmount, signBid } from "../support/bidder";
import {
  authenticate,
  connect,
  EVM,
  eventually,
  heartbeat,
  type TestSocket,
  untilInventoryChecked,
} from "../support/ws-client";

/**
 * An auction's signature checks do not grow with its bidders (docs/security.md, "Many keys make each auction
 * seconds of CPU"): 100 nodes over real sockets, more keys than the key tables' cache holds, 99 of them
 * bidding with forged signatures. The winner's bid is checked on the quote's path, and of the 99 losing bids
 * `limits.bidChecksAfterAnswer` drawn at random after the answer: each forged one caught is rejected, struck
 * and dropped from the stored quote, as every forged bid is. This file keeps its own relay (its forgers are
 * struck).
 */

const app = createApp();
const BIDDERS = 100;
const CHECKS_AFTER_ANSWER = loadConfig(env.RELAY_CONFIG).limits.bidChecksAfterAnswer;
const BALANCE = "5000000000";

interface Node {
  socket: TestSocket;
  address: string;
}

/** Node i's key: one of its own, no dev account's. */
const nodeKey = (i: number) => privateKeyToAccount(keccak256(toHex(`bid checks ${i}`)));

/** A node quoting, its inventory read. */
async function node(i: number): Promise<Node> {
  const account = nodeKey(i);
  const socket = await connect();
  await authenticate(socket, account, { name: `checked-${i}` });
  await socket.next("welcome");
  socket.send(
    heartbeat("quoting", {
      inventory: [{ chainId: EVM.chainId, token: EVM.usdc, balance: BALANCE, allowance: BALANCE }],
    }),
  );
  await untilInventoryChecked(account.address);
  return { socket, address: account.address };
}

let nodes: Node[] = [];
let sellAmount = "";
beforeAll(async () => {
  sellAmount = await marketSellAmount((path) => app.request(path, {}, env));
  nodes = await Promise.all(Array.from({ length: BIDDERS }, (_, i) => node(i)));
}, 60_000);
afterAll(() => {
  for (const n of nodes) n.socket.close();
});

const getQuote = async (id: string) => (await (await app.request(`/v1/quotes/${id}`, {}, env)).json()) as Quote;

describe("an auction of 100 bidders", () => {
  it(`checks the winner's signature and ${CHECKS_AFTER_ANSWER} of the 99 others, at random`, async () => {
    const pending = app.request(
      "/v1/quotes",
      {
        method: "POST",
        body: JSON.stringify(baseBody({ sellAmount })),
        headers: { "content-type": "application/json" },
      },
      env,
    );
    const rfqs = await Promise.all(nodes.map((n) => n.socket.next("rfq", 5_000) as Promise<RfqFrame>));
    const forger = privateKeyToAccount(generatePrivateKey());
    await Promise.all(
      nodes.map(async (n, i) => {
        const rfq = rfqs[i] as RfqFrame;
        // Node 0 bids best with its own key; the others below it, each signed by a key that is not theirs.
        const outputAmount = 1_000_000n - BigInt(i) * 10n;
        const signature =
          i === 0 ? await signBid(nodeKey(0), rfq, outputAmount) : await signBid(forger, rfq, outputAmount);
        n.socket.send({ type: "bid", rfqId: rfq.rfqId, outputAmount: outputAmount.toString(), signature });
      }),
    );
    const res = await pending;
    expect(res.status).toBe(200);
    const answered = Date.now();
    const body = (await res.json()) as Quote;
    expect(body.resolver?.name).toBe("checked-0");
    expect(body.replies).toMatchObject({ valid: BIDDERS, rejected: 0 });

    // The forged bids the sample caught are dropped from the stored quote, in one correction.
    const corrected = await eventually(async () => {
      const quote = await getQuote(body.quoteId);
      expect(quote.replies.rejected).toBeGreaterThan(0);
      return quote;
    }, 30_000);
    const correctedMs = Date.now() - answered;
    console.log(`bid checks: ${corrected.replies.rejected} forged bids caught after the answer, ${correctedMs} ms`);
    expect(corrected.replies).toMatchObject({ valid: BIDDERS - CHECKS_AFTER_ANSWER, rejected: CHECKS_AFTER_ANSWER });
    expect(corrected.offers).toHaveLength(BIDDERS - CHECKS_AFTER_ANSWER);
    expect(corrected.offers[0]).toMatchObject({ name: "checked-0", won: true });
  }, 60_000);
});
