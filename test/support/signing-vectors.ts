import vectorsJson from "../../docs/signing-vectors.json";
import type { ProvedKeys, RfqTerms } from "../../src/chains/adapter";
import { recoverMessageSigner } from "../../src/chains/evm/messages";
import { localConfig } from "../../src/config/local";
import { primaryEvmChain } from "../../src/config/record";
import type { EvmChain } from "../../src/config/schema";

/**
 * The test vectors of docs/resolver-protocol.md ("Test vectors", docs/signing-vectors.json) and the relay
 * inputs they stand for: the chain, an rfq's terms and the node's proved keys.
 */
// biome-ignore lint/suspicious/noExplicitAny: the vectors are a JSON document read as it is written.
export const vectors: any = vectorsJson;
const v = vectors;

/** The local EVM chain with the vectors' chain id and contracts. */
export const vectorEvmChain = (): EvmChain => ({
  ...primaryEvmChain(localConfig),
  chainId: v.rfqFill.chainId,
  executor: v.rfqFill.executor,
  reactor: v.limitFill.reactor,
});

/** The rfq's terms as the auction holds them; only what the signed structures take matters here. */
export function vectorTerms(
  over: Partial<RfqTerms> & Pick<RfqTerms, "chain" | "corridor" | "rfqId" | "quoteId" | "deadline">,
): RfqTerms {
  return {
    taker: v.rfqFill.taker,
    recipient: v.rfqFill.taker,
    sellToken: v.rfqFill.sellToken,
    buyToken: v.rfqFill.buyToken,
    sellAmount: BigInt(v.rfqFill.sellAmount),
    gasFeeToken: v.rfqFill.buyToken,
    fee: { token: v.rfqFill.buyToken, bps: 10, side: "buy" as const },
    ...over,
  };
}

/** The vectors' node keys as the relay proves them at auth. */
export async function vectorEvmKeys(): Promise<ProvedKeys> {
  const signer = await recoverMessageSigner(v.auth.text, v.auth.signature);
  if (!signer) throw new Error("the auth vector recovers no key");
  return { address: signer.address, publicKey: signer.publicKey, ed25519Key: v.keys.ed25519.publicKey };
}
