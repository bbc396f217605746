import type { PrivateKeyAccount } from "viem";
import type { RfqFrame } from "../../src/protocol/frames";
import { completeToSign } from "../../src/protocol/to-sign";
import { authenticate, connect, EVM, heartbeat, nodeAccount, type TestSocket } from "./ws-client";

export const TAKER = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";

/** A quote request for cNGN → USDC on the local EVM chain. */
export const quoteBody = (over: Record<string, unknown> = {}) => ({
  sellToken: EVM.cngn,
  buyToken: EVM.usdc,
  sellAmount: "1580000000",
  taker: TAKER,
  ...over,
});

export async function signBid(account: PrivateKeyAccount, rfq: RfqFrame, outputAmount: bigint): Promise<string> {
  const typed = completeToSign(rfq.toSign, outputAmount);
  return account.signTypedData(typed as Parameters<PrivateKeyAccount["signTypedData"]>[0]);
}

export interface Bidder {
  socket: TestSocket;
  account: PrivateKeyAccount;
  nextRfq(timeoutMs?: number): Promise<RfqFrame>;
  bid(rfq: RfqFrame, outputAmount: bigint, over?: Record<string, unknown>): Promise<void>;
}

/** An authenticated, heartbeating node on the EVM corridor with `balance` of USDC to sell. */
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
  return {
    socket,
    account,
    nextRfq: (timeoutMs = 3_000) => socket.next("rfq", timeoutMs),
    async bid(rfq, outputAmount, over = {}) {
      const signature = await signBid(account, rfq, outputAmount);
      socket.send({ type: "bid", rfqId: rfq.rfqId, outputAmount: outputAmount.toString(), signature, ...over });
    },
  };
}
