import { DurableObject } from "cloudflare:workers";
import type { Env } from "../src/env";
import type { BandValue } from "../src/schemas/quote";

/** One per corridor: holds the resolver WebSockets of the corridor and runs its RFQ auctions. */
export class CorridorDO extends DurableObject<Env> {
  private band: BandValue | null = null;

  /** The oracle's latest band for this corridor; sent on to every authenticated node. */
  async publishBand(band: BandValue): Promise<void> {
    this.band = band;
  }
}
