import { type Address, encodeFunctionData, getAddress, type Hex, hashTypedData, isAddress } from "viem";
import { z } from "zod";
import type { EvmChain } from "../../config";
import type { Erc2612Permit } from "../../schemas";
import type { LimitOrderChain, RevokeCall, SignedLimitTerms, TakerSide, TakerSideQuery } from "../limit-orders";
import { ChainUnavailableError } from "../settler";
import { permit2Abi } from "./abi/permit2";
import { limitReadiness } from "./limit-readiness";
import type { LimitChainReads, TakerSideFunds } from "./limit-reads";
import { type LimitAuth, limitTakerTypedData } from "./limit-typed-data";
import { permitGrant } from "./permit-grant";
import { PERMIT2_DOMAIN_TYPE, withBigintsAsStrings } from "./typed-data";

/**
 * Limit orders on an EVM chain (docs/limit-orders.md): the taker signs Permit2's
 * `PermitWitnessTransferFrom` with a `LimitAuth` witness for the reactor (docs/contracts.md, "Limit
 * orders: the reactor"); the order is identified by its Permit2 unordered nonce, which
 * `invalidateUnorderedNonces(nonce >> 8, 1 << (nonce & 255))` revokes.
 */

/**
 * Limit-order nonces are 2^128 plus 128 random bits: above every RFQ quote's nonce (its id's 128 bits,
 * `quoteNonce`), so the two kinds of order never share a nonce.
 */
const LIMIT_NONCE_BASE = 1n << 128n;

export function newLimitNonce(): bigint {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return LIMIT_NONCE_BASE | BigInt(`0x${hex}`);
}

/** Where Permit2 keeps an unordered nonce: its 256-bit word and the bit in it. */
export function nonceWord(nonce: bigint): { wordPos: bigint; mask: bigint } {
  return { wordPos: nonce >> 8n, mask: 1n << (nonce & 255n) };
}

const hexAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const uint = z.string().regex(/^(0|[1-9]\d{0,77})$/);

/** The message of a limit order's typed data as it travels in JSON. */
const LimitMessage = z.object({
  permitted: z.object({ token: hexAddress, amount: uint }),
  spender: hexAddress,
  nonce: uint,
  deadline: uint,
  witness: z.object({
    taker: hexAddress,
    recipient: hexAddress,
    sellToken: hexAddress,
    buyToken: hexAddress,
    sellAmount: uint,
    minOut: uint,
    gasFeeToken: hexAddress,
    maxGasFee: uint,
    deadline: uint,
  }),
});

const SignedDomain = z.object({ domain: z.object({ chainId: z.union([z.number().int(), uint]) }) });

function orderOf(terms: SignedLimitTerms): LimitAuth {
  return {
    taker: getAddress(terms.taker),
    recipient: getAddress(terms.recipient),
    sellToken: getAddress(terms.sellToken),
    buyToken: getAddress(terms.buyToken),
    sellAmount: terms.sellAmount,
    minOut: terms.minOut,
    gasFeeToken: getAddress(terms.gasFeeToken),
    maxGasFee: terms.maxGasFee,
    deadline: terms.deadline,
  };
}

export function evmLimitOrders(chain: EvmChain, reads: LimitChainReads): LimitOrderChain {
  const permit2 = getAddress(chain.permit2);
  const reactor = getAddress(chain.reactor);
  const typed = (terms: SignedLimitTerms) =>
    limitTakerTypedData({ chainId: chain.chainId, permit2, reactor, nonce: terms.nonce, order: orderOf(terms) });
  const symbolOf = (token: string) =>
    chain.tokens.find((t) => t.address.toLowerCase() === token.toLowerCase())?.symbol ?? token;

  return {
    executor: reactor,
    permit2,
    newNonce: newLimitNonce,

    typedData(terms) {
      const typedData = typed(terms);
      const types = { EIP712Domain: PERMIT2_DOMAIN_TYPE, ...typedData.types };
      return withBigintsAsStrings({ ...typedData, types }) as Record<string, unknown>;
    },

    termsOf(typedData) {
      const parsed = LimitMessage.safeParse(typedData.message);
      if (!parsed.success) return null;
      const { permitted, nonce, deadline, witness } = parsed.data;
      if (
        ![
          permitted.token,
          witness.taker,
          witness.recipient,
          witness.sellToken,
          witness.buyToken,
          witness.gasFeeToken,
        ].every((a) => isAddress(a))
      ) {
        return null;
      }
      return {
        taker: getAddress(witness.taker),
        recipient: getAddress(witness.recipient),
        sellToken: getAddress(witness.sellToken),
        buyToken: getAddress(witness.buyToken),
        sellAmount: BigInt(witness.sellAmount),
        minOut: BigInt(witness.minOut),
        gasFeeToken: getAddress(witness.gasFeeToken),
        maxGasFee: BigInt(witness.maxGasFee),
        permitAmount: BigInt(permitted.amount),
        nonce: BigInt(nonce),
        deadline: BigInt(deadline),
      };
    },

    signedChainId(typedData) {
      const parsed = SignedDomain.safeParse(typedData);
      if (!parsed.success) return null;
      const id = Number(parsed.data.domain.chainId);
      return Number.isSafeInteger(id) ? id : null;
    },

    // Permit2 checks the taker's signature through its code when its address has any, else by the strict
    // rule: placement asks the chain the same (docs/limit-orders.md, "Placing").
    async takerSignatureFault(terms, signature) {
      const signed = { signer: getAddress(terms.taker), hash: hashTypedData(typed(terms)), signature };
      const verdict = await reads.walletVerdict(signed);
      if (verdict.ok) return null;
      if (verdict.path === "code") {
        return "The taker's address has code, and its isValidSignature (ERC-1271) refuses the signature over the draft's typedData.";
      }
      return verdict.rule
        ? `The signature breaks the rule Permit2 applies: ${verdict.rule}.`
        : "The signature is not the taker's over the draft's typedData.";
    },

    revoke(nonce): RevokeCall {
      const { wordPos, mask } = nonceWord(nonce);
      return {
        permit2,
        to: permit2,
        wordPos: wordPos.toString(),
        mask: mask.toString(),
        data: encodeFunctionData({ abi: permit2Abi, functionName: "invalidateUnorderedNonces", args: [wordPos, mask] }),
      };
    },

    async readiness(terms, erc2612) {
      const taker = getAddress(terms.taker) as Address;
      const token = getAddress(terms.sellToken) as Address;
      const funds = await reads.funds(taker, token);
      const needsPermit = funds.balance >= terms.permitAmount && funds.permit2Allowance < terms.permitAmount;
      const accepted = erc2612 && needsPermit ? await reads.permitAccepted(taker, token, erc2612) : false;
      return limitReadiness({
        funds,
        permitAmount: terms.permitAmount,
        erc2612: erc2612 ? { permit: erc2612, accepted } : null,
        deadline: terms.deadline,
        token: symbolOf(terms.sellToken),
      });
    },

    async nonceSpent(taker, nonce) {
      const { wordPos, mask } = nonceWord(nonce);
      const bitmap = await reads.nonceBitmap(getAddress(taker), wordPos);
      return (bitmap & mask) !== 0n;
    },

    async takerSides(orders, nowSeconds) {
      const sides = await reads.takerSides(
        orders.map((o) => ({
          owner: getAddress(o.taker),
          token: getAddress(o.token),
          wordPos: nonceWord(o.nonce).wordPos,
          permit: o.erc2612 !== null,
          recipient: o.recipient && { token: getAddress(o.recipient.buyToken), to: getAddress(o.recipient.address) },
        })),
      );
      return orders.map((order, i) => takerSideOf(order, sides[i], { permit2, nowSeconds }));
    },
  };
}

/**
 * What one order's reads say of its taker's side: revoked; short of balance, of allowance (an EIP-2612
 * permit with the order stands for the allowance while it can still grant it), or of a recipient that
 * takes the buy token; or whole.
 */
export function takerSideOf(
  order: TakerSideQuery,
  read: TakerSideFunds | undefined,
  at: { permit2: Address; nowSeconds: number },
): TakerSide {
  if (!read) throw new ChainUnavailableError("an order's taker side was not read");
  if ((read.bitmap & nonceWord(order.nonce).mask) !== 0n) return { kind: "revoked" };
  if (read.balance < order.amount) return { kind: "short", reason: "insufficient_balance" };
  if (read.permit2Allowance < order.amount) {
    const grant = order.erc2612 && read.permit ? permitGrantOf(order, order.erc2612, read.permit, at) : null;
    if (grant !== "grants") return { kind: "short", reason: grant ?? "insufficient_allowance" };
  }
  if (read.recipientAccepts === false) return { kind: "short", reason: "recipient_refused" };
  return { kind: "whole" };
}

const permitGrantOf = (
  order: TakerSideQuery,
  permit: Erc2612Permit,
  token: { nonce: bigint; domainSeparator: Hex },
  at: { permit2: Address; nowSeconds: number },
) => permitGrant({ permit, owner: getAddress(order.taker), spender: at.permit2, ...token, nowSeconds: at.nowSeconds });
