-- What stands behind a resolver's standing (docs/reliability.md, "A resolver's record").

-- Every strike as it was applied, written with the strike record it moved (src/db/strikes.ts): the event
-- it was for (an execution, an rfq), the quote, why, and the demotion it earned. `address` is lowercase.
CREATE TABLE resolver_strikes (
  address        TEXT NOT NULL,
  event          TEXT NOT NULL,
  quote_id       TEXT,
  reason         TEXT NOT NULL,
  demoted_until  TEXT NOT NULL,
  at             TEXT NOT NULL,
  PRIMARY KEY (address, event)
);
CREATE INDEX resolver_strikes_by_time ON resolver_strikes (address, at);

-- The failed fills of a resolver's wins, newest first: those the taker or the relay caused are shown
-- apart from its strikes, and never counted against it.
CREATE INDEX executions_failed_by_resolver ON executions (lower(resolver), updated_at)
  WHERE status IN ('failed', 'requote');

-- Replies by latency, so a resolver's p50 and p99 reply times can be told per day: the replies of each
-- bucket, up to its bound in ms and over the bound before it; the rest of `replies` came after 800 ms.
ALTER TABLE resolver_days ADD COLUMN replies_25 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE resolver_days ADD COLUMN replies_50 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE resolver_days ADD COLUMN replies_100 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE resolver_days ADD COLUMN replies_200 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE resolver_days ADD COLUMN replies_400 INTEGER NOT NULL DEFAULT 0;
ALTER TABLE resolver_days ADD COLUMN replies_800 INTEGER NOT NULL DEFAULT 0;
