import type { Fetcher } from "../../src/chains/evm/call-batch";

/**
 * A JSON-RPC endpoint in memory for the EVM signature checks that ask a signer's code
 * (src/chains/evm/wallet-signature.ts): `code` at every address, and `isValidSignature` answering
 * `answer` (return data). Counts the batches it is sent.
 */
export function codeChain(code: string = "0x", answer: string = "0x") {
  const chain = { rpcUrl: "http://chain.test", batches: 0, fetcher: (async () => new Response()) as Fetcher };
  chain.fetcher = async (_url, init) => {
    chain.batches++;
    const requests = JSON.parse(String(init.body)) as { id: number; method: string }[];
    return Response.json(
      requests.map(({ id, method }) => ({ jsonrpc: "2.0", id, result: method === "eth_getCode" ? code : answer })),
    );
  };
  return chain;
}
