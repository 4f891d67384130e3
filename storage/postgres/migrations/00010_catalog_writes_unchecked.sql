-- +goose Up
-- The catalog's listings and links are written by one statement (writeListingsSQL) that
-- takes every id it stores from a row it reads in the same transaction: the vendor's, which
-- it locks; the collections', which it locks; the listing's, which it finds or inserts.
-- Nothing deletes catalog rows. The foreign keys could therefore never fire, and checking
-- them (a locking lookup per listing and two per link) was a third of the statement's
-- time, the largest part of a crawl's database work.
ALTER TABLE listings DROP CONSTRAINT listings_vendor_id_fkey;
ALTER TABLE collection_listings
    DROP CONSTRAINT collection_listings_collection_id_fkey,
    DROP CONSTRAINT collection_listings_listing_id_fkey;

-- +goose Down
ALTER TABLE listings ADD CONSTRAINT listings_vendor_id_fkey FOREIGN KEY (vendor_id) REFERENCES vendors (id);
ALTER TABLE collection_listings
    ADD CONSTRAINT collection_listings_collection_id_fkey FOREIGN KEY (collection_id) REFERENCES collections (id),
    ADD CONSTRAINT collection_listings_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES listings (id);
