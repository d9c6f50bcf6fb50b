-- Clawgate store, schema version 14 (SQLite): cluster mode is PostgreSQL only (SPEC OP-2); SQLite gets the one
-- column its outbox SQL shares with PostgreSQL, so both dialects keep one schema version.

-- The node that claimed an entry for sending (always '' on SQLite: one process).
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
