-- Clawgate store, schema version 17 (PostgreSQL): the config version of the cluster (SPEC OP-2, RT-3).
-- One statement per ';' at the end of a line.

-- One row: bumped by the node whose config was reloaded, with the digest of that node's reloadable sections (one
-- short hash per section, never a value), so a node that missed the NOTIFY sees the newer version on its next
-- heartbeat and re-reads its own file.
CREATE TABLE cluster_config (id INTEGER PRIMARY KEY, version BIGINT NOT NULL, digest TEXT NOT NULL, node_id TEXT NOT NULL, announced_at TIMESTAMPTZ NOT NULL);
