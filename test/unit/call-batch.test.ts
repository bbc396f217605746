import { encodeAbiParameters, type Hex, toHex } from "viem";
import { describe, expect, it } from "vitest";
import {
  asCallAnswer,
  ethCallBatch,
  MAX_BATCH_REQUESTS,
  quantityOf,
  readUints,
  rpcAnswersInOrder,
} from "../../src/chains/evm/call-batch";
import { ChainUnavailableError } from "../../src/chains/settler";

const uint = (n: bigint) => encodeAbiParameters([{ type: "uint256" }], [n]);
const TOKEN = "0x00000000000000000000000000000000000000aa";
const call = (data: Hex) => ({ to: TOKEN, data }) as const;

/** A node that answers each call with the uint in its data's last byte, in reverse order, and counts requests. */
function node() {
  const bodies: unknown[] = [];
  const fetcher = async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as { id: number; params: [{ data: Hex }] }[];
    bodies.push(body);
    const answers = body.map(({ id, params: [{ data }] }) => ({ jsonrpc: "2.0", id, result: uint(BigInt(data)) }));
    return new Response(JSON.stringify(answers.reverse()));
  };
  return { fetcher, bodies };
}

describe("ethCallBatch", () => {
  it("sends every call in one request and gives the answers back in the calls' order", async () => {
    const rpc = node();
    const values = await readUints("http://rpc", "reading", [call("0x01"), call("0x02"), call("0x03")], rpc.fetcher);
    expect(values).toEqual([1n, 2n, 3n]);
    expect(rpc.bodies).toHaveLength(1);
    expect(await ethCallBatch("http://rpc", [], rpc.fetcher)).toEqual([]);
    expect(rpc.bodies).toHaveLength(1);
  });

  it("sends more than MAX_BATCH_REQUESTS calls as several batches, the answers in the calls' order", async () => {
    const rpc = node();
    const calls = Array.from({ length: 2 * MAX_BATCH_REQUESTS + 50 }, (_, i) => call(toHex(i + 1)));
    const values = await readUints("http://rpc", "reading", calls, rpc.fetcher);
    expect(values).toEqual(calls.map((_, i) => BigInt(i + 1)));
    expect(rpc.bodies.map((b) => (b as unknown[]).length)).toEqual([MAX_BATCH_REQUESTS, MAX_BATCH_REQUESTS, 50]);
  });

  it("names a refused call, and never reads a missing answer as zero", () => {
    expect(rpcAnswersInOrder(2, [{ id: 1, error: { message: "execution reverted" } }]).map(asCallAnswer)).toEqual([
      { ok: false, error: "no answer" },
      { ok: false, error: "execution reverted" },
    ]);
    expect(() => rpcAnswersInOrder(1, { error: { message: "batch not supported" } })).toThrow("not answer the batch");
  });

  it("keeps a reverted call's data, and reads a gas estimate as a quantity", () => {
    const [reverted, estimate] = rpcAnswersInOrder(2, [
      { id: 0, error: { code: 3, message: "execution reverted", data: "0x8baa579f" } },
      { id: 1, result: "0x5208" },
    ]);
    expect(reverted).toEqual({ ok: false, error: "execution reverted", data: "0x8baa579f" });
    expect(quantityOf(estimate, "estimating gas")).toBe(21_000n);
    expect(() => quantityOf(reverted, "estimating gas")).toThrow(
      new ChainUnavailableError("estimating gas: execution reverted"),
    );
  });

  it("turns a node that is down, refuses a call or returns nothing into ChainUnavailableError", async () => {
    const down = async () => new Response("unavailable", { status: 503 });
    await expect(readUints("http://rpc", "reading the taker's side", [call("0x01")], down)).rejects.toThrow(
      new ChainUnavailableError("reading the taker's side: the RPC answered 503"),
    );
    const empty = async () => new Response(JSON.stringify([{ jsonrpc: "2.0", id: 0, result: "0x" }]));
    await expect(readUints("http://rpc", "reading", [call("0x01")], empty)).rejects.toBeInstanceOf(
      ChainUnavailableError,
    );
    const refused = async () => new Response(JSON.stringify([{ jsonrpc: "2.0", id: 0, error: { message: "nope" } }]));
    await expect(readUints("http://rpc", "reading", [call("0x01")], refused)).rejects.toThrow("nope");
  });
});
