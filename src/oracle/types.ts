/** Two asset symbols, e.g. base `USD`, quote `NGN`: rates are quote units per one base unit. */
export interface AssetPair {
  base: string;
  quote: string;
}

export const pairKey = (pair: AssetPair): string => `${pair.base}/${pair.quote}`;

/** What one source said in one poll. */
export interface Reading {
  /** Best bid and ask, for sources that publish both sides; null for a source that publishes one number. */
  bid: number | null;
  ask: number | null;
  /** The mid of bid and ask, or the one number. */
  value: number;
  /** When the source says its figure was made, unix ms; null when the response carries no time. */
  at: number | null;
}

/**
 * A source's last plausible figure, as a round keeps it (src/oracle/snapshot.ts): kept while the source
 * fails, so `GET /v1/rates` can still show it with its true age.
 */
export interface SourceValue {
  name: string;
  value: number;
  bid: number | null;
  ask: number | null;
  /** When the figure was made, unix ms: the source's own time, or when the relay received it if it gives none. */
  at: number;
}

/** One polled source as `GET /v1/rates` shows it (record 2.5). */
export interface SourceRate {
  name: string;
  value: number;
  bid: number | null;
  ask: number | null;
  /** Whole seconds since the figure was made (`SourceValue.at`), at the time of the answer. */
  ageSeconds: number;
}
