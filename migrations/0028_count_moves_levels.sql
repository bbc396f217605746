-- A corridor's level samples (level_days, migrations/0020) go to its records database with its auctions,
-- and reach DB's with the resolvers' counts, in the same move (docs/capacity.md, "Records by corridor"):
-- so DB takes one batch a records database every 10 s, not one a busy corridor's 100 ms.
ALTER TABLE count_moves ADD COLUMN levels TEXT NOT NULL DEFAULT '[]';
