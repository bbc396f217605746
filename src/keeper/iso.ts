/** A moment as D1's rows hold it: ISO 8601 in UTC, which sorts as it compares. */
export const iso = (ms: number) => new Date(ms).toISOString();
