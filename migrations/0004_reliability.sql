-- Per-resolver counters for the reliability measures (docs/reliability.md), one row per resolver and UTC
-- day, so the 7-day window is a sum over at most 7 rows per resolver. `address` is the lowercase 0x address,
-- `day` the UTC date (YYYY-MM-DD) of the write.
--   asked, answered      auctions that asked the resolver, and its replies inside the window
--   won                  auctions it won
--   submitted, settled   fills of its quotes broadcast, and settled (the keeper, once per execution)
--   replies, fast_replies  its replies inside the window, and those that came within 100 ms
--   connected_ms, fresh_ms  time its node sockets were authenticated, and within 35 s of a heartbeat
--
-- These replace the lifetime totals of resolver_stats (migrations/0002): totals cannot be placed in days,
-- and one table holds the counters.

CREATE TABLE resolver_days (
  address       TEXT NOT NULL,
  day           TEXT NOT NULL,
  asked         INTEGER NOT NULL DEFAULT 0,
  answered      INTEGER NOT NULL DEFAULT 0,
  won           INTEGER NOT NULL DEFAULT 0,
  submitted     INTEGER NOT NULL DEFAULT 0,
  settled       INTEGER NOT NULL DEFAULT 0,
  replies       INTEGER NOT NULL DEFAULT 0,
  fast_replies  INTEGER NOT NULL DEFAULT 0,
  connected_ms  INTEGER NOT NULL DEFAULT 0,
  fresh_ms      INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (address, day)
);

-- The window read: every resolver's days from a given day on.
CREATE INDEX resolver_days_by_day ON resolver_days (day);

DROP TABLE resolver_stats;
