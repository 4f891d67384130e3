-- +goose Up
-- Pages the fetcher read that carry a validator (ETag or Last-Modified), with what reusing
-- them needs: a later crawl, in any process, asks the store only whether each changed
-- (If-None-Match, If-Modified-Since) and, answered 304 Not Modified, reads the page from
-- here (core/fetch, PageStore). The key is the URL and the request headers that may change
-- the answer; it is looked up by its hash, since URLs can outgrow a btree entry.
CREATE TABLE fetched_pages (
    key_hash      bytea PRIMARY KEY,
    key           text NOT NULL,
    status        integer NOT NULL,
    header        jsonb NOT NULL,
    body          bytea NOT NULL,
    etag          text NOT NULL DEFAULT '',
    last_modified text NOT NULL DEFAULT '',
    fetched_at    timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE fetched_pages;
