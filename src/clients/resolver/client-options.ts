import type { InventoryEntry, NodeState } from "../../protocol/node-frames";
import type { Band } from "../../schemas/quote";
import type { Latency } from "./bidder";
import type { NodeIdentity } from "./frame-codec";
import type { InventorySource } from "./inventory";
import type { Pricer } from "./pricing";
import type { Backoff, ReconnectTimer } from "./reconnect";
import type { ChainInfo, CorridorTarget } from "./relay-config";
import type { SocketFactory } from "./socket";

/** What `ResolverClient` is built from (docs/reference-resolver.md, "As a library"). */
export interface ResolverClientOptions extends NodeIdentity {
  /** http(s) or ws(s) base URL of the relay. */
  relayUrl: string;
  /** The relay's chains (`chainsFromRecord`): token decimals, symbols and executors. */
  chains: readonly ChainInfo[];
  corridors: readonly CorridorTarget[];
  pricer: Pricer;
  inventory: InventorySource;
  /** Artificial delay before each reply, for tests and benchmarks. */
  latencyMs?: Latency;
  /** Share of rfqs declined outright (`random_decline`), 0 to 1. */
  declineRate?: number;
  /** State of the first heartbeat. */
  state?: NodeState;
  heartbeatEveryMs?: number;
  /**
   * Price ladders streamed on every corridor (docs/reference-resolver.md, "Price ladders"): priced by
   * `pricer` (the bids' pricer unless given), sent every `everyMs` (3 s), each living `ttlMs` (10 s);
   * `false` streams none.
   */
  levels?: { pricer?: Pricer; everyMs?: number; ttlMs?: number } | false;
  backoff?: Backoff;
  /** Drives jitter, latency ranges and the decline rate; injectable so tests are deterministic. */
  random?: () => number;
  socket?: SocketFactory;
  /** How reconnects wait: the platform's timers unless a test gives its fake clock. */
  timer?: ReconnectTimer;
}

export interface ResolverCorridorStatus {
  corridor: string;
  target: CorridorTarget;
  connected: boolean;
  authenticated: boolean;
  band: Band | null;
  inventory: InventoryEntry[];
}
