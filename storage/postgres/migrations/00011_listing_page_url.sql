-- +goose Up
-- A listing's url is its canonical form (no www., no trailing slash...), the catalog's key
-- for it. page_url is the URL the site itself links it at, when that differs: what an
-- extraction asks for, so that a store that keeps to its own form (www., a trailing
-- slash) does not answer each product with a redirect. NULL when the two are the same.
ALTER TABLE listings ADD COLUMN page_url text;

-- +goose Down
ALTER TABLE listings DROP COLUMN page_url;
