-- Clawgate store, schema version 17 (SQLite): cluster mode is PostgreSQL only (SPEC OP-2); SQLite gets the table so
-- both dialects keep one schema version.

-- The config version of the cluster (unused on SQLite: one process).
CREATE TABLE cluster_config (id INTEGER PRIMARY KEY, version INTEGER NOT NULL, digest TEXT NOT NULL, node_id TEXT NOT NULL, announced_at TEXT NOT NULL);
