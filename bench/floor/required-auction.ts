import { DurableObject } from "cloudflare:workers";
import type { ProvedKeys, RfqTerms, SignedBid } from "../../src/chains/adapter";
import { evmAdapter } from "../../src/chains/evm/adapter";
import { vectorEvmChain, vectorTerms } from "../../test/support/signing-vectors";
import type { FloorQuote, RequiredBid, RequiredRfq } from "./protocol";

/** As long as the relay's auction window (src/config/local.ts, `rfqWindowMs`). */
const WINDOW_MS = 1_500;
/** An rfq's bids sign for this long, as the relay's quotes live (seconds). */
const DEADLINE_SECONDS = 60;

const chain = vectorEvmChain();
const adapter = evmAdapter(chain);

interface Round {
  sentAt: number;
  asked: number;
  terms: RfqTerms;
  bids: SignedBid[];
  offers: { latencyMs: number }[];
  finish: () => void;
}

/**
 * The required-work floor's corridor (bench/README.md, "The floor"): the bare floor's auction plus what
 * the spec requires of one, with the relay's own code for it. Each rfq carries the relay's EIP-712
 * commitment for its terms (`bidToSign`); the best bid's signature is checked before the answer
 * (`verifyBid`, falling to the next best if it fails) and every other bid's after it, together
 * (`verifyBids`), as the relay checks them (docs/resolver-protocol.md, "When signatures are checked").
 * A resolver's keys come with its connect request, as the relay has them from its auth.
 */
export class RequiredAuction extends DurableObject {
  private readonly rounds = new Map<string, Round>();
  private nextId = 0;

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const keys: ProvedKeys = {
      address: url.searchParams.get("address") ?? "",
      publicKey: url.searchParams.get("publicKey") ?? "",
      ed25519Key: null,
    };
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment(keys);
    return new Response(null, { status: 101, webSocket: client });
  }

  async quote(request: { taker?: string; sellAmount?: string }): Promise<FloorQuote> {
    const sockets = this.ctx.getWebSockets();
    const id = String(this.nextId++);
    const taker = request.taker ?? chain.executor;
    const terms = vectorTerms({
      chain,
      corridor: "floor",
      rfqId: id,
      quoteId: `q_${id.padStart(32, "0")}`,
      deadline: Math.floor(Date.now() / 1000) + DEADLINE_SECONDS,
      taker,
      recipient: taker,
      sellAmount: BigInt(request.sellAmount ?? "0"),
    });
    const toSign = adapter.bidToSign(terms) as unknown as RequiredRfq["toSign"];
    const frame = JSON.stringify({ type: "rfq", id, request, toSign } satisfies RequiredRfq);
    return new Promise((resolve) => {
      const round: Round = {
        sentAt: Date.now(),
        asked: sockets.length,
        terms,
        bids: [],
        offers: [],
        finish: () => {
          clearTimeout(timer);
          this.rounds.delete(id);
          const { best, rest } = checkedBest(terms, round.bids);
          resolve({ outputAmount: best?.outputAmount.toString() ?? null, offers: round.offers });
          // The others are checked behind the answer, as the relay checks its losers.
          if (rest.length > 0) setTimeout(() => adapter.verifyBids(terms, rest), 0);
        },
      };
      const timer = setTimeout(round.finish, WINDOW_MS);
      this.rounds.set(id, round);
      for (const ws of sockets) ws.send(frame);
      if (sockets.length === 0) round.finish();
    });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const bid = JSON.parse(String(message)) as RequiredBid;
    const round = this.rounds.get(bid.id);
    if (!round) return;
    const keys = ws.deserializeAttachment() as ProvedKeys;
    round.bids.push({ outputAmount: BigInt(bid.outputAmount), keys, signature: bid.signature });
    round.offers.push({ latencyMs: Date.now() - round.sentAt });
    if (round.offers.length === round.asked) round.finish();
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
  }
}

/** The best bid whose signature holds (checked alone, best first), and the bids not yet checked. */
function checkedBest(terms: RfqTerms, bids: readonly SignedBid[]): { best: SignedBid | null; rest: SignedBid[] } {
  const ranked = [...bids].sort((a, b) => (b.outputAmount > a.outputAmount ? 1 : -1));
  for (const [i, bid] of ranked.entries()) {
    if (adapter.verifyBid(terms, bid.outputAmount, bid.keys, bid.signature)) {
      return { best: bid, rest: ranked.slice(i + 1) };
    }
  }
  return { best: null, rest: [] };
}
