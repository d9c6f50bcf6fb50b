-- second: needs the first
ALTER TABLE people ADD COLUMN age INTEGER;
UPDATE people SET age = 42;
