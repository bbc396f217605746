import { type Address, decodeAbiParameters, encodeFunctionData, type Hex } from "viem";
import type { EvmChain } from "../../config";
import type { TokenFeeBps } from "../protocol-fee";
import { feeControllerAbi } from "./abi/fee-controller";
import { type Fetcher, jsonRpcBatch, type RpcAnswer } from "./call-batch";

/** One `eth_call` of `feeBpsFor(token)` per configured token, in the order of `chain.tokens`. */
export function feeBpsRequests(chain: EvmChain) {
  return chain.tokens.map((t) => ({
    method: "eth_call",
    params: [
      {
        to: chain.feeController as Address,
        data: encodeFunctionData({ abi: feeControllerAbi, functionName: "feeBpsFor", args: [t.address as Address] }),
      },
      "latest",
    ],
  }));
}

/** The bps one answer shows, or null when the call failed or returned nothing (no contract there). */
function bpsOf(answer: RpcAnswer | undefined): number | null {
  if (!answer?.ok || typeof answer.result !== "string" || answer.result === "0x") return null;
  try {
    return Number(decodeAbiParameters([{ type: "uint16" }], answer.result as Hex)[0]);
  } catch {
    return null;
  }
}

/** The FeeController's bps for each configured token, by lower-case address; a token it did not answer for is left out. */
export function feeBpsOf(chain: EvmChain, answers: readonly RpcAnswer[]): Map<string, number> {
  const feeBps = new Map<string, number>();
  chain.tokens.forEach((t, i) => {
    const bps = bpsOf(answers[i]);
    if (bps !== null) feeBps.set(t.address.toLowerCase(), bps);
  });
  return feeBps;
}

/**
 * The FeeController's bps for every configured token, in one JSON-RPC batch: the protocol fee's truth is
 * on chain (docs/operations.md, "Health"). Throws when the node does not answer or the
 * controller does not answer for a token, naming it, so a missing read is never taken for a value.
 */
export async function readFeeBps(chain: EvmChain, fetcher?: Fetcher): Promise<TokenFeeBps[]> {
  const answers = await jsonRpcBatch(chain.rpcUrl, feeBpsRequests(chain), fetcher);
  return chain.tokens.map((t, i) => {
    const bps = bpsOf(answers[i]);
    if (bps === null) {
      const answer = answers[i];
      const why = !answer ? "no answer" : answer.ok ? `returned ${String(answer.result)}` : answer.error;
      throw new Error(`the FeeController ${chain.feeController} did not answer feeBpsFor(${t.symbol}): ${why}`);
    }
    return { symbol: t.symbol, address: t.address, bps };
  });
}
