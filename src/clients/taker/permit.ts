import {
  type Address,
  type LocalAccount,
  maxUint256,
  type PublicClient,
  parseAbi,
  parseSignature,
  type TypedDataDomain,
} from "viem";
import { ERC2612_PERMIT_TYPES } from "../../chains/evm/typed-data";
import type { Erc2612Permit } from "./api";

/**
 * Getting the sell token to Permit2. Permit2 pulls the taker's tokens, so it needs the token's
 * allowance: either an `approve` once per token (a transaction the taker pays for), or an EIP-2612
 * permit signed off chain and sent with the submission (`permit`), which the executor applies in the
 * same transaction as the fill, so a taker who never approved settles in one submission without gas.
 */

const erc20 = parseAbi([
  "function allowance(address owner, address spender) view returns (uint256)",
  "function nonces(address owner) view returns (uint256)",
  "function name() view returns (string)",
  "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
]);

/** What Permit2 may pull of `token` from `owner` now. */
export function permit2Allowance(
  client: PublicClient,
  args: { token: Address; owner: Address; permit2: Address },
): Promise<bigint> {
  return client.readContract({
    address: args.token,
    abi: erc20,
    functionName: "allowance",
    args: [args.owner, args.permit2],
  });
}

/**
 * The token's EIP-712 domain: from its EIP-5267 `eip712Domain()` when it has one, else OpenZeppelin's
 * usual `{name, version: "1", chainId, verifyingContract}`.
 */
async function tokenDomain(client: PublicClient, token: Address): Promise<TypedDataDomain> {
  try {
    const [, name, version, chainId, verifyingContract] = await client.readContract({
      address: token,
      abi: erc20,
      functionName: "eip712Domain",
    });
    return { name, version, chainId: Number(chainId), verifyingContract };
  } catch {
    const name = await client.readContract({ address: token, abi: erc20, functionName: "name" });
    return { name, version: "1", chainId: await client.getChainId(), verifyingContract: token };
  }
}

/**
 * An EIP-2612 permit by `account` for Permit2 to spend `token`: by default the whole balance for good
 * (`maxUint256`), as an `approve` once per token would, so later swaps need no permit.
 */
export async function signPermit2Approval(
  client: PublicClient,
  args: {
    account: LocalAccount;
    token: Address;
    permit2: Address;
    /** Unix seconds. */
    deadline: bigint;
    value?: bigint;
  },
): Promise<Erc2612Permit> {
  const value = args.value ?? maxUint256;
  const [domain, nonce] = await Promise.all([
    tokenDomain(client, args.token),
    client.readContract({ address: args.token, abi: erc20, functionName: "nonces", args: [args.account.address] }),
  ]);
  const signature = await args.account.signTypedData({
    domain,
    types: ERC2612_PERMIT_TYPES,
    primaryType: "Permit",
    message: { owner: args.account.address, spender: args.permit2, value, nonce, deadline: args.deadline },
  });
  const { r, s, yParity } = parseSignature(signature);
  return { value: value.toString(), deadline: args.deadline.toString(), v: yParity + 27, r, s };
}
