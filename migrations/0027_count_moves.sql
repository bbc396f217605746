-- The resolvers' counts a records database other than DB holds on their way to DB (docs/capacity.md,
-- "Records by corridor"): a corridor's auctions and the keeper's settlement steps count in the quote's
-- database, atomically with its rows, and the leader's job moves each database's `resolver_days` here,
-- then into DB's, once (its id in DB's `written_behind`). Empty in DB.
CREATE TABLE count_moves (
  id         TEXT PRIMARY KEY,
  rows       TEXT NOT NULL,
  created_at TEXT NOT NULL
);
