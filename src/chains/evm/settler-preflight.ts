import { type Address, getAddress, toHex } from "viem";
import {
  type FillCall,
  type FillRequest,
  notReady,
  type Preflight,
  type SubmissionChecks,
  settlerLog,
} from "../settler";
import { quantityOf, type RpcAnswer, rpcBatch } from "./call-batch";
import { callOf, outcomeOfData, permit2NonceOf } from "./settler-calls";
import { fillGasLimit, withHeadroom } from "./settler-gas";
import { takerCheckOf, takerDigest } from "./settler-taker";
import type { EvmWallet } from "./settler-wallet";
import { takerFundsOf, takerReadiness, takerSideCalls } from "./taker-readiness";
import { walletSignatureRequests, walletVerdict } from "./wallet-signature";

/**
 * A fill checked from the keeper's wallet before it is signed: the taker's side, the simulation at the
 * fill's gas limit, and the taker's signature as Permit2 will check it (the taker's code, and what that
 * code says of the signature) in one batch, one round trip, so all of them see the same block
 * (docs/reliability.md, "Blame"); the simulation counts only once the taker's side is ready.
 */
export function evmPreflight(wallet: EvmWallet, request: FillRequest, now: number): SubmissionChecks {
  const { chain, contracts } = wallet;
  const taker = getAddress(request.taker);
  // A signing the relay cannot read fails both checks alike, as it did before any read.
  const reads = (async () => {
    const hash = takerDigest({ chainId: chain.chainId, ...contracts }, request);
    const signed = { signer: taker, hash, signature: request.signature };
    const answers = await rpcBatch(chain.rpcUrl, "checking the fill", [
      ...fillRequests(wallet, request),
      ...walletSignatureRequests({ ...signed, verifier: contracts.permit2 }),
    ]);
    return { answers, signed };
  })();
  return {
    taker: reads.then(({ answers, signed }) => takerCheckOf(walletVerdict(answers.slice(FILL_READS), signed))),
    fill: reads.then(({ answers }) => fillOf(wallet, request, now, answers)),
  };
}

/** How many of the batch's requests are the fill's own (`fillRequests`): the taker's side, then the simulation. */
const FILL_READS = 4;

const simulatedCall = (wallet: EvmWallet, request: FillRequest) => {
  const call = callOf(request, wallet.contracts);
  return { call, simulated: { from: wallet.account.address, to: call.to, data: call.data } };
};

/** The taker's side (three reads) and the simulation at the fill's gas limit. */
function fillRequests(wallet: EvmWallet, request: FillRequest) {
  const nonce = permit2NonceOf(request);
  const side = {
    token: getAddress(request.sellToken),
    taker: getAddress(request.taker),
    permit2: wallet.contracts.permit2,
    nonce,
  };
  const { simulated } = simulatedCall(wallet, request);
  const gas = fillGasLimit(wallet.chain.gasFee.units, request.signing);
  return [...takerSideCalls(side), { method: "eth_call", params: [{ ...simulated, gas: toHex(gas) }, "latest"] }];
}

/** What the fill's reads say: not ready, prepared, or what its revert means. */
async function fillOf(wallet: EvmWallet, request: FillRequest, now: number, answers: RpcAnswer[]): Promise<Preflight> {
  const { chain, contracts, adapter } = wallet;
  const nonce = permit2NonceOf(request);
  const readiness = takerReadiness({
    funds: takerFundsOf(answers.slice(0, 3), nonce),
    takerPays: BigInt(request.takerPays),
    permit: request.permit,
    now,
    token: adapter.token(request.sellToken)?.symbol ?? request.sellToken,
  });
  const waiting = notReady(readiness);
  if (waiting) return waiting;
  const { call, simulated } = simulatedCall(wallet, request);
  const gas = fillGasLimit(chain.gasFee.units, request.signing);
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
