-- Clawgate store, schema version 15 (SQLite): cluster mode is PostgreSQL only (SPEC OP-2); SQLite gets the column
-- its inbox SQL shares with PostgreSQL, so both dialects keep one schema version.

-- The cluster node that holds the record (always '' on SQLite: one process).
ALTER TABLE inbox ADD COLUMN node_id TEXT;
