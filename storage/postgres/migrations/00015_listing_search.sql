-- +goose Up
-- Search covers the crawled listings that no extraction has replaced yet, not only the
-- extracted products (core/search/RULES.md, "Listings"). A listing is found by the words of
-- its name, or of the titles of the collections it is in. Both are expression indexes
-- rather than stored columns: a listing's name is short, so ranking computes its document
-- again for the few rows it orders, and the listings rows, which the browse endpoints page
-- through, stay as narrow as they were.
CREATE INDEX listings_search_name ON listings USING gin (to_tsvector('english'::regconfig, coalesce(name, '')));
CREATE INDEX collections_search_title ON collections USING gin (to_tsvector('english'::regconfig, coalesce(title, '')));

-- A search's hits are products or listings: exactly one of the two ids is set. Like the
-- catalog's own links since 00010, a listing hit has no foreign key: listings are never
-- deleted.
ALTER TABLE search_hits
    ALTER COLUMN product_id DROP NOT NULL,
    ADD COLUMN listing_id uuid,
    ADD CONSTRAINT search_hits_one_item CHECK (num_nonnulls(product_id, listing_id) = 1);

-- +goose Down
DELETE FROM search_hits WHERE listing_id IS NOT NULL;
ALTER TABLE search_hits
    DROP CONSTRAINT search_hits_one_item,
    DROP COLUMN listing_id,
    ALTER COLUMN product_id SET NOT NULL;
DROP INDEX collections_search_title;
DROP INDEX listings_search_name;
