/**
 * Submissions to the required-work floor (bench/floor/required-keeper.ts, bench/README.md "The floor"):
 * real fills of the relay's own quotes. A quote is made and signed by its taker on the relay, as for a
 * submission to the relay; its winning bid, which the taker's answer does not carry, is the one the
 * relay's reference resolver sent for that quote (its `answer` event). The floor gets what the relay's
 * keeper reads of the quote's row (src/chains/settler.ts, `FillRequest`) and the taker's signature, and
 * fills it from a keeper wallet of its own, so the relay never sees the submission.
 */
import { getAddress } from "viem";
import { anvilPrivateKey } from "../scripts/lib/local-stack";
import type { FillRequest } from "../src/chains/settler";
import type { ResolverClient } from "../src/clients/resolver/client";
import type { SignedQuote } from "../src/clients/taker/swap";
import { localConfig } from "../src/config/local";
import { primaryEvmChain } from "../src/config/record";
import { clientHeaders } from "./clients";
import { pool } from "./execute-stack";
import type { RequiredKeeperEnv } from "./floor/required-keeper";

/** The required-work keeper's chain facts and key: the local chain's, and the pool's second wallet (allowed on the executor). */
export function requiredKeeperVars(): Omit<RequiredKeeperEnv, "RPC_URL"> {
  const chain = primaryEvmChain(localConfig);
  return {
    CHAIN_ID: String(chain.chainId),
    EXECUTOR: chain.executor,
    PERMIT2: chain.permit2,
    RFQ_GAS_UNITS: String(chain.gasFee.units.rfq),
    KEEPER_KEY: anvilPrivateKey(pool[1] as number),
  };
}

interface SentBid {
  outputAmount: string;
  signature: string;
}

/** The bids the relay's reference resolvers sent, by quote and resolver, until a quote's fill is built. */
export class SentBids {
  private readonly byQuote = new Map<string, Map<string, SentBid>>();

  constructor(resolvers: readonly ResolverClient[]) {
    for (const resolver of resolvers) {
      const address = getAddress(resolver.address);
      resolver.on("answer", ({ rfq, reply }) => {
        if (reply.type !== "bid") return;
        const bids = this.byQuote.get(rfq.quoteId) ?? new Map<string, SentBid>();
        bids.set(address, { outputAmount: String(reply.outputAmount), signature: reply.signature });
        this.byQuote.set(rfq.quoteId, bids);
      });
    }
  }

  /** What the relay's keeper would read of the signed quote's row: its terms, the winning bid, the taker's signature. */
  fillRequest(signed: SignedQuote): FillRequest {
    const quote = signed.quote;
    const resolver = quote.resolver?.address;
    const bid = resolver ? this.byQuote.get(quote.quoteId)?.get(getAddress(resolver)) : undefined;
    this.byQuote.delete(quote.quoteId);
    if (!resolver || !bid) throw new Error(`quote ${quote.quoteId}: its winning bid was not seen`);
    return {
      quoteId: quote.quoteId,
      taker: quote.taker,
      sellToken: quote.sellToken,
      buyToken: quote.buyToken,
      gasFeeToken: quote.gasFee.token,
      takerPays: quote.takerPays,
      signing: {
        typedData: { message: quote.typedData.message },
        resolver,
        outputAmount: bid.outputAmount,
        resolverSignature: bid.signature,
      },
      signature: signed.signature,
      permit: null,
    };
  }
}

/** A fill to the required-work floor as client `asClient` (bench/clients.ts); anything but 202 throws. */
export async function requiredSubmit(floorUrl: string, request: FillRequest, asClient: number): Promise<void> {
  const res = await fetch(`${floorUrl}/required/execute`, {
    method: "POST",
    headers: { "content-type": "application/json", ...clientHeaders(asClient) },
    body: JSON.stringify(request),
  });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`the required-work floor answered ${res.status} ${text.slice(0, 200)}`);
}
