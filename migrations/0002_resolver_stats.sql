-- Per-resolver counters for the reliability measures (DESIGN §5): how often a resolver was asked, answered
-- inside the window, won, had its fill submitted, and had it settle. Lifetime totals, updated with
-- upserts; `address` is the lowercase 0x address.

CREATE TABLE resolver_stats (
  address     TEXT PRIMARY KEY,
  asked       INTEGER NOT NULL DEFAULT 0,
  answered    INTEGER NOT NULL DEFAULT 0,
  won         INTEGER NOT NULL DEFAULT 0,
  submitted   INTEGER NOT NULL DEFAULT 0,
  settled     INTEGER NOT NULL DEFAULT 0,
  updated_at  TEXT NOT NULL
);
