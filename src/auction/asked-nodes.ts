import { resolverKey } from "../ids";
import type { NodeSession } from "../nodes";
import type { Standing } from "../resolvers";

export interface AskedChoice {
  /** The most an rfq asks (`limits.maxNodesPerRfq`). */
  max: number;
  /** The standing the corridor holds, if it has read one. */
  standing: Standing | null;
  /** When a node (lower-case address) was last asked; never is -Infinity. */
  askedAt(node: string): number;
}

/**
 * The nodes an rfq asks, of the eligible ones (docs/resolver-protocol.md, "Auctions"): all of them up to
 * `max`; past it, half the places go to the most reliable resolvers not demoted, the rest in turn to the
 * others, the one asked longest ago first (a newcomer, never asked, before any), so each of `n` nodes
 * is asked at least once in every `ceil(n / (max - ceil(max / 2)))` rfqs.
 */
export function chooseAsked(eligible: readonly NodeSession[], choice: AskedChoice): NodeSession[] {
  if (eligible.length <= choice.max) return [...eligible];
  const reliability = choice.standing?.reliability ?? new Map<string, number>();
  const demoted = choice.standing?.demoted ?? new Set<string>();
  const keyed = eligible.map((node) => ({ node, key: resolverKey(node.address) }));
  const standingPlaces = Math.ceil(choice.max / 2);
  const best = keyed
    .filter((n) => reliability.has(n.key) && !demoted.has(n.key))
    .sort((a, b) => (reliability.get(b.key) ?? 0) - (reliability.get(a.key) ?? 0) || byTurn(choice, a.key, b.key))
    .slice(0, standingPlaces);
  const chosen = new Set(best.map((n) => n.key));
  const inTurn = keyed
    .filter((n) => !chosen.has(n.key))
    .sort((a, b) => byTurn(choice, a.key, b.key))
    .slice(0, choice.max - best.length);
  return [...best, ...inTurn].map((n) => n.node);
}

/** The node asked longer ago first; between nodes asked at once, the lower address. */
function byTurn(choice: AskedChoice, a: string, b: string): number {
  const at = choice.askedAt(a);
  const bt = choice.askedAt(b);
  if (at !== bt) return at < bt ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
