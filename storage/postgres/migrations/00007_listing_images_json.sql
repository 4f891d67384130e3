-- +goose Up
-- Listing images are stored as json, not jsonb: nothing queries inside them, and the
-- listings endpoint passes them to the response as they are. jsonb would re-serialize each
-- array on every read (and reorder its keys), json hands back the bytes the crawl wrote.
ALTER TABLE listings ALTER COLUMN images DROP DEFAULT;
ALTER TABLE listings ALTER COLUMN images TYPE json USING images::json;
ALTER TABLE listings ALTER COLUMN images SET DEFAULT '[]';

-- +goose Down
ALTER TABLE listings ALTER COLUMN images DROP DEFAULT;
ALTER TABLE listings ALTER COLUMN images TYPE jsonb USING images::jsonb;
ALTER TABLE listings ALTER COLUMN images SET DEFAULT '[]';
