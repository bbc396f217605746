import type { ResolverStanding } from "../../schemas/resolvers";

/**
 * A resolver's own record as the relay keeps it (`GET /v1/resolvers/{address}`; docs/reliability.md,
 * "A resolver's record"): what the reference resolver prints when it is demoted, so its operator sees why.
 */
export async function fetchStanding(relayUrl: string, address: string): Promise<ResolverStanding> {
  const res = await fetch(new URL(`/v1/resolvers/${address}`, relayUrl));
  if (!res.ok) throw new Error(`GET /v1/resolvers/${address} answered ${res.status}`);
  return (await res.json()) as ResolverStanding;
}

/** The record in a few lines: the demotion, the last strikes, the failures not counted, the window. */
export function standingLines(s: ResolverStanding, shown = 5): string[] {
  const percent = (rate: number | null) => (rate === null ? "n/a" : `${(rate * 100).toFixed(1)} %`);
  const detail = s.reliabilityDetail;
  return [
    s.demoted ? `demoted until ${s.demotedUntil}: ${s.demotionReason}` : "not demoted",
    `last 7 days: response ${percent(detail?.response.rate ?? null)}, fill ${percent(detail?.fill.rate ?? null)}` +
      (s.replyLatency ? `, replies p50 ≤ ${s.replyLatency.p50Ms} ms, p99 ≤ ${s.replyLatency.p99Ms} ms` : ""),
    `strikes (${s.strikes.length} listed, counted against this resolver):`,
    ...s.strikes.slice(0, shown).map((x) => `  ${x.at} ${x.reason}${x.quoteId ? ` (${x.quoteId})` : ""}`),
    `failures that were not this resolver's (${s.notCounted.length} listed, never counted):`,
    ...s.notCounted.slice(0, shown).map((x) => `  ${x.at} ${x.reason} (${x.quoteId})`),
  ];
}
