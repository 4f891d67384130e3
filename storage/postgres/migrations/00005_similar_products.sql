-- +goose Up
-- Similar products (enable_similar_products) are the catalog's nearest titles by trigram
-- similarity, looked up when results are read (ExtractStore.Similar). The GIN index lets
-- the % operator find the candidates without scanning the catalog; pg_trgm lower-cases
-- when it builds trigrams, so the raw title is indexed.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX products_title_trgm ON products USING gin ((data->>'title') gin_trgm_ops);

-- +goose Down
DROP INDEX products_title_trgm;
