/** After its first miss in a row a node is asked again no sooner than this; each further miss doubles it. */
const FIRST_BACKOFF_MS = 1_000;
/** The longest a node that keeps missing waits to be asked again: its probe (docs/resolver-protocol.md). */
export const PROBE_EVERY_MS = 30_000;
/** The nodes a corridor remembers; the one asked longest ago is forgotten first. */
export const REMEMBERED_NODES = 4_096;

/** What a corridor remembers of one node's replies. */
interface NodeReplies {
  /** Whether it answered an rfq within its window with no miss since. */
  answering: boolean;
  /** Silences in a row: windows that ended without its reply, each counted once however many rfqs it had. */
  misses: number;
  /** When it was last asked (ms). */
  askedAt: number;
  /** When its last silence was counted (ms): rfqs sent before it are the same silence. */
  missedAt: number;
}

/**
 * Which of a corridor's nodes answer its rfqs (docs/reliability.md, "Silent nodes"), by lower-case
 * address, in the corridor object's memory: bounded at REMEMBERED_NODES, and forgotten when the node's
 * socket closes (a new socket is not waited for while others answer, and sockets are limited per client,
 * so starting afresh gains a silent node nothing). An auction waits only for the nodes that answer;
 * a node that misses is asked again after 1 s, 2 s, 4 s … at most PROBE_EVERY_MS, and waited for again
 * once it answers within a window.
 */
export class ReplyMemory {
  private readonly nodes = new Map<string, NodeReplies>();

  /** Whether `node` may be asked at `now`: always, unless it missed its last rfqs and its backoff runs. */
  askable(node: string, now: number): boolean {
    const known = this.nodes.get(node);
    return !known || known.misses === 0 || now >= known.missedAt + backoffMs(known.misses);
  }

  /** Whether an auction that asks `node` waits for its reply: it answered its last rfq within the window. */
  awaited(node: string): boolean {
    return this.nodes.get(node)?.answering ?? false;
  }

  /**
   * Which of an auction's asked `nodes` it waits for: those that answer; when none does, those not heard
   * from yet that never missed (a corridor that has just started knows nobody); else none, and the
   * auction waits for its probes until its window ends.
   */
  awaitedOf(nodes: readonly string[]): Set<string> {
    const answering = nodes.filter((n) => this.awaited(n));
    if (answering.length > 0) return new Set(answering);
    return new Set(
      nodes.filter((n) => (this.nodes.get(n)?.missedAt ?? Number.NEGATIVE_INFINITY) === Number.NEGATIVE_INFINITY),
    );
  }

  /** When `node` was last asked; never is -Infinity. */
  askedAt(node: string): number {
    return this.nodes.get(node)?.askedAt ?? Number.NEGATIVE_INFINITY;
  }

  /** `nodes` are asked at `now`. */
  asked(nodes: readonly string[], now: number): void {
    for (const node of nodes) {
      const known = this.nodes.get(node) ?? {
        answering: false,
        misses: 0,
        askedAt: now,
        missedAt: Number.NEGATIVE_INFINITY,
      };
      // Deleted first, so that it moves to the end: the first entry is the one asked longest ago.
      this.nodes.delete(node);
      this.nodes.set(node, { ...known, askedAt: now });
    }
    for (const node of this.nodes.keys()) {
      if (this.nodes.size <= REMEMBERED_NODES) break;
      this.nodes.delete(node);
    }
  }

  /** `node`'s socket closed: what it does next is a new session's. */
  forget(node: string): void {
    this.nodes.delete(node);
  }

  /** `node` replied within an rfq's window (a bid, a decline, even a rejected one): it answers. */
  answered(node: string): void {
    const known = this.nodes.get(node);
    if (known) this.nodes.set(node, { ...known, answering: true, misses: 0 });
  }

  /**
   * An rfq sent at `sentAt` ended its window at `now` without `node`'s reply. The rfqs sent to it before
   * its last silence was counted are that silence, so a node asked by many auctions at once that stalls
   * for one window misses once, and is asked again after 1 s.
   */
  missed(node: string, sentAt: number, now: number): void {
    const known = this.nodes.get(node);
    if (!known) return;
    if (sentAt < known.missedAt) {
      this.nodes.set(node, { ...known, answering: false });
      return;
    }
    this.nodes.set(node, { ...known, answering: false, misses: known.misses + 1, missedAt: now });
  }
}

/** How long after its last silence was counted a node with `misses` in a row waits to be asked again. */
export const backoffMs = (misses: number) => Math.min(FIRST_BACKOFF_MS * 2 ** Math.min(misses - 1, 30), PROBE_EVERY_MS);
