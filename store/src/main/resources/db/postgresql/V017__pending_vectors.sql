-- Clawgate store, schema version 17 (PostgreSQL): the memory indexer finds what is pending without reading every
-- memory (issue 27). One statement per ';' at the end of a line.

-- As SQLite's V017: the entries never embedded (NULL) and those of each other model are each a range of this index,
-- already in id order, so a pending batch reads only its own rows.
CREATE INDEX memories_embedding_model ON memories (embedding_model, id);
