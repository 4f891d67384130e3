-- +goose Up
-- Stored pages are pruned (PageStore.Prune): those no fetch has used for a while, and the
-- least recently used beyond a size budget. used_at is when a fetch last stored the page
-- or was answered 304 Not Modified for it; size is what the row costs, its body and key.
ALTER TABLE fetched_pages
    ADD COLUMN used_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN size    bigint NOT NULL DEFAULT 0;
UPDATE fetched_pages SET used_at = fetched_at, size = octet_length(body) + octet_length(key);
CREATE INDEX fetched_pages_used_at ON fetched_pages (used_at);
-- A crawl stores every page it reads here, a Shopify products.json page of about a
-- megabyte included: lz4, where the server has it, compresses them for a fraction of the
-- default pglz's CPU (storage/postgres/RATIONALE.md).
-- +goose StatementBegin
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        ALTER TABLE fetched_pages ALTER COLUMN body SET COMPRESSION lz4;
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE fetched_pages ALTER COLUMN body SET COMPRESSION pglz;
DROP INDEX fetched_pages_used_at;
ALTER TABLE fetched_pages DROP COLUMN used_at, DROP COLUMN size;
