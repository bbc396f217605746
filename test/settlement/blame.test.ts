import { env } from "cloudflare:test";
import { type Address, getAddress, type Hex, type LocalAccount, maxUint256 } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { blacklistTokenBytecode } from "../../contracts/out/blacklist-token";
import { blacklistTokenAbi } from "../../src/chains/evm/abi/blacklist-token";
import { feeControllerAbi } from "../../src/chains/evm/abi/fee-controller";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { validationAbi } from "../../src/chains/evm/abi/validation";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import { readResolver, upsertRegistration } from "../../src/db/resolvers";
import {
  approve,
  chainClient,
  deployer,
  EVM,
  getExecution,
  getQuote,
  newResolver,
  newTaker,
  seedQuote,
  signQuote,
  submit,
  walletOf,
} from "./helpers";

/**
 * Blame by evidence (docs/reliability.md, "Blame"), through the real keeper against the chain: what a
 * hostile taker or the relay's own configuration does strikes nobody; only a resolver's own fault does.
 */

const mined = async (hash: Promise<Hex>) => {
  const receipt = await chainClient.waitForTransactionReceipt({ hash: await hash });
  expect(receipt.status).toBe("success");
};

/** A registered resolver, so that a strike would show on its directory entry. */
async function registeredResolver(): Promise<LocalAccount> {
  const resolver = await newResolver();
  await upsertRegistration(env.DB, resolver.address, { name: "blamed?" }, new Date().toISOString());
  return resolver;
}

const standing = async (resolver: LocalAccount) => {
  const row = await readResolver(env.DB, resolver.address);
  return { demotions: row?.demotions, demotedUntil: row?.demotedUntil };
};

describe("blame on the chain's evidence", () => {
  it("a taker who invalidates its Permit2 nonce, then submits, is told taker:nonce_used; nobody is struck", async () => {
    const taker = await newTaker();
    const resolver = await registeredResolver();
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver });
    const signature = await signQuote(taker, typedData);
    const nonce = BigInt((typedData.message as { nonce: string }).nonce);
    await mined(
      walletOf(taker).writeContract({
        address: EVM.permit2,
        abi: permit2Abi,
        functionName: "invalidateUnorderedNonces",
        args: [nonce >> 8n, 1n << (nonce & 255n)],
      }),
    );

    const res = await submit({ quoteId, signature });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "requote", reason: "taker:nonce_used" });
    expect(await getExecution(String(res.body.executionId))).toMatchObject({ status: "requote", blame: "taker" });
    // The taker's own doing leaves the quote open (it expires on its own) and the resolver as it was.
    expect((await getQuote(quoteId)).status).toBe("signed");
    expect(await standing(resolver)).toEqual({ demotions: 0, demotedUntil: null });
  });

  it("a fee the relay's configuration has wrong leaves the signed minimum unmet: the relay's fault, nobody struck", async () => {
    const feeController = primaryEvmChain(localConfig).feeController as Hex;
    const taker = await newTaker();
    const resolver = await registeredResolver();
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver });
    const setFee = (bps: number) =>
      mined(
        deployer.writeContract({
          address: feeController,
          abi: feeControllerAbi,
          functionName: "setTokenFeeBps",
          args: [EVM.usdc, bps],
        }),
      );
    await setFee(77);
    try {
      const res = await submit({ quoteId, signature: await signQuote(taker, typedData) });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "requote", reason: "relay:received_below_minimum" });
      expect(await getExecution(String(res.body.executionId))).toMatchObject({ blame: "relay" });
    } finally {
      await mined(
        deployer.writeContract({
          address: feeController,
          abi: feeControllerAbi,
          functionName: "clearTokenFeeBps",
          args: [EVM.usdc],
        }),
      );
    }
    expect(await standing(resolver)).toEqual({ demotions: 0, demotedUntil: null });
  });

  it("a winner that withdraws its allowance to the executor is the resolver's fault: struck and demoted", async () => {
    const taker = await newTaker();
    const resolver = await registeredResolver();
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver });
    await approve(resolver, EVM.usdc, EVM.executor, 0n);
    const res = await submit({ quoteId, signature: await signQuote(taker, typedData) });
    expect(res.body).toMatchObject({ status: "requote", reason: "resolver:insufficient_allowance" });
    expect(await getExecution(String(res.body.executionId))).toMatchObject({ blame: "resolver" });
    const after = await standing(resolver);
    expect(after.demotions).toBe(1);
    expect(Date.parse(after.demotedUntil ?? "")).toBeGreaterThan(Date.now());
  });
});

describe("a token that blacklists a party, through the keeper", () => {
  let blacklist: Address = "0x";
  const setBlacklisted = (account: Address, value: boolean) =>
    mined(
      deployer.writeContract({
        address: blacklist,
        abi: blacklistTokenAbi,
        functionName: "setBlacklisted",
        args: [account, value],
      }),
    );

  beforeAll(async () => {
    const hash = await deployer.deployContract({
      abi: blacklistTokenAbi,
      bytecode: blacklistTokenBytecode,
      args: [deployer.account.address],
    });
    blacklist = getAddress((await chainClient.waitForTransactionReceipt({ hash })).contractAddress ?? "");
    // Listed by the relay's validation contract, so a fill reaches the transfers.
    await mined(
      deployer.writeContract({
        address: primaryEvmChain(localConfig).validation as Address,
        abi: validationAbi,
        functionName: "setTokenAllowed",
        args: [blacklist, true],
      }),
    );
  });

  /** A party holding TBL, with Permit2 (for a taker) and the executor (for a resolver) approved for it. */
  async function holder<A extends LocalAccount>(account: A): Promise<A> {
    await mined(
      deployer.writeContract({
        address: blacklist,
        abi: blacklistTokenAbi,
        functionName: "mint",
        args: [account.address, 10n ** 24n],
      }),
    );
    await approve(account, blacklist, EVM.permit2, maxUint256);
    await approve(account, blacklist, EVM.executor, maxUint256);
    return account;
  }

  it("refusing the resolver fails the resolver's leg: resolver:transfer_failed, struck", async () => {
    const taker = await newTaker();
    const resolver = await holder(await registeredResolver());
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver, buyToken: blacklist });
    await setBlacklisted(resolver.address, true);
    const res = await submit({ quoteId, signature: await signQuote(taker, typedData) });
    expect(res.body).toMatchObject({ status: "requote", reason: "resolver:transfer_failed" });
    expect(await getExecution(String(res.body.executionId))).toMatchObject({ blame: "resolver" });
    expect((await standing(resolver)).demotions).toBe(1);
  });

  it("refusing the taker fails the taker's leg: taker:transfer_failed, nobody struck", async () => {
    const taker = await holder(await newTaker());
    const resolver = await registeredResolver();
    const { quoteId, typedData } = await seedQuote({ taker: taker.address, resolver, sellToken: blacklist });
    await setBlacklisted(taker.address, true);
    const res = await submit({ quoteId, signature: await signQuote(taker, typedData) });
    expect(res.body).toMatchObject({ status: "requote", reason: "taker:transfer_failed" });
    expect(await getExecution(String(res.body.executionId))).toMatchObject({ blame: "taker" });
    expect((await getQuote(quoteId)).status).toBe("signed");
    expect(await standing(resolver)).toEqual({ demotions: 0, demotedUntil: null });
  });
});
