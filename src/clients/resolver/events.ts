import type { BidFrame, DeclineFrame, NodeFrame } from "../../protocol/node-frames";
import type { RelayFrame, RfqFrame, WelcomeFrame } from "../../protocol/relay-frames";

/** What the node answered an rfq. */
export type Reply = BidFrame | DeclineFrame;

/** Every event names its corridor by the canonical key the relay uses (`<chainId>:<tokenA>:<tokenB>`). */
export interface ResolverEvents {
  connecting: { corridor: string; url: string; attempt: number };
  open: { corridor: string };
  frame: { corridor: string; frame: RelayFrame };
  sent: { corridor: string; frame: NodeFrame };
  welcome: { corridor: string; frame: WelcomeFrame };
  answer: { corridor: string; rfq: RfqFrame; reply: Reply; elapsedMs: number };
  /** A Solana win: the node checked the swap the relay built against its bid and signed it. */
  signed: { corridor: string; rfq: RfqFrame; outputAmount: bigint; signature: string; elapsedMs: number };
  close: { corridor: string; code: number; reason: string };
  reconnect: { corridor: string; attempt: number; delayMs: number };
  error: { corridor: string; error: Error };
}

export type Emit = <K extends keyof ResolverEvents>(event: K, payload: ResolverEvents[K]) => void;

type Listeners = { [K in keyof ResolverEvents]: Set<(payload: ResolverEvents[K]) => void> };

/** The client's listeners. They run synchronously inside the socket's handlers and must not throw. */
export class ResolverEmitter {
  private readonly listeners: Listeners = {
    connecting: new Set(),
    open: new Set(),
    frame: new Set(),
    sent: new Set(),
    welcome: new Set(),
    answer: new Set(),
    signed: new Set(),
    close: new Set(),
    reconnect: new Set(),
    error: new Set(),
  };

  on<K extends keyof ResolverEvents>(event: K, listener: (payload: ResolverEvents[K]) => void): () => void {
    const set = this.listeners[event];
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  readonly emit: Emit = (event, payload) => {
    for (const listener of [...this.listeners[event]]) listener(payload);
  };

  /** The next relay frame of `type` (on `corridor`, if given); rejects after `timeoutMs`. */
  waitFor<T extends RelayFrame["type"]>(
    type: T,
    options: { corridor?: string; timeoutMs?: number } = {},
  ): Promise<Extract<RelayFrame, { type: T }>> {
    const timeoutMs = options.timeoutMs ?? 5_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`no ${type} frame within ${timeoutMs} ms`));
      }, timeoutMs);
      const off = this.on("frame", ({ corridor, frame }) => {
        if (!isFrameOf(frame, type) || (options.corridor !== undefined && corridor !== options.corridor)) return;
        clearTimeout(timer);
        off();
        resolve(frame);
      });
    });
  }
}

function isFrameOf<T extends RelayFrame["type"]>(
  frame: RelayFrame,
  type: T,
): frame is Extract<RelayFrame, { type: T }> {
  return frame.type === type;
}

/** What a listener of `error` gets for anything thrown. */
export function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
