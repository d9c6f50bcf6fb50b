-- Clawgate store, schema version 14 (PostgreSQL): cluster mode (SPEC OP-2, DI-1, IN-4, OUT-7, CH-0).
-- One statement per ';' at the end of a line; times are epoch milliseconds of the DATABASE's clock, so nodes
-- with skewed clocks still agree on who is alive.

-- One row per node that ever joined; a node is alive while state = 'alive' and its heartbeat is fresher than
-- cluster.lease_ttl. A lapsed node is set to 'dead' by whoever sees it first, and never becomes alive again:
-- a node that comes back (SIGCONT after a pause) finds itself dead and must leave (fencing).
CREATE TABLE cluster_nodes (
    node_id      TEXT   PRIMARY KEY,
    state        TEXT   NOT NULL,
    bind         TEXT   NOT NULL DEFAULT '',
    roles        TEXT   NOT NULL DEFAULT '',
    started_at   BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL
);

-- Which node runs a session's turns (one run per session across the cluster); fence grows at each takeover.
CREATE TABLE session_leases (
    session_id BIGINT PRIMARY KEY REFERENCES sessions (id),
    node_id    TEXT   NOT NULL,
    fence      BIGINT NOT NULL,
    taken_at   BIGINT NOT NULL
);
CREATE INDEX session_leases_node ON session_leases (node_id);

-- Which node runs a pull channel's listener; fence grows at each takeover, and the listener's records are refused
-- once its fence is no longer the row's.
CREATE TABLE listener_leases (
    listener TEXT   PRIMARY KEY,
    node_id  TEXT   NOT NULL,
    fence    BIGINT NOT NULL,
    taken_at BIGINT NOT NULL
);

-- Inbox records recorded on one node for a session another node runs: that node takes them (NOTIFY wakes it).
CREATE TABLE cluster_handoffs (
    inbox_id   BIGINT PRIMARY KEY,
    node_id    TEXT   NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX cluster_handoffs_node ON cluster_handoffs (node_id);

-- The node that claimed an entry for sending; 'fenced:<node>' once that node was declared dead mid-send.
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
