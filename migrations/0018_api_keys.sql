-- Integrators' API keys (docs/security.md, "API keys"): only the SHA-256 of a key is kept, so a leaked
-- table gives no key away. `quotas` is JSON (ApiKeyQuotas): the limits a key's requests count against
-- where they differ from the relay's `limits`. A revoked key keeps its row, so its id is never reused.
CREATE TABLE api_keys (
  id          TEXT PRIMARY KEY,
  hash        TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  quotas      TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  revoked_at  TEXT
);
