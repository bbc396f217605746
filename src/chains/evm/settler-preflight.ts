import { type Address, getAddress, toHex } from "viem";
import { type FillCall, type FillRequest, notReady, type Preflight, settlerLog } from "../settler";
import { quantityOf, rpcBatch } from "./call-batch";
import { callOf, outcomeOfData, permit2NonceOf } from "./settler-calls";
import { fillGasLimit, withHeadroom } from "./settler-gas";
import type { EvmWallet } from "./settler-wallet";
import { takerFundsOf, takerReadiness, takerSideCalls } from "./taker-readiness";

/**
 * A fill checked from the keeper's wallet before it is signed: the taker's side and the simulation at the
 * fill's gas limit in one batch, one round trip, so both see the same block (docs/reliability.md,
 * "Blame"); the simulation counts only once the taker's side is ready.
 */
export async function evmPreflight(wallet: EvmWallet, request: FillRequest, now: number): Promise<Preflight> {
  const { chain, account, contracts, adapter } = wallet;
  const nonce = permit2NonceOf(request);
  const side = {
    token: getAddress(request.sellToken),
    taker: getAddress(request.taker),
    permit2: contracts.permit2,
    nonce,
  };
  const call = callOf(request, contracts);
  const gas = fillGasLimit(chain.gasFee.units, request.signing);
  const simulated = { from: account.address, to: call.to, data: call.data };
  const answers = await rpcBatch(chain.rpcUrl, "checking the fill", [
    ...takerSideCalls(side),
    { method: "eth_call", params: [{ ...simulated, gas: toHex(gas) }, "latest"] },
  ]);
  const readiness = takerReadiness({
    funds: takerFundsOf(answers.slice(0, 3), nonce),
    takerPays: BigInt(request.takerPays),
    permit: request.permit,
    now,
    token: adapter.token(request.sellToken)?.symbol ?? request.sellToken,
  });
  const waiting = notReady(readiness);
  if (waiting) return waiting;
  const simulation = answers[3];
  if (simulation?.ok) return { kind: "prepared", fill: { call, gas } };
  // A revert that names its reason says whose doing it is.
  if (simulation?.data && simulation.data !== "0x") return outcomeOfData(simulation.data, request, contracts);
  // One that names none may have run out of gas: simulated again without the limit, and estimated.
  return estimated(wallet, simulated, gas, call, request);
}

/**
 * A fill that reverted at its gas limit without a reason: simulated without the limit and its gas
 * estimated, in one batch; prepared with the estimate and head room when it passes there.
 */
async function estimated(
  { chain, contracts }: EvmWallet,
  simulated: { from: Address; to: string; data: string },
  limit: bigint,
  call: FillCall,
  request: FillRequest,
): Promise<Preflight> {
  const answers = await rpcBatch(chain.rpcUrl, "estimating the fill's gas", [
    { method: "eth_call", params: [simulated, "latest"] },
    { method: "eth_estimateGas", params: [simulated] },
  ]);
  for (const answer of answers) if (!answer?.ok) return outcomeOfData(answer?.data, request, contracts);
  const gas = quantityOf(answers[1], "estimating gas");
  // Every such fill costs a second round trip: the configuration's units are below what fills use.
  const detail = { chainId: chain.chainId, quoteId: request.quoteId, limit: `${limit}`, estimate: `${gas}` };
  settlerLog("fill_over_gas_limit", detail);
  return { kind: "prepared", fill: { call, gas: withHeadroom(gas) } };
}
