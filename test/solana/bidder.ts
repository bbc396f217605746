import { env } from "cloudflare:test";
import { ed25519 } from "@noble/curves/ed25519";
import { base58, base64 } from "@scure/base";
import { type Keypair, VersionedTransaction } from "@solana/web3.js";
import type { PrivateKeyAccount } from "viem";
import { localSolanaKeypair } from "../../scripts/lib/solana-harness/accounts";
import { OUTPUT_AMOUNT_SLOT, type RelayFrame, type RfqFrame } from "../../src/protocol/relay-frames";

type SignFrame = Extract<RelayFrame, { type: "sign" }>;

import {
  authenticate,
  connect,
  heartbeat,
  nodeAccount,
  SOL,
  solConnectPath,
  solCorridorKey,
  type TestSocket,
  untilInventoryChecked,
} from "../support/ws-client";

/** `keypair`'s base58 ed25519 signature over the UTF-8 `text`. */
export const signText = (keypair: Keypair, text: string) =>
  base58.encode(ed25519.sign(new TextEncoder().encode(text), keypair.secretKey.subarray(0, 32)));

/** `keypair`'s base58 signature over the message of the base64 transaction a `sign` frame carries. */
export function signTransaction(keypair: Keypair, transaction: string): string {
  const message = VersionedTransaction.deserialize(base64.decode(transaction)).message.serialize();
  return base58.encode(ed25519.sign(message, keypair.secretKey.subarray(0, 32)));
}

export interface SolanaBidder {
  socket: TestSocket;
  account: PrivateKeyAccount;
  keypair: Keypair;
  nextRfq(timeoutMs?: number): Promise<RfqFrame>;
  /** Bids `outputAmount` with the ed25519 commitment the rfq asks for. */
  bid(rfq: RfqFrame, outputAmount: bigint): void;
  /**
   * Bids `outputAmount` for the part `sellAmount` of the rfq (docs/legs.md): the commitment with its part
   * appended, or with `signedFor` appended in its place (a part signed for another amount).
   */
  bidPart(rfq: RfqFrame, sellAmount: bigint, outputAmount: bigint, signedFor?: bigint): void;
  nextSign(timeoutMs?: number): Promise<SignFrame>;
  /** Answers a `sign` with this node's signature over its transaction. */
  sign(frame: SignFrame): void;
}

/**
 * An authenticated, heartbeating node on the Solana corridor, with EVM identity `nodeAccount(index)` and
 * the local chain's Solana key `resolver:<solanaNumber>` (funded by the harness), reporting `balance` of
 * both tokens (`balances`: another claim per token), once the relay has read its inventory on chain. With
 * `solana: false` it proves no Solana key; `account` and `keypair` replace the identity and the Solana key
 * (a fresh key holds nothing).
 */
export async function solanaBidder(
  index: number,
  name: string,
  options: {
    solanaNumber?: number;
    solana?: boolean;
    balance?: string;
    balances?: Record<string, string>;
    account?: PrivateKeyAccount;
    keypair?: Keypair;
  } = {},
): Promise<SolanaBidder> {
  const socket = await connect(solConnectPath);
  const account = options.account ?? nodeAccount(index);
  const keypair = options.keypair ?? localSolanaKeypair(`resolver:${options.solanaNumber ?? index + 1}`);
  const proves = options.solana ?? true;
  await authenticate(socket, account, {
    name,
    ...(proves ? { solana: { address: keypair.publicKey.toBase58(), signature: (t) => signText(keypair, t) } } : {}),
  });
  await socket.next("welcome");
  const balance = options.balance ?? "5000000000";
  socket.send(
    heartbeat("quoting", {
      inventory: [SOL.usdc, SOL.cngn].map((token) => {
        const claim = options.balances?.[token] ?? balance;
        return { chainId: SOL.chainId, token, balance: claim, allowance: claim };
      }),
    }),
  );
  // Until the relay has read its Solana key's balances on chain, a node is not asked.
  await untilInventoryChecked(account.address, env, solCorridorKey);
  return {
    socket,
    account,
    keypair,
    nextRfq: (timeoutMs = 3_000) => socket.next("rfq", timeoutMs),
    bid(rfq, outputAmount) {
      if (rfq.toSign.scheme !== "ed25519") throw new Error(`not a Solana rfq: ${rfq.toSign.scheme}`);
      const text = rfq.toSign.text.replace(OUTPUT_AMOUNT_SLOT, outputAmount.toString());
      const signature = signText(keypair, text);
      socket.send({ type: "bid", rfqId: rfq.rfqId, outputAmount: outputAmount.toString(), signature });
    },
    bidPart(rfq, sellAmount, outputAmount, signedFor = sellAmount) {
      if (rfq.toSign.scheme !== "ed25519") throw new Error(`not a Solana rfq: ${rfq.toSign.scheme}`);
      const text = `${rfq.toSign.text.replace(OUTPUT_AMOUNT_SLOT, outputAmount.toString())}|${signedFor}`;
      const signature = signText(keypair, text);
      const [output, part] = [outputAmount.toString(), sellAmount.toString()];
      socket.send({ type: "bid", rfqId: rfq.rfqId, outputAmount: output, sellAmount: part, signature });
    },
    nextSign: (timeoutMs = 3_000) => socket.next("sign", timeoutMs),
    sign(frame) {
      socket.send({ type: "signed", rfqId: frame.rfqId, signature: signTransaction(keypair, frame.transaction) });
    },
  };
}

/** A cNGN amount the fixture band prices at 1 USDC, so bids near 1 USDC stand inside the band guard. */
export async function marketSellAmount(app: {
  request(path: string, init: RequestInit, e: Cloudflare.Env): Response | Promise<Response>;
}): Promise<string> {
  const res = await app.request("/v1/rates", {}, env);
  const { bands } = (await res.json()) as { bands: { corridor: string | null; mid: number }[] };
  const band = bands.find((b) => b.corridor?.startsWith(`${SOL.chainId}:`));
  if (!band) throw new Error("no band for the Solana corridor");
  return String(Math.round(band.mid * 1e6));
}
