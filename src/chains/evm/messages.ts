import { getAddress, type Hex, hashMessage, isAddress } from "viem";
import { log } from "../../log";
import { ChainUnavailableError } from "../settler";
import { type Fetcher, rpcBatch } from "./call-batch";
import { recoverStrict, signedBy } from "./strict-signature";
import { walletSignatureRequests, walletVerdict } from "./wallet-signature";

/**
 * Whether `signature` is an EIP-191 signature of `text` by `address` (a taker's cancel or taker proof):
 * its key's under the strict rule every EVM signature the relay verifies meets
 * (src/chains/evm/strict-signature.ts), with no RPC; else, when the address has code (a smart wallet, an
 * EIP-7702 delegation), what its `isValidSignature` (ERC-1271) says, both read in one batch
 * (docs/api.md, "Signatures"). No contract checks these on chain: the key of a delegated EOA still speaks
 * for its account. A chain that does not answer leaves the signature unproven.
 */
export async function verifyPersonalMessage(
  chain: { rpcUrl: string; fetcher?: Fetcher },
  address: string,
  text: string,
  signature: string,
): Promise<boolean> {
  const hash = hashMessage(text);
  if (signedBy(hash, signature, address)) return true;
  if (!isAddress(address)) return false;
  const signed = { signer: getAddress(address), hash, signature };
  try {
    const requests = walletSignatureRequests(signed);
    return walletVerdict(await rpcBatch(chain.rpcUrl, "asking the signer's code", requests, chain.fetcher), signed).ok;
  } catch (e) {
    if (!(e instanceof ChainUnavailableError)) throw e;
    log.warn("signer_code_unread", { component: "signatures", signer: signed.signer, error: e.message });
    return false;
  }
}

/**
 * The signer of an EIP-191 signature over `text`, with its public key: a node's bids are later verified
 * against that key (src/chains/evm/ecdsa.ts). Null when the signature breaks the strict rule or recovers
 * no key.
 */
export async function recoverMessageSigner(
  text: string,
  signature: string,
): Promise<{ address: string; publicKey: Hex } | null> {
  return recoverStrict(hashMessage(text), signature);
}
