-- The resolver directory a page at a time (docs/api.md, "Nodes and resolvers"): pages follow the primary
-- key (the address). Without `include=inactive` a page holds the resolvers active in the last day, found
-- through this index of when each was last active (its last heartbeat written, else its registration),
-- and those left out are counted through it too; neither read walks the whole table.
CREATE INDEX resolvers_by_activity ON resolvers (COALESCE(last_seen, registered_at), address);
