import { resolverKey } from "../ids";
import { type LevelsFrame, MAX_LEVELS_TTL_MS } from "../protocol";
import { checkLadder, type LevelsRefusal, outputAt, type Rung } from "./ladder";

/** Most `levels` frames a node may send a second for one direction (DESIGN §11). */
export const LEVELS_PER_SECOND = 4;

/** A node's fresh ladder for one direction. */
export interface HeldLadder {
  /** Lowercase address of the node. */
  node: string;
  rungs: Rung[];
  at: number;
  expiresAt: number;
}

export interface LadderBookOptions {
  chainId: number;
  /** The corridor's two tokens, as configured. */
  tokens: readonly [string, string];
  sameToken(a: string, b: string): boolean;
}

/**
 * A corridor's price ladders (docs/resolver-protocol.md, "Price ladders"), by node and direction, in
 * the object's memory only: a frame replaces the node's ladder for its direction, a ladder lapses after
 * its `ttlMs`, and a node may send at most LEVELS_PER_SECOND frames a second per direction.
 */
export class LadderBook {
  private readonly ladders = new Map<string, HeldLadder>();
  /** Frames counted per node and direction in the current one-second window. */
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly options: LadderBookOptions) {}

  /** Takes a node's `levels` frame: null when its ladder now stands, else why it was refused (nothing stored). */
  receive(address: string, frame: LevelsFrame, now: number): { code: LevelsRefusal; message: string } | null {
    const direction = this.direction(frame.sellToken, frame.buyToken);
    if (frame.chainId !== this.options.chainId || !direction) {
      return { code: "levels_wrong_corridor", message: "the ladder's chain and tokens are not this corridor's" };
    }
    const key = `${resolverKey(address)}|${direction}`;
    if (!this.allow(key, now)) {
      return { code: "levels_rate_limited", message: `at most ${LEVELS_PER_SECOND} ladders a second per direction` };
    }
    const checked = checkLadder(frame.levels);
    if (!checked.ok) return { code: checked.code, message: checked.message };
    const ttl = frame.ttlMs ?? MAX_LEVELS_TTL_MS;
    this.ladders.set(key, { node: resolverKey(address), rungs: checked.rungs, at: now, expiresAt: now + ttl });
    return null;
  }

  /** The fresh ladders selling `sellToken` for `buyToken` at `now`. */
  fresh(sellToken: string, buyToken: string, now: number): HeldLadder[] {
    const direction = this.direction(sellToken, buyToken);
    if (!direction) return [];
    const found: HeldLadder[] = [];
    for (const [key, ladder] of this.ladders) {
      if (ladder.expiresAt <= now) this.ladders.delete(key);
      else if (key.endsWith(`|${direction}`)) found.push(ladder);
    }
    return found;
  }

  /** What the node's fresh ladder pays for `sellAmount` of `sellToken`, or null when none covers it. */
  outputAt(address: string, sellToken: string, buyToken: string, sellAmount: bigint, now: number): bigint | null {
    const direction = this.direction(sellToken, buyToken);
    const ladder = direction ? this.ladders.get(`${resolverKey(address)}|${direction}`) : undefined;
    if (!ladder || ladder.expiresAt <= now) return null;
    return outputAt(ladder.rungs, sellAmount);
  }

  /** The node left the corridor: its ladders go with it. */
  forget(address: string): void {
    const node = `${resolverKey(address)}|`;
    for (const key of [...this.ladders.keys(), ...this.windows.keys()]) {
      if (key.startsWith(node)) {
        this.ladders.delete(key);
        this.windows.delete(key);
      }
    }
  }

  /** `0` when selling the corridor's first token, `1` when selling its second; null for another pair. */
  private direction(sellToken: string, buyToken: string): "0" | "1" | null {
    const [a, b] = this.options.tokens;
    const same = this.options.sameToken;
    if (same(sellToken, a) && same(buyToken, b)) return "0";
    if (same(sellToken, b) && same(buyToken, a)) return "1";
    return null;
  }

  private allow(key: string, now: number): boolean {
    const w = this.windows.get(key);
    if (!w || now - w.start >= 1000) {
      this.windows.set(key, { start: now, count: 1 });
      return true;
    }
    w.count++;
    return w.count <= LEVELS_PER_SECOND;
  }
}
