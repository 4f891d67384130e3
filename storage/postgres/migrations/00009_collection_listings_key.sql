-- +goose Up
-- A link's primary key leads with the listing, and so also serves what the index by
-- listing served (the multi-collection filter, the listings foreign key): one index fewer
-- to maintain on every link a crawl writes. Collection order is the (collection_id,
-- ordinal) key's.
ALTER TABLE collection_listings DROP CONSTRAINT collection_listings_pkey, ADD PRIMARY KEY (listing_id, collection_id);
DROP INDEX collection_listings_by_listing;

-- +goose Down
CREATE INDEX collection_listings_by_listing ON collection_listings (listing_id);
ALTER TABLE collection_listings DROP CONSTRAINT collection_listings_pkey, ADD PRIMARY KEY (collection_id, listing_id);
