/**
 * The required-work floor's resolvers (bench/README.md, "The floor"), in a worker thread
 * (bench/fleet-thread.ts): `count` WebSockets to its corridor, each with a key of its own, answering every
 * rfq after the same fixed delay as the relay's reference resolvers (bench/fleet-worker.ts) with a bid
 * signed over the rfq's `toSign`, natively as theirs are (bench/native-signer.ts).
 */
import { workerData } from "node:worker_threads";
import type { LocalAccount } from "viem";
import { anvilAccount } from "../src/clients/resolver/keys";
import type { RequiredBid, RequiredRfq } from "./floor/protocol";
import { floorSocket, serveFleet } from "./floor-fleet-sockets";
import type { FloorFleetRequest } from "./floor-fleet-worker";
import { nativelySigning } from "./native-signer";

/** Keys far past the accounts the benchmarks fund: a floor resolver holds nothing and needs nothing. */
const FIRST_KEY = 200;

const { url, corridor, count, latencyMs } = workerData as FloorFleetRequest;

/** Resolver `i` bids `i` bps under the amount sold, so the auction has a best reply. */
async function bidFor(i: number, account: LocalAccount, rfq: RequiredRfq): Promise<RequiredBid> {
  const sold = BigInt((rfq.request as { sellAmount?: string }).sellAmount ?? "0");
  const outputAmount = (sold * BigInt(10_000 - i)) / 10_000n;
  const signature = await account.signTypedData({
    ...rfq.toSign,
    message: { ...rfq.toSign.message, outputAmount },
  } as Parameters<LocalAccount["signTypedData"]>[0]);
  return { type: "bid", id: rfq.id, outputAmount: outputAmount.toString(), signature };
}

await serveFleet(count, (i) => {
  const hd = anvilAccount(FIRST_KEY + i);
  const account = nativelySigning(hd);
  const query = new URLSearchParams({ corridor, address: hd.address, publicKey: hd.publicKey });
  const connectUrl = `${url.replace(/^http/, "ws")}/required/connect?${query}`;
  return floorSocket(i, connectUrl, latencyMs, (rfq) => bidFor(i, account, JSON.parse(rfq) as RequiredRfq));
});
