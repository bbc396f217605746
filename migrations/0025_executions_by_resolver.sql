-- A resolver's recent fills, for the keeper's evidence when its balance falls short of a quote it won
-- (docs/settlement.md, "When the relay spent the winner's balance"): found by resolver and time, the
-- address in any case, as src/db/relay-fills.ts asks for it.
CREATE INDEX executions_by_resolver ON executions (resolver COLLATE NOCASE, created_at);
