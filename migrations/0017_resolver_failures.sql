-- A resolver's fill rate counts only its own failures (docs/reliability.md, "What is measured"):
-- fill = settled / (settled + failed), where `failed` is the fills of its wins that failed through its own
-- fault: requoted by the keeper's simulation or reverted on chain for a `resolver:` reason, counted once
-- per execution by the keeper. `submitted` stays the fills broadcast, whatever became of them.
ALTER TABLE resolver_days ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;

-- The window's failures written before this counter, from the executions that record them.
INSERT INTO resolver_days (address, day, failed)
SELECT lower(resolver), substr(updated_at, 1, 10), COUNT(*) FROM executions
WHERE status IN ('failed', 'requote') AND reason LIKE 'resolver:%' AND resolver IS NOT NULL
GROUP BY lower(resolver), substr(updated_at, 1, 10)
ON CONFLICT (address, day) DO UPDATE SET failed = excluded.failed;
