/**
 * Whose fault a failed fill is (docs/reliability.md, "Blame"): every failure reason carries its party as
 * a prefix (`taker:nonce_used`, `resolver:insufficient_balance`, `relay:fee_mismatch`), decided by the
 * chain's evidence where the reason is made, never by default. Only the resolver's own faults strike.
 */
export const PARTIES = ["taker", "resolver", "relay"] as const;
export type Blame = (typeof PARTIES)[number];

/** A reason blaming `party`. */
export const blamed = (party: Blame, code: string): string => `${party}:${code}`;

/** The party a reason blames; null for no reason (submitted, settled) or one recorded before blame was. */
export function blameOf(reason: string | null): Blame | null {
  if (reason === null) return null;
  const party = reason.slice(0, reason.indexOf(":"));
  return (PARTIES as readonly string[]).includes(party) ? (party as Blame) : null;
}
