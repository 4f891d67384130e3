-- +goose Up
CREATE TABLE organizations (
    id          uuid PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    credits     bigint NOT NULL DEFAULT 0 CHECK (credits >= 0),
    auto_top_up boolean NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Only a SHA-256 hash of each key is kept; the prefix lets people tell keys apart.
CREATE TABLE api_keys (
    id              uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (id),
    name            text NOT NULL DEFAULT '',
    prefix          text NOT NULL,
    hash            bytea NOT NULL UNIQUE,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_used_at    timestamptz,
    revoked_at      timestamptz
);
CREATE INDEX api_keys_by_organization ON api_keys (organization_id, created_at);

-- Counts are kept on the row so that browse pages never count a million listings.
CREATE TABLE vendors (
    id                      bigserial PRIMARY KEY,
    host                    text NOT NULL UNIQUE,
    platform                text,
    in_affiliate_network    boolean NOT NULL DEFAULT false,
    listings_count          integer NOT NULL DEFAULT 0,
    collections_count       integer NOT NULL DEFAULT 0,
    first_seen_by_service   timestamptz NOT NULL DEFAULT now(),
    last_updated_by_service timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX vendors_by_host ON vendors (host);

CREATE TABLE collections (
    id                      uuid PRIMARY KEY,
    vendor_id               bigint NOT NULL REFERENCES vendors (id),
    url                     text NOT NULL,
    handle                  text,
    title                   text,
    products_total          integer,
    listings_count          integer NOT NULL DEFAULT 0,
    first_seen_by_service   timestamptz NOT NULL DEFAULT now(),
    last_updated_by_service timestamptz NOT NULL DEFAULT now(),
    UNIQUE (vendor_id, url)
);
CREATE INDEX collections_by_size ON collections (vendor_id, products_total DESC NULLS LAST, url);

-- A listing's ordinal numbers it 1, 2, 3... within its vendor in order of discovery and is
-- never reused (listings are not deleted), so page N is a range scan, not an OFFSET.
CREATE TABLE listings (
    id                      uuid PRIMARY KEY,
    vendor_id               bigint NOT NULL REFERENCES vendors (id),
    ordinal                 integer NOT NULL,
    url                     text NOT NULL,
    name                    text,
    images                  jsonb NOT NULL DEFAULT '[]',
    price_currency          text,
    price_current           numeric,
    price_compare_at        numeric,
    first_seen_by_service   timestamptz NOT NULL DEFAULT now(),
    last_updated_by_service timestamptz NOT NULL DEFAULT now(),
    UNIQUE (vendor_id, url),
    UNIQUE (vendor_id, ordinal)
);

-- A listing may belong to several collections; each link is numbered within its collection.
CREATE TABLE collection_listings (
    collection_id uuid NOT NULL REFERENCES collections (id),
    listing_id    uuid NOT NULL REFERENCES listings (id),
    ordinal       integer NOT NULL,
    PRIMARY KEY (collection_id, listing_id),
    UNIQUE (collection_id, ordinal)
);
CREATE INDEX collection_listings_by_listing ON collection_listings (listing_id);

CREATE TABLE products (
    id         uuid PRIMARY KEY,
    vendor_id  bigint NOT NULL REFERENCES vendors (id),
    listing_id uuid REFERENCES listings (id),
    url        text NOT NULL,
    data       jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (vendor_id, url)
);
CREATE INDEX products_by_listing ON products (listing_id);

CREATE TABLE executions (
    id              text PRIMARY KEY,
    kind            text NOT NULL,
    organization_id uuid NOT NULL REFERENCES organizations (id),
    status          text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
    vendor          text,
    steps           jsonb NOT NULL DEFAULT '[]',
    progress        jsonb,
    parameters      jsonb NOT NULL DEFAULT '{}',
    result          jsonb,
    error           text,
    credits_used    bigint NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    started_at      timestamptz,
    stopped_at      timestamptz,
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX executions_by_organization ON executions (organization_id, kind, created_at DESC);
-- One crawl at a time per vendor host, enforced by the database rather than by luck.
CREATE UNIQUE INDEX executions_one_active_crawl ON executions (vendor)
    WHERE kind = 'crawl' AND status IN ('pending', 'running');

-- +goose Down
DROP TABLE executions;
DROP TABLE products;
DROP TABLE collection_listings;
DROP TABLE listings;
DROP TABLE collections;
DROP TABLE vendors;
DROP TABLE api_keys;
DROP TABLE organizations;
