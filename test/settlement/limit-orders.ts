import { env } from "cloudflare:test";
import type { Address, LocalAccount } from "viem";
import { type LimitAuth, limitPermitAmount, limitTakerTypedData } from "../../src/chains/evm/limit-typed-data";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import type { Erc2612Permit } from "../../src/schemas";
import type { LimitRound } from "../../src/types";
import { EVM } from "./helpers";

const chain = primaryEvmChain(localConfig);

/**
 * An order selling `sellAmount` cNGN for at least `minOut` USDC, signed by the taker for Permit2 and the
 * reactor; paid to `recipient` (the taker by default).
 */
export async function signedOrder(taker: LocalAccount, sellAmount: bigint, minOut: bigint, recipient?: Address) {
  const order: LimitAuth = {
    taker: taker.address,
    recipient: recipient ?? taker.address,
    sellToken: EVM.cngn,
    buyToken: EVM.usdc,
    sellAmount,
    minOut,
    gasFeeToken: EVM.usdc,
    maxGasFee: 150_000n,
    deadline: BigInt(Math.floor(Date.now() / 1000) + 3_600),
  };
  const nonce = BigInt(Math.floor(Math.random() * 2 ** 48));
  const typed = limitTakerTypedData({
    chainId: chain.chainId,
    permit2: EVM.permit2,
    reactor: chain.reactor as Address,
    nonce,
    order,
  });
  const signature = await taker.signTypedData(typed);
  const round: LimitRound = {
    limitOrderId: `lo_${nonce}`,
    order: Object.fromEntries(Object.entries(order).map(([k, v]) => [k, String(v)])),
    nonce: nonce.toString(),
    minOut: minOut.toString(),
    // The taker's price at least what the recipient must get: these rounds test minOut.
    limitAmount: minOut.toString(),
  };
  return { order, nonce, signature, round };
}

/**
 * Stores a signed order as placing it would (D1 `limit_orders`), open, asking `limitAmount` USDC, with the
 * taker's EIP-2612 approval of Permit2 when given.
 */
export async function storeOrder(
  signed: Awaited<ReturnType<typeof signedOrder>>,
  limitAmount: bigint,
  expiresAt = Date.now() + 3_600_000,
  erc2612: Erc2612Permit | null = null,
): Promise<string> {
  const { order, nonce, signature, round } = signed;
  const now = new Date().toISOString();
  await env.DB.prepare(
    `INSERT INTO limit_orders (limit_order_id, chain_id, taker, recipient, sell_token, buy_token, sell_amount,
       limit_amount, min_out, gas_fee_token, max_gas_fee, permit_token, permit_amount, nonce, deadline, signature,
       erc2612, status, expires_at, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?19, 'open', ?17, ?18, ?18)`,
  )
    .bind(
      round.limitOrderId,
      chain.chainId,
      order.taker,
      order.recipient,
      order.sellToken,
      order.buyToken,
      order.sellAmount.toString(),
      limitAmount.toString(),
      order.minOut.toString(),
      order.gasFeeToken,
      order.maxGasFee.toString(),
      order.sellToken,
      limitPermitAmount(order).toString(),
      nonce.toString(),
      order.deadline.toString(),
      signature,
      new Date(expiresAt).toISOString(),
      now,
      erc2612 && JSON.stringify(erc2612),
    )
    .run();
  return round.limitOrderId;
}

export interface StoredOrder {
  status: string;
  quote_id: string | null;
  attempts: number;
  best_received: string | null;
  last_error: string | null;
  last_checked_at: string | null;
}

export const readOrder = (id: string) =>
  env.DB.prepare("SELECT * FROM limit_orders WHERE limit_order_id = ?").bind(id).first<StoredOrder>();
