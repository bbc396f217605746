import { MAX_LADDER_RUNGS, MAX_LEVELS_TTL_MS } from "../../protocol/frame-limits";
import type { LevelsFrame } from "../../protocol/node-frames";
import type { Band } from "../../schemas/quote";
import { asError, type Emit } from "./events";
import { availableInventory, type Pricer, sameToken, type TokenInfo } from "./pricing";
import type { ChainInfo, CorridorTarget } from "./relay-config";

/** How often a node sends its ladders: well inside their life, so a missed send does not let them lapse. */
export const LEVELS_EVERY_MS = 3_000;

/** The 1-2-5 steps of each decade a ladder's rungs sit on. */
const STEPS = [1n, 2n, 5n];

/**
 * The sell amounts of a ladder: 1, 2 and 5 whole tokens and their multiples by ten, up to
 * MAX_LADDER_RUNGS rungs (six decades: from one token to five hundred thousand).
 */
export function ladderAmounts(sellDecimals: number, rungs = 18): bigint[] {
  const one = 10n ** BigInt(sellDecimals);
  const amounts: bigint[] = [];
  for (let decade = 1n; amounts.length < Math.min(rungs, MAX_LADDER_RUNGS); decade *= 10n) {
    for (const step of STEPS) if (amounts.length < Math.min(rungs, MAX_LADDER_RUNGS)) amounts.push(one * step * decade);
  }
  return amounts;
}

/**
 * The least output a rung may pay, in base units: rounding down then costs it at most 1 bps of its rate,
 * so cutting the larger rungs to its rate (below) costs them no more than that.
 */
export const MIN_RUNG_OUTPUT = 10_000n;

/**
 * A ladder from the node's pricing (docs/reference-resolver.md, "Price ladders"): what it would bid for
 * each amount, rungs it declines, cannot deliver or that pay under MIN_RUNG_OUTPUT left out. Rounding
 * down costs a small amount more of its rate than a large one, so each rung is cut to the rate of the
 * rung before it where it would be better (the relay refuses a ladder whose rate gets better for more):
 * no rung promises more than the pricer.
 */
export async function priceLadder(args: {
  pricer: Pricer;
  chainId: number;
  sellToken: TokenInfo;
  buyToken: TokenInfo;
  band: Band | null;
  /** What the node can deliver of the buy token. */
  available: bigint;
  ttlMs?: number;
}): Promise<LevelsFrame | null> {
  const { pricer, chainId, sellToken, buyToken, band, available } = args;
  const levels: { sellAmount: string; outputAmount: string }[] = [];
  let prev: { sell: bigint; out: bigint } | null = null;
  for (const sell of ladderAmounts(sellToken.decimals)) {
    const decision = await pricer({ chainId, sellToken, buyToken, sellAmount: sell, band });
    if ("decline" in decision || decision.outputAmount < MIN_RUNG_OUTPUT) continue;
    let out = decision.outputAmount;
    if (prev && out * prev.sell > prev.out * sell) out = (prev.out * sell) / prev.sell;
    if (out > available) break;
    levels.push({ sellAmount: sell.toString(), outputAmount: out.toString() });
    prev = { sell, out };
  }
  if (levels.length === 0) return null;
  const { address: sold } = sellToken;
  return {
    type: "levels",
    chainId,
    sellToken: sold,
    buyToken: buyToken.address,
    levels,
    ttlMs: args.ttlMs ?? MAX_LEVELS_TTL_MS,
  };
}

export interface LaddersOptions {
  corridor: string;
  chain: ChainInfo;
  target: CorridorTarget;
  pricer: Pricer;
  everyMs: number;
  /** How long each ladder lives at the relay; 10 s unless given. */
  ttlMs?: number;
  band(): Band | null;
  inventory(): Parameters<typeof availableInventory>[0];
  send(frame: LevelsFrame): boolean;
  emit: Emit;
}

/**
 * One corridor's ladders, both directions, sent once the node is welcomed and then every `everyMs`
 * (docs/reference-resolver.md, "Price ladders"), until the socket closes.
 */
export class Ladders {
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly options: LaddersOptions) {}

  start(): void {
    this.stop();
    void this.send();
    this.timer = setInterval(() => void this.send(), this.options.everyMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async send(): Promise<void> {
    const { chain, target, pricer, corridor, emit } = this.options;
    const a = chain.tokens.find((t) => sameToken(t.address, target.tokenA));
    const b = chain.tokens.find((t) => sameToken(t.address, target.tokenB));
    if (!a || !b) return;
    for (const [sellToken, buyToken] of [
      [a, b],
      [b, a],
    ] as const) {
      try {
        const available = availableInventory(this.options.inventory(), chain.chainId, buyToken.address);
        const frame = await priceLadder({
          pricer,
          chainId: chain.chainId,
          sellToken,
          buyToken,
          band: this.options.band(),
          available,
          ...(this.options.ttlMs === undefined ? {} : { ttlMs: this.options.ttlMs }),
        });
        if (frame) this.options.send(frame);
      } catch (e) {
        emit("error", { corridor, error: asError(e) });
      }
    }
  }
}
