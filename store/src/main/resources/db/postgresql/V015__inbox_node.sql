-- Clawgate store, schema version 15 (PostgreSQL): which cluster node holds each inbox record (SPEC OP-2, IN-4).
-- One statement per ';' at the end of a line.

-- The node that took the record, then the node it was handed to or that took its session over. A record held by a
-- dead node whose session another live node runs is handed to that node: a node killed between recording a message
-- and handing it on leaves nothing behind. '' outside cluster mode; NULL for records older than this version.
ALTER TABLE inbox ADD COLUMN node_id TEXT;
