import { errorJson, RelayError } from "../errors";
import { clientOfAddress } from "../limits";
import { advertisedCorridor } from "./connect-url";
import type { CorridorNodes } from "./corridor-nodes";

/**
 * A corridor's door for resolvers: a connect request (the URL's token order is what the node advertises)
 * becomes a socket within its opener's limits (docs/security.md, "Limits"), and the object's alarm is
 * armed for its auth deadline (`authBy`) before the socket is handed over.
 */
export class NodeDoor {
  constructor(
    private readonly nodes: CorridorNodes,
    private readonly authBy: (at: number) => Promise<void>,
    private readonly clock: { now(): number },
  ) {}

  /** The socket's client end (101), or a 400 for a URL that is not a corridor's, or the limit it is over. */
  async connect(request: Request): Promise<Response> {
    const advertised = advertisedCorridor(request.url);
    if (!advertised) return new Response("not a corridor connect URL", { status: 400 });
    const opener = clientOfAddress(request.headers.get("CF-Connecting-IP"));
    const accepted = this.nodes.accept(advertised, opener, this.clock.now());
    if ("kind" in accepted) return errorJson(RelayError.from(accepted));
    await this.authBy(accepted.authDeadline);
    return new Response(null, { status: 101, webSocket: accepted.client });
  }
}
