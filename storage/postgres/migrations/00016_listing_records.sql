-- +goose Up
-- The whole product a listing page gave for a listing, when the platform's listing pages
-- carry whole products (Shopify's /collections/{handle}/products.json): a vendor's
-- extraction builds each product from it and the store's home page, instead of asking
-- for every product's own documents. record is the adapter's own form, read only by the
-- adapter named; listed_at is when the crawl read it, so that an extraction can tell
-- stale records (extract.listing_max_age). Kept apart from listings: it is written once
-- per listing and crawl, read once per extraction, and is many times a listing's size.
CREATE TABLE listing_records (
    listing_id uuid PRIMARY KEY REFERENCES listings (id) ON DELETE CASCADE,
    adapter    text NOT NULL,
    record     json NOT NULL,
    listed_at  timestamptz NOT NULL
);

-- +goose Down
DROP TABLE listing_records;
