import type { RelayConfig } from "../config";
import { log } from "../log";
import type { Band } from "../schemas";
import { oracleCorridor } from "./band-corridors";

/** Subscriptions to the oracle's band pushes lapse after two minutes; renewed while nodes heartbeat. */
const RENEW_MS = 60_000;
const BAND_KEY = "band";

export interface BandSubscriptionHost {
  config: RelayConfig;
  corridorKey: string;
  /** The corridor object's storage, where the last band survives eviction. */
  kv: SyncKvStorage;
  /** Subscribes at the oracle (`OracleDO.subscribe`); its answer is the current band, if any. */
  subscribe(corridorKey: string): Promise<Band | null>;
  waitUntil(p: Promise<unknown>): void;
}

/**
 * A corridor's band (docs/oracle.md): while the corridor has active nodes the oracle keeps computing it
 * and pushes each update (`publish`); the subscription lapses on its own once nodes stop heartbeating.
 */
export class BandSubscription {
  private band: Band | null;
  private subscribedAt = 0;

  constructor(private readonly host: BandSubscriptionHost) {
    this.band = host.kv.get<Band>(BAND_KEY) ?? null;
  }

  current(): Band | null {
    return this.band;
  }

  /** A band pushed by the oracle, kept in storage. */
  publish(band: Band): void {
    this.band = band;
    this.host.kv.put(BAND_KEY, band);
  }

  /** A node is active at `now`: renews the subscription once a minute, outside the caller's path. */
  renew(now: number): void {
    const { host } = this;
    if (now - this.subscribedAt < RENEW_MS) return;
    if (!oracleCorridor(host.config, host.corridorKey)) return;
    this.subscribedAt = now;
    host.waitUntil(
      host
        .subscribe(host.corridorKey)
        .then((band) => {
          if (band && (!this.band || band.at >= this.band.at)) this.publish(band);
        })
        .catch((e: unknown) => {
          this.subscribedAt = 0;
          log.error("oracle_subscribe_failed", { corridor: host.corridorKey, error: String(e) });
        }),
    );
  }
}
