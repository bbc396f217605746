import { DurableObject } from "cloudflare:workers";
import { parseKeeperKey, settlerFor } from "../src/chains";
import type { ChainSettler } from "../src/chains/settler";
import { loadConfig } from "../src/config/load";
import type { ChainConfig } from "../src/config/schema";
import type { Env } from "../src/env";
import { Keeper, type SubmitRequest } from "../src/keeper/keeper";
import type { SubmitOutcome } from "../src/keeper/outcomes";
import { PendingStore } from "../src/keeper/pending";
import { corridorStub } from "../src/stubs";

/** The indexer's pace while transactions are followed. */
export const INDEX_EVERY_MS = 1_000;

/**
 * The keeper leader (`KEEPER`, singleton "leader"): one wallet, one nonce sequence per chain. Takes
 * submissions (`submit`) and follows their transactions from its alarm; the logic is in src/keeper/.
 * Its storage holds every transaction between signing and finality, so eviction loses nothing: on wake
 * it arms the alarm at once, and the alarm's pass recovers what was in flight.
 */
export class KeeperDO extends DurableObject<Env> {
  readonly keeper: Keeper;
  private readonly settlers = new Map<string, ChainSettler>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const store = new PendingStore(ctx.storage);
    this.keeper = new Keeper({
      config: () => loadConfig(this.env.RELAY_CONFIG),
      db: env.DB,
      store,
      settler: (chain) => this.settler(chain),
      armIndexer: () => this.armAlarm(Date.now() + INDEX_EVERY_MS),
      notify: (corridorKey, resolver, update) =>
        ctx.waitUntil(
          corridorStub(this.env, corridorKey)
            .notifyExecution(resolver, update)
            .catch((e: unknown) => console.error(JSON.stringify({ keeper: "notify_failed", error: String(e) }))),
        ),
      now: () => Date.now(),
    });
    ctx.blockConcurrencyWhile(async () => {
      if (store.count() > 0) await this.armAlarm(Date.now());
    });
  }

  /** A taker's signed quote, validated by the Worker: checked, simulated, broadcast (docs/settlement.md). */
  async submit(request: SubmitRequest): Promise<SubmitOutcome> {
    return this.keeper.submit(request);
  }

  /** The indexer: one pass, then again in a second while anything is followed. */
  override async alarm(): Promise<void> {
    const more = await this.keeper.index();
    if (more) await this.armAlarm(Date.now() + INDEX_EVERY_MS);
  }

  private settler(chain: ChainConfig): ChainSettler | "no_key" | "not_settled" {
    const key = parseKeeperKey(this.env.KEEPER_PRIVATE_KEY);
    if (!key) return "no_key";
    // One client per chain and endpoint; a changed configuration gets a new one.
    const cacheKey = `${chain.chainId}|${chain.kind === "evm" ? chain.rpcUrl : ""}|${key}`;
    let settler = this.settlers.get(cacheKey);
    if (!settler) {
      const made = settlerFor(chain, key);
      if (!made) return "not_settled";
      settler = made;
      this.settlers.set(cacheKey, settler);
    }
    return settler;
  }

  private async armAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}
