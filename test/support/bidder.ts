import type { PrivateKeyAccount } from "viem";
import { completeToSign, eip712ToSign } from "../../src/chains/evm/json-typed-data";
import type { RfqFrame } from "../../src/protocol/relay-frames";
import {
  authenticate,
  connect,
  EVM,
  heartbeat,
  nodeAccount,
  type TestSocket,
  untilInventoryChecked,
} from "./ws-client";

export const TAKER = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";

/** A quote request for cNGN → USDC on the local EVM chain. */
export const quoteBody = (over: Record<string, unknown> = {}) => ({
  sellToken: EVM.cngn,
  buyToken: EVM.usdc,
  sellAmount: "1580000000",
  taker: TAKER,
  ...over,
});

/**
 * A cNGN amount the oracle band (served by the fixture sources) prices at 1 USDC, so bids near
 * 1 USDC stand inside the band guard whatever the recorded rates are.
 */
export async function marketSellAmount(request: (path: string) => Response | Promise<Response>): Promise<string> {
  const { bands } = (await (await request("/v1/rates")).json()) as {
    bands: { corridor: string | null; mid: number }[];
  };
  const band = bands.find((b) => b.corridor?.startsWith(`${EVM.chainId}:`));
  if (!band) throw new Error("no band for the EVM corridor");
  return String(Math.round(band.mid * 1e6));
}

export async function signBid(
  account: PrivateKeyAccount,
  rfq: RfqFrame,
  outputAmount: bigint,
  sellAmount?: bigint,
): Promise<string> {
  const typed = completeToSign(eip712ToSign(rfq.toSign), outputAmount, sellAmount);
  return account.signTypedData(typed as Parameters<PrivateKeyAccount["signTypedData"]>[0]);
}

export interface Bidder {
  socket: TestSocket;
  account: PrivateKeyAccount;
  nextRfq(timeoutMs?: number): Promise<RfqFrame>;
  bid(rfq: RfqFrame, outputAmount: bigint, over?: Record<string, unknown>): Promise<void>;
  /** A bid of a part of the rfq (docs/legs.md), signed over `signedFor` (the part, unless a test says otherwise). */
  part(rfq: RfqFrame, sellAmount: bigint, outputAmount: bigint, signedFor?: bigint): Promise<void>;
}

/**
 * An authenticated, heartbeating node on the EVM corridor with `balance` of USDC to sell, once the
 * corridor's first on-chain read of its inventory has completed.
 */
export async function bidder(index: number, name: string, balance = "5000000000"): Promise<Bidder> {
  const socket = await connect();
  const account = nodeAccount(index);
  await authenticate(socket, account, { name });
  await socket.next("welcome");
  socket.send(
    heartbeat("quoting", {
      inventory: [{ chainId: EVM.chainId, token: EVM.usdc, balance, allowance: balance }],
    }),
  );
  await untilInventoryChecked(account.address);
  return {
    socket,
    account,
    nextRfq: (timeoutMs = 3_000) => socket.next("rfq", timeoutMs),
    async bid(rfq, outputAmount, over = {}) {
      const signature = await signBid(account, rfq, outputAmount);
      socket.send({ type: "bid", rfqId: rfq.rfqId, outputAmount: outputAmount.toString(), signature, ...over });
    },
    async part(rfq, sellAmount, outputAmount, signedFor = sellAmount) {
      const signature = await signBid(account, rfq, outputAmount, signedFor);
      const amounts = { outputAmount: outputAmount.toString(), sellAmount: sellAmount.toString() };
      socket.send({ type: "bid", rfqId: rfq.rfqId, ...amounts, signature });
    },
  };
}
