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

/** One polled source as `GET /v1/rates` shows it (record 2.5). */
export interface SourceRate {
  name: string;
  value: number;
  bid: number | null;
  ask: number | null;
  ageSeconds: number;
}
