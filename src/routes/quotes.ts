import { createRoute, type z } from "@hono/zod-openapi";
import type { QuoteAnswer } from "../auction";
import type { ChainAdapter } from "../chains";
import { adapterFor } from "../chains";
import { primaryEvmChain, recordsDatabases, recordsDb } from "../config";
import { cancelQuote, quoteStatus, readQuoteRecord } from "../db";
import { notFound, RelayError } from "../errors";
import { API_KEY_SECURITY, behindAnswer, createRouter, objectRead, requestClient, serverTiming } from "../http";
import { CORRIDOR_UNREACHABLE, callObject, corridorStub } from "../objects";
import {
  cancelQuoteMessage,
  checkSwapTerms,
  quoteAsOfNow,
  quotePage,
  quoteThrough,
  readThrough,
  slippageOf,
  TAKER_PROOF_MAX_AGE_SECONDS,
  type TakerProofSeen,
  takerProofMessage,
  verifySignedCancel,
} from "../quotes";
import {
  CancelQuoteRequest,
  errorResponses,
  IdParam,
  jsonContent,
  Quote,
  QuoteListQuery,
  QuotePage,
  QuoteRequest,
  TakerSigning,
} from "../schemas";
import { isOpen } from "../states";
import { announceCancelled } from "../streams";
import type { QuoteInput } from "../types";

export const quoteRoutes = createRouter()
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/quotes",
      operationId: "requestQuote",
      security: API_KEY_SECURITY,
      tags: ["quotes"],
      summary: "Ask for a quote: runs an RFQ auction among the corridor's resolvers",
      request: { body: { required: true, content: { "application/json": { schema: QuoteRequest } } } },
      responses: {
        200: jsonContent(Quote.extend(TakerSigning.shape), "The quote, and what the taker signs"),
        ...errorResponses(400, 401, 404, 429, 503),
      },
    }),
    async (c) => {
      const requestedAt = Date.now();
      const body = c.req.valid("json");
      const config = c.get("config");
      const chainId = body.chainId ?? primaryEvmChain(config).chainId;
      const chainConfig = config.chains.find((ch) => ch.chainId === chainId);
      if (!chainConfig) throw new RelayError(400, "unsupported_pair", `The relay does not serve chain ${chainId}.`);
      const chain = adapterFor(chainConfig);
      const corridor = checkSwapTerms(config, chainId, chain, body);
      const slippageBps = slippageOf(config, body.slippageBps);
      const proof = config.requireTakerProof ? await checkTakerProof(chain, body) : undefined;
      const input: QuoteInput = {
        chainId,
        // Answered in the chain's own spelling (EIP-55 on EVM), whatever casing was asked in.
        sellToken: chain.canonical(body.sellToken),
        buyToken: chain.canonical(body.buyToken),
        sellAmount: body.sellAmount,
        taker: chain.canonical(body.taker),
        recipient: chain.canonical(body.recipient ?? body.taker),
        slippageBps,
        requestedAt,
        requestId: c.get("requestId"),
      };
      const ask = { ...(await requestClient(c)), proof };
      // One call: the corridor counts the client's and the taker's limits, runs the auction and answers.
      const outcome = await callObject<QuoteAnswer>(
        async () => await corridorStub(c.env, corridor.key).quote(input, ask),
        CORRIDOR_UNREACHABLE,
      );
      if ("log" in outcome) c.set("logFields", outcome.log);
      if (outcome.kind === "refused") throw RelayError.from(outcome);
      const { auctionMs, rankingMs, storageMs } = outcome.timings;
      c.header(
        "Server-Timing",
        serverTiming({ auction: auctionMs, ranking: rankingMs, storage: storageMs, total: Date.now() - requestedAt }),
      );
      // The corridor serialized the quote record once (its type is the route's); it goes out as it came.
      return c.body(outcome.body, 200, { "content-type": "application/json" }) as never;
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/quotes",
      operationId: "listQuotes",
      tags: ["quotes"],
      summary: "A taker's quotes, the quotes a resolver won, or every quote: newest first, a page at a time",
      request: { query: QuoteListQuery },
      responses: { 200: jsonContent(QuotePage, "A page of quotes"), ...errorResponses(400) },
    }),
    async (c) =>
      c.json(await quotePage(recordsDatabases(c.env, c.get("config")).all, c.get("config"), c.req.valid("query")), 200),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/v1/quotes/{id}",
      operationId: "getQuote",
      tags: ["quotes"],
      summary: "One quote's full lifecycle (record 2.2)",
      request: { params: IdParam },
      responses: { 200: jsonContent(Quote, "The quote record"), ...errorResponses(404, 429, 503) },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const quote = await quoteThrough(c.env, c.get("config"), id, objectRead(c));
      if (!quote) throw notFound(`No quote has the id ${JSON.stringify(id)}.`);
      return c.json(quote, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/v1/quotes/{id}/cancel",
      operationId: "cancelQuote",
      tags: ["quotes"],
      summary: "Cancel an open quote with the taker's signature over relay-cancel-quote|<chainId>|<quoteId>",
      request: {
        params: IdParam,
        body: { required: true, content: { "application/json": { schema: CancelQuoteRequest } } },
      },
      responses: { 200: jsonContent(Quote, "The cancelled quote"), ...errorResponses(400, 404, 409, 429) },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const { signature } = c.req.valid("json");
      const current = await readThrough(c.env, c.get("config"), id, (db) => quoteStatus(db, id), objectRead(c));
      if (!current) throw notFound(`No quote has the id ${JSON.stringify(id)}.`);
      await verifySignedCancel(c.get("config"), {
        chainId: current.chainId,
        taker: current.taker,
        message: cancelQuoteMessage(current.chainId, id),
        signature,
      });
      const db = recordsDb(c.env, c.get("config"), id);
      if (!(await cancelQuote(db, id, new Date().toISOString()))) {
        const quote = await quoteAsOfNow(db, id);
        const status = quote?.status ?? "expired";
        // Open but claimed: the keeper is sending a fill of it, so nothing can promise it will not move.
        const message = isOpen(status) ? "A fill of this quote is on its way." : `The quote is ${status}.`;
        throw new RelayError(409, "quote_not_open", message, { status });
      }
      await behindAnswer(c, announceCancelled(c.env, c.get("config"), id));
      return c.json((await readQuoteRecord(db, id)) as z.infer<typeof Quote>, 200);
    },
  );

/**
 * The taker proof by what it proves once it verifies (its signer, its signature spelled as the chain
 * spells it once, its timestamp): the corridor accepts it once (docs/api.md, "Taker proof").
 */
async function checkTakerProof(chain: ChainAdapter, body: z.infer<typeof QuoteRequest>): Promise<TakerProofSeen> {
  const proof = body.takerProof;
  if (!proof) throw new RelayError(400, "bad_taker_proof", "This relay needs a taker proof with each quote request.");
  if (Math.abs(Date.now() / 1000 - proof.timestamp) > TAKER_PROOF_MAX_AGE_SECONDS) {
    throw new RelayError(400, "bad_taker_proof", "The taker proof is more than 60 seconds old.");
  }
  const text = takerProofMessage({
    chainId: chain.chain.chainId,
    ...body,
    recipient: body.recipient ?? body.taker,
    timestamp: proof.timestamp,
  });
  if (!(await chain.verifyMessage(body.taker, text, proof.signature))) {
    throw new RelayError(400, "bad_taker_proof", "The taker proof is not the taker's signature.");
  }
  return {
    signer: chain.normalise(body.taker),
    signature: chain.signatureKey(proof.signature),
    timestamp: proof.timestamp,
  };
}
