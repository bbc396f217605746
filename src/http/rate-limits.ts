/**
 * The period of the `QUOTES_LIMITER` and `EXECUTIONS_LIMITER` bindings (wrangler.toml, `period = 10`):
 * when a limited taker may ask again, so every `rate_limited` answer's `Retry-After` (docs/api.md,
 * "Errors"). test/unit/rate-limits.test.ts reads wrangler.toml to keep the two equal.
 */
export const RATE_LIMIT_PERIOD_SECONDS = 10;
