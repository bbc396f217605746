import { DurableObject } from "cloudflare:workers";
import type { FloorBid, FloorQuote, FloorRfq } from "./protocol";

/** As long as the relay's auction window (src/config/local.ts, `rfqWindowMs`). */
const WINDOW_MS = 1_500;

interface Round {
  sentAt: number;
  asked: number;
  best: bigint | null;
  offers: { latencyMs: number }[];
  finish: () => void;
}

/**
 * The floor's corridor (bench/README.md, "The floor"): resolver sockets accepted for hibernation;
 * a quote sends one rfq frame, serialized once, to each of them and answers with the highest
 * `outputAmount` once every asked socket replied or the window passed. Nothing is checked or stored.
 */
export class FloorAuction extends DurableObject {
  private readonly rounds = new Map<string, Round>();
  private nextId = 0;

  /** A resolver's connect request: the socket is the object's, hibernatable. */
  override async fetch(): Promise<Response> {
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client });
  }

  async quote(request: unknown): Promise<FloorQuote> {
    const sockets = this.ctx.getWebSockets();
    const id = String(this.nextId++);
    const frame = JSON.stringify({ type: "rfq", id, request } satisfies FloorRfq);
    return new Promise((resolve) => {
      const round: Round = {
        sentAt: Date.now(),
        asked: sockets.length,
        best: null,
        offers: [],
        finish: () => {
          clearTimeout(timer);
          this.rounds.delete(id);
          resolve({ outputAmount: round.best?.toString() ?? null, offers: round.offers });
        },
      };
      const timer = setTimeout(round.finish, WINDOW_MS);
      this.rounds.set(id, round);
      for (const ws of sockets) ws.send(frame);
      if (sockets.length === 0) round.finish();
    });
  }

  override async webSocketMessage(_ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const bid = JSON.parse(String(message)) as FloorBid;
    const round = this.rounds.get(bid.id);
    if (!round) return;
    const amount = BigInt(bid.outputAmount);
    if (round.best === null || amount > round.best) round.best = amount;
    round.offers.push({ latencyMs: Date.now() - round.sentAt });
    if (round.offers.length === round.asked) round.finish();
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    // Complete the closing handshake, as the relay's corridor does (1005/1006 cannot be sent).
    ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
  }
}
