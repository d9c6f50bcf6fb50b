-- Clawgate store, schema version 13 (PostgreSQL): hybrid memory recall (SPEC ME-5).
-- One statement per ';' at the end of a line.

-- The columns are SQLite's (see its V013): the embedding as float32 little-endian bytes of a unit
-- vector, and the id of the model that made it; NULL until embedded and after a content change.
ALTER TABLE memories ADD COLUMN embedding bytea;

ALTER TABLE memories ADD COLUMN embedding_model TEXT;
