import { env } from "cloudflare:test";
import {
  type Address,
  type BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  getAddress,
  type Hex,
  type LocalAccount,
  maxUint256,
  toFunctionSelector,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { limitReactorAbi } from "../../src/chains/evm/abi/limit-reactor";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { type JsonTypedData, typedDataFromJson } from "../../src/chains/evm/json-typed-data";
import { type LimitAuth, type LimitFill, limitFillTypedData } from "../../src/chains/evm/limit-typed-data";
import { quoteIdToBytes32 } from "../../src/chains/evm/typed-data";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { readLimitOrder } from "../../src/db/limit-orders";
import { newId } from "../../src/ids";
import type { LimitOrder, LimitOrderDraft } from "../../src/schemas/limit-order";
import { highS, vAsParity } from "../support/signature-variants";
import { app, chainClient, cngnPermit, EVM, fundedResolver, KEEPER, newTaker, setFault, walletOf } from "./helpers";

/**
 * Limit orders placed against anvil with the contracts deployed, through the relay's own chain reads
 * (its RPC goes through the fault proxy): a wallet's real eth_signTypedData_v4 signature, Permit2
 * allowances and EIP-2612 permits read from the chain, nonces spent on chain, and the stored order
 * filled on the reactor exactly as the keeper will call it.
 */
const chain = primaryEvmChain(localConfig);
const reactor = getAddress(chain.reactor);

interface Answer<T> {
  status: number;
  body: T;
}

async function call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const res = await app.request(
    path,
    {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    env,
  );
  return { status: res.status, body: (await res.json()) as T };
}

/** 1,580 cNGN for at least 1 USDC, the gas fee in USDC, for a week. */
async function prepare(taker: LocalAccount): Promise<LimitOrderDraft> {
  const res = await call<LimitOrderDraft>("POST", "/v1/limit-orders/prepare", {
    sellToken: EVM.cngn,
    buyToken: EVM.usdc,
    sellAmount: "1580000000",
    limitAmount: "1000000",
    taker: taker.address,
    expiresInSeconds: 7 * 86_400,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** What a wallet's eth_signTypedData_v4 signs: the draft's typedData as JSON, EIP712Domain included. */
const signDraft = (taker: LocalAccount, draft: LimitOrderDraft): Promise<Hex> =>
  taker.signTypedData(
    typedDataFromJson(draft.typedData as unknown as JsonTypedData) as Parameters<LocalAccount["signTypedData"]>[0],
  );

async function place(taker: LocalAccount, draft: LimitOrderDraft, extra: Record<string, unknown> = {}) {
  return call<LimitOrder & Record<string, unknown>>("POST", "/v1/limit-orders", {
    draft,
    signature: await signDraft(taker, draft),
    ...extra,
  });
}

async function mined(hash: Hex): Promise<void> {
  const receipt = await chainClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
}

/**
 * The keeper's `executeLimit` of a stored order for a resolver's signed fill, simulated on the chain;
 * with `takerSignature`, the order as if signed with that instead of its stored signature.
 */
async function simulateFill(limitOrderId: string, outputAmount: bigint, takerSignature?: Hex) {
  const stored = await readLimitOrder(env.DB, limitOrderId);
  if (!stored) throw new Error("the order is stored");
  const witness = (stored.typedData.message as { witness: Record<string, string> }).witness;
  const order: LimitAuth = {
    taker: witness.taker as Address,
    recipient: witness.recipient as Address,
    sellToken: witness.sellToken as Address,
    buyToken: witness.buyToken as Address,
    sellAmount: BigInt(witness.sellAmount ?? ""),
    minOut: BigInt(witness.minOut ?? ""),
    gasFeeToken: witness.gasFeeToken as Address,
    maxGasFee: BigInt(witness.maxGasFee ?? ""),
    deadline: BigInt(witness.deadline ?? ""),
  };
  const resolver = fundedResolver(0);
  const block = await chainClient.getBlock();
  const bid = {
    resolver: resolver.address,
    quoteId: quoteIdToBytes32(newId("q")),
    outputAmount,
    deadline: block.timestamp + 60n,
  };
  const fill: LimitFill = {
    quoteId: bid.quoteId,
    order,
    nonce: BigInt(stored.nonce),
    outputAmount,
    deadline: bid.deadline,
  };
  const resolverSignature = await resolver.signTypedData(limitFillTypedData({ chainId: chain.chainId, reactor, fill }));
  return chainClient.simulateContract({
    account: KEEPER,
    address: reactor,
    abi: limitReactorAbi,
    functionName: "executeLimit",
    args: [
      order,
      BigInt(stored.nonce),
      takerSignature ?? (stored.signature as Hex),
      bid,
      resolverSignature,
      BigInt(stored.gasFeeNow),
    ],
  });
}

/** The reactor's revert, with the Permit2 error its taker leg carries: `TakerLegFailed(InvalidSigner)`. */
async function revertOf(simulation: Promise<unknown>): Promise<string> {
  try {
    await simulation;
    return "no revert";
  } catch (e) {
    const revert = (e as BaseError).walk((x) => x instanceof ContractFunctionRevertedError);
    if (!(revert instanceof ContractFunctionRevertedError)) throw e;
    const [reason] = (revert.data?.args ?? []) as Hex[];
    const inner = reason ? decodeErrorResult({ abi: permit2Abi, data: reason }).errorName : "";
    return `${revert.data?.errorName}(${inner})`;
  }
}

afterEach(async () => {
  await setFault("none");
});

describe("placing a limit order on a real chain", () => {
  it("takes a wallet's signature and stores an order the reactor fills as the keeper will call it", async () => {
    const taker = await newTaker();
    const draft = await prepare(taker);
    const res = await place(taker, draft);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: "open", attempts: 0, minOut: "849000", gasFee: { max: "150000" } });
    const { result } = await simulateFill(res.body.limitOrderId, 1_000_000n);
    expect(result).toBeUndefined();
  });

  it("answers 400 bad_signature for the taker's signature with v 0/1 or a high s, which Permit2 refuses", async () => {
    const taker = await newTaker();
    const draft = await prepare(taker);
    const signature = await signDraft(taker, draft);
    for (const variant of [vAsParity(signature), highS(signature)]) {
      const refused = await call("POST", "/v1/limit-orders", { draft, signature: variant });
      expect([refused.status, refused.body.error]).toEqual([400, "bad_signature"]);
    }
    const placed = await call<LimitOrder>("POST", "/v1/limit-orders", { draft, signature });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    // The reactor's fill of the same order with either variant: Permit2 refuses the taker's signature.
    for (const variant of [vAsParity(signature), highS(signature)]) {
      expect(await revertOf(simulateFill(placed.body.limitOrderId, 1_000_000n, variant))).toBe(
        "TakerLegFailed(InvalidSigner)",
      );
    }
    await expect(simulateFill(placed.body.limitOrderId, 1_000_000n)).resolves.toBeDefined();
  });

  it("answers 400 taker_not_ready without a Permit2 approval, and takes an EIP-2612 permit instead", async () => {
    const taker = await newTaker({ approvePermit2: false });
    const draft = await prepare(taker);
    const refused = await place(taker, draft);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: "taker_not_ready", reason: "permit2_not_approved" });

    const lasting = 8 * 86_400;
    const stranger = privateKeyToAccount(generatePrivateKey());
    const forged = { ...(await cngnPermit(stranger, maxUint256, lasting)) };
    const bad = await place(taker, draft, { erc2612: forged });
    expect(bad.body).toMatchObject({ error: "taker_not_ready", reason: "permit_invalid" });

    const erc2612 = await cngnPermit(taker, maxUint256, lasting);
    const res = await place(taker, draft, { erc2612 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await readLimitOrder(env.DB, res.body.limitOrderId))?.erc2612).toStrictEqual(erc2612);
  });

  it("answers 400 taker_not_ready insufficient_balance for a taker without the sell amount", async () => {
    const taker = await newTaker({ tokens: 1_000n });
    const res = await place(taker, await prepare(taker));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "taker_not_ready", reason: "insufficient_balance" });
  });

  it("answers 409 nonce_used for a nonce the taker invalidated on chain", async () => {
    const taker = await newTaker();
    const draft = await prepare(taker);
    const nonce = BigInt(draft.draft.nonce);
    await mined(
      await walletOf(taker).writeContract({
        address: EVM.permit2,
        abi: permit2Abi,
        functionName: "invalidateUnorderedNonces",
        args: [nonce >> 8n, 1n << (nonce & 255n)],
      }),
    );
    const res = await place(taker, draft);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "nonce_used" });
  });

  it("gives a revoke call that ends the order's signature on chain", async () => {
    const taker = await newTaker();
    const res = await place(taker, await prepare(taker));
    expect(res.status).toBe(201);
    const { revoke } = res.body;
    await mined(await walletOf(taker).sendTransaction({ to: revoke.to as Address, data: revoke.data as Hex }));
    const bitmap = await chainClient.readContract({
      address: EVM.permit2,
      abi: permit2Abi,
      functionName: "nonceBitmap",
      args: [taker.address, BigInt(revoke.wordPos)],
    });
    expect(bitmap & BigInt(revoke.mask)).toBe(BigInt(revoke.mask));
    // Permit2's InvalidNonce(), which the reactor's ABI does not name.
    await expect(simulateFill(res.body.limitOrderId, 1_000_000n)).rejects.toThrow(toFunctionSelector("InvalidNonce()"));
  });

  it("answers 503 chain_unavailable when the RPC is down", async () => {
    const taker = await newTaker();
    const draft = await prepare(taker);
    await setFault("down");
    const res = await place(taker, draft);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: "chain_unavailable" });
  });
});
