-- +goose Up
-- digest identifies a stored page's body (fetch.BodyDigest), so that a page the host sends
-- whole again, unchanged but for its validators or its Date, is confirmed without its body
-- being written again (PageStore.RevalidatePage).
ALTER TABLE fetched_pages ADD COLUMN digest bigint NOT NULL DEFAULT 0;
-- The stored pages are a cache: losing them costs the next crawl of each store full
-- answers instead of 304s, and nothing else. Unlogged, they skip the write-ahead log,
-- which a crawl's megabytes of pages cost Postgres CPU to fill (core/fetch/RATIONALE.md).
-- A crash empties an unlogged table, and replicas do not have its rows.
ALTER TABLE fetched_pages SET UNLOGGED;

-- +goose Down
ALTER TABLE fetched_pages SET LOGGED;
ALTER TABLE fetched_pages DROP COLUMN digest;
