-- Clawgate store, schema version 16: reserved for another change being made at the same time (numbers are handed
-- out per change); it changes nothing here. Whoever merges that change puts its script in place of this one.
SELECT 1;
