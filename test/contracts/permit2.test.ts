import { type Address, domainSeparator, type LocalAccount, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAccount, fund } from "../../scripts/lib/evm-deploy";
import { permit2Abi } from "../../src/chains/evm/abi/permit2";
import { permit2Domain, quoteNonce } from "../../src/chains/evm/typed-data";
import {
  approvePermit2,
  balanceOf,
  type Chain,
  latestTimestamp,
  newQuoteId,
  revertAfterEach,
  revertName,
  startChain,
} from "./chain";

const owner = anvilAccount(1);
const spender = anvilAccount(4);
const other = anvilAccount(6);
const to = anvilAccount(5).address;

let chain: Chain;

beforeAll(async () => {
  chain = await startChain();
  await fund(chain.rpcUrl, chain.deployment, { takers: [owner.address], amount: parseUnits("1000", 6) });
  await approvePermit2(chain, owner, chain.deployment.usdc);
});

afterAll(() => chain?.stop());

revertAfterEach(() => chain);

const PERMIT_TRANSFER_FROM_TYPES = {
  PermitTransferFrom: [
    { name: "permitted", type: "TokenPermissions" },
    { name: "spender", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
  TokenPermissions: [
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
  ],
} as const;

/** A plain (witness-less) Permit2 transfer permit for `amount` USDC, signed by the owner for `signedFor`. */
async function signedPermit(amount: bigint, signedFor: Address, deadline?: bigint) {
  const permit = {
    permitted: { token: chain.deployment.usdc, amount },
    nonce: quoteNonce(newQuoteId()),
    deadline: deadline ?? (await latestTimestamp(chain)) + 300n,
  };
  const signature = await owner.signTypedData({
    domain: permit2Domain(chain.chainId, chain.deployment.permit2),
    types: PERMIT_TRANSFER_FROM_TYPES,
    primaryType: "PermitTransferFrom",
    message: { ...permit, spender: signedFor },
  });
  return { permit, signature };
}

function transfer(signed: Awaited<ReturnType<typeof signedPermit>>, requestedAmount: bigint, by: LocalAccount) {
  return chain.publicClient.simulateContract({
    account: by,
    address: chain.deployment.permit2,
    abi: permit2Abi,
    functionName: "permitTransferFrom",
    args: [signed.permit, { to, requestedAmount }, owner.address, signed.signature],
  });
}

describe("Permit2", () => {
  it("uses the EIP-712 domain wallets expect of Permit2: a name, no version", async () => {
    const onChain = await chain.publicClient.readContract({
      address: chain.deployment.permit2,
      abi: permit2Abi,
      functionName: "DOMAIN_SEPARATOR",
    });
    expect(onChain).toBe(domainSeparator({ domain: permit2Domain(chain.chainId, chain.deployment.permit2) }));
  });

  it("moves up to the permitted amount for the named spender, once", async () => {
    const signed = await signedPermit(parseUnits("10", 6), spender.address);
    const before = await balanceOf(chain, chain.deployment.usdc, to);
    const { request } = await transfer(signed, parseUnits("7", 6), spender);
    const hash = await chain.wallet(spender).writeContract(request);
    expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");

    expect((await balanceOf(chain, chain.deployment.usdc, to)) - before).toBe(parseUnits("7", 6));
    const word = await chain.publicClient.readContract({
      address: chain.deployment.permit2,
      abi: permit2Abi,
      functionName: "nonceBitmap",
      args: [owner.address, signed.permit.nonce >> 8n],
    });
    expect(word).toBe(1n << (signed.permit.nonce & 0xffn));
    expect(await revertName(transfer(signed, 1n, spender))).toBe("InvalidNonce");
  });

  it("refuses more than the permitted amount", async () => {
    const signed = await signedPermit(parseUnits("10", 6), spender.address);
    expect(await revertName(transfer(signed, parseUnits("10", 6) + 1n, spender))).toBe("InvalidAmount");
  });

  it("refuses a spender other than the one signed for", async () => {
    const signed = await signedPermit(parseUnits("10", 6), spender.address);
    expect(await revertName(transfer(signed, 1n, other))).toBe("InvalidSigner");
  });

  it("refuses a permit past its deadline", async () => {
    const signed = await signedPermit(parseUnits("10", 6), spender.address, (await latestTimestamp(chain)) + 10n);
    await chain.testClient.increaseTime({ seconds: 60 });
    await chain.testClient.mine({ blocks: 1 });
    expect(await revertName(transfer(signed, 1n, spender))).toBe("SignatureExpired");
  });
});
