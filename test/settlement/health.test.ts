import { env } from "cloudflare:test";
import type { Hex } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { feeControllerAbi } from "../../src/chains/evm/abi/fee-controller";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { tokenToNative } from "../../src/costs/gas-fee";
import type { Health } from "../../src/schemas/ops";
import {
  app,
  chainClient,
  deployer,
  EVM,
  fundedResolver,
  indexUntil,
  KEEPER,
  newTaker,
  seedQuote,
  setFault,
  signQuote,
  submit,
} from "./helpers";

/** GET /v1/health against a real chain, reached through the fault-injecting proxy (chain.global.ts). */

async function health(): Promise<Health> {
  const res = await app.request("/v1/health", {}, env);
  expect(res.status).toBe(200);
  return (await res.json()) as Health;
}

const evmPart = (h: Health) => {
  const part = h.chains.find((c) => c.chainId === EVM.chainId);
  if (!part) throw new Error(`no chain ${EVM.chainId} in the health record`);
  return part;
};

const chain = primaryEvmChain(localConfig);

afterEach(() => setFault("none"));

describe("GET /v1/health: the chain", () => {
  it("shows the head and its age while the RPC answers, the chain degraded while it is down, and ok again after", async () => {
    // This anvil mines on transactions only: one block now, so the head is fresh.
    await fetch(env.TEST_CHAIN_RPC_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] }),
    });
    const up = await health();
    expect(evmPart(up)).toMatchObject({ status: "ok", reachable: true, error: null });
    expect(evmPart(up)?.head).toBeGreaterThan(0);
    expect(evmPart(up)?.headAgeSeconds).toBeLessThan(60);
    expect(up.degraded).not.toContain(`chain:${EVM.chainId}`);
    expect(up.keeper.wallets).toContainEqual({ chainId: EVM.chainId, wallets: 1, addresses: [KEEPER.address] });

    await setFault("down");
    const down = await health();
    expect(evmPart(down)).toMatchObject({ status: "degraded", reachable: false, head: null });
    expect(evmPart(down)?.error).toContain("503");
    expect(down.status).toBe("degraded");
    expect(down.degraded).toContain(`chain:${EVM.chainId}`);

    await setFault("none");
    expect(evmPart(await health())).toMatchObject({ status: "ok", reachable: true });
  });
});

describe("GET /v1/health: the keeper's books and the protocol fee (docs/operations.md, Health)", () => {
  it("counts a settled swap: one more fill, spent as its receipt's gasUsed × effectiveGasPrice, charged at its native price", async () => {
    const before = evmPart(await health());
    const taker = await newTaker();
    const nativePrice = 3_000.25;
    const { quoteId, quote, typedData } = await seedQuote({
      taker: taker.address,
      resolver: fundedResolver(0),
      nativePrice,
    });
    const res = await submit({ quoteId, signature: await signQuote(taker, typedData) });
    expect(res.status).toBe(202);
    expect((await indexUntil(quoteId, (q) => q.status === "settled")).status).toBe("settled");
    const receipt = await chainClient.getTransactionReceipt({ hash: res.body.txHash as Hex });
    const spent = receipt.gasUsed * receipt.effectiveGasPrice;
    const feeToken = chain.tokens.find((t) => t.address.toLowerCase() === quote.gasFee.token.toLowerCase());
    const charged = tokenToNative(BigInt(quote.gasFee.amount), nativePrice, 18, feeToken?.decimals ?? -1);

    const after = evmPart(await health());
    if (!before.books || !after.books) throw new Error("the books were not read");
    expect(after.books.fills).toBe(before.books.fills + 1);
    expect(BigInt(after.books.spent) - BigInt(before.books.spent)).toBe(spent);
    expect(BigInt(after.books.charged) - BigInt(before.books.charged)).toBe(charged);
    expect(BigInt(after.books.margin)).toBe(BigInt(after.books.charged) - BigInt(after.books.spent));
    expect(after.books.unpriced).toBe(before.books.unpriced);
    expect(after.keeper.balance).toBe((await chainClient.getBalance({ address: KEEPER.address })).toString());
    expect(after.keeper.fillsLeft).toBeGreaterThan(after.keeper.floorFills);
    expect(after).toMatchObject({ status: "ok", error: null });
  });

  it("names a FeeController whose bps differ from fee.bps, and stops once they agree again", async () => {
    const setFee = async (call: Promise<Hex>) => {
      const receipt = await chainClient.waitForTransactionReceipt({ hash: await call });
      expect(receipt.status).toBe("success");
    };
    const configured = chain.fee.bps;
    const controller = { address: chain.feeController as Hex, abi: feeControllerAbi } as const;
    await setFee(deployer.writeContract({ ...controller, functionName: "setTokenFeeBps", args: [EVM.usdc, 25] }));
    try {
      const h = await health();
      expect(h.degraded).toContain(`chain:${EVM.chainId}`);
      expect(evmPart(h)).toMatchObject({ status: "degraded", reachable: true });
      expect(evmPart(h).error).toContain(`fee.bps ${configured} differs from the FeeController's 25 for USDC`);
      expect(evmPart(h).protocolFee).toEqual({
        bps: configured,
        onChain: [
          { token: "cNGN", bps: configured },
          { token: "USDC", bps: 25 },
        ],
      });
    } finally {
      await setFee(deployer.writeContract({ ...controller, functionName: "clearTokenFeeBps", args: [EVM.usdc] }));
    }
    expect(evmPart(await health())).toMatchObject({ status: "ok", error: null });
  });
});
