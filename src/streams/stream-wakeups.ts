import type { QuoteChange } from "./announce";
import type { CorridorStreams } from "./corridor-streams";
import { limitOrderTopic, quoteTopic, type StreamAsk } from "./subjects";

/**
 * A corridor's streams as its object serves them: whatever opens or moves a stream makes sure the alarm's
 * `streams` job (`CorridorStreams.tick`: keep-alives, closes, rereads) runs by when it is due next
 * (`tickBy`); none is due while no stream is open (docs/architecture.md, "Alarms").
 */
export class StreamWakeups {
  constructor(
    private readonly streams: CorridorStreams,
    private readonly tickBy: (at: number) => Promise<void>,
  ) {}

  /** A taker's stream request, routed here by the Worker. */
  async open(ask: StreamAsk): Promise<Response> {
    const { response, nextAt } = await this.streams.open(ask);
    await this.wakeBy(nextAt);
    return response;
  }

  /** Quotes that moved, in order: their open streams get what is new. */
  async quotesChanged(changes: readonly QuoteChange[]): Promise<void> {
    await this.wakeBy(await this.streams.changed(...changes.map((c) => quoteTopic(c.quoteId))));
  }

  async limitOrderChanged(limitOrderId: string): Promise<void> {
    await this.wakeBy(await this.streams.changed(limitOrderTopic(limitOrderId)));
  }

  private async wakeBy(at: number | null): Promise<void> {
    if (at !== null) await this.tickBy(at);
  }
}
