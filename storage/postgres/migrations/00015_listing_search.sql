-- +goose Up
-- Search covers the crawled listings that no extraction has replaced yet, not only the
-- extracted products (core/search/RULES.md, "Listings"). A listing is found by the words of
-- its name, or of the titles of the collections it is in. search_name is a STORED generated
-- column, as the products' search columns are (00004): every writer keeps it right, and
-- ranking reads it rather than parsing each name again.
ALTER TABLE listings
    ADD COLUMN search_name tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(name, ''))) STORED;
CREATE INDEX listings_search_name ON listings USING gin (search_name);
-- Collections are few and written once a crawl: their titles are matched through an
-- expression index.
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
ALTER TABLE listings DROP COLUMN search_name;
