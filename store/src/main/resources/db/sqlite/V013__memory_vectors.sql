-- Clawgate store, schema version 13 (SQLite): hybrid memory recall (SPEC ME-5).
-- One statement per ';' at the end of a line.

-- Each memory's embedding, kept with its row: float32, little-endian, unit length (a dot product
-- is the cosine), written off the reply path by the memory indexer. embedding_model names the
-- model that made it: a vector of another model is re-embedded, never compared. Both are NULL
-- until the entry is embedded, and again when its content changes.
ALTER TABLE memories ADD COLUMN embedding BLOB;

ALTER TABLE memories ADD COLUMN embedding_model TEXT;
