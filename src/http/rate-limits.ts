/**
 * When a limited taker may ask again, so every `rate_limited` answer's `Retry-After` (docs/api.md,
 * "Conventions"): the period of the `EXECUTIONS_LIMITER` binding (wrangler.toml, `period = 10`) and of the
 * quote requests its taker's object counts. test/unit/rate-limits.test.ts reads wrangler.toml to keep them equal.
 */
export const RATE_LIMIT_PERIOD_SECONDS = 10;

/** Quote requests one taker may make in a period (docs/api.md, "Taker limits"). */
export const QUOTE_REQUESTS_PER_PERIOD = 100;
