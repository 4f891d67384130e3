-- +goose Up
-- Search columns are STORED generated columns computed from products.data, so every writer
-- (SaveProduct today, anything later) keeps them right without knowing they exist, and the
-- rows already there are backfilled by this migration. See core/search/RULES.md.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Lowest and highest current price over the variants, else the product's own price.
-- Declared IMMUTABLE (it only reads its argument) so that generated columns may use it.
-- +goose StatementBegin
CREATE FUNCTION search_price(data jsonb, highest boolean) RETURNS numeric
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN coalesce(
        (SELECT CASE WHEN highest THEN max((v #>> '{price,current_value}')::numeric)
                     ELSE min((v #>> '{price,current_value}')::numeric) END
           FROM jsonb_array_elements(CASE WHEN jsonb_typeof(data -> 'variants') = 'array'
                                          THEN data -> 'variants' ELSE '[]'::jsonb END) AS v
          WHERE jsonb_typeof(v #> '{price,current_value}') = 'number'),
        CASE WHEN jsonb_typeof(data #> '{price,current_value}') = 'number'
             THEN (data #>> '{price,current_value}')::numeric END);
-- +goose StatementEnd

-- Available when the product says so, else when any variant does.
-- +goose StatementBegin
CREATE FUNCTION search_available(data jsonb) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN jsonb_typeof(data -> 'is_available') = 'boolean'
                THEN (data ->> 'is_available')::boolean
                ELSE coalesce((SELECT bool_or((v ->> 'is_available')::boolean)
                                 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(data -> 'variants') = 'array'
                                                                THEN data -> 'variants' ELSE '[]'::jsonb END) AS v
                                WHERE jsonb_typeof(v -> 'is_available') = 'boolean'), false) END;
-- +goose StatementEnd

-- Field weights: title A; brand, vendor, product type, tags and option values (colours,
-- sizes) B; description C (the markup's tags are not words to the default parser).
-- +goose StatementBegin
CREATE FUNCTION search_document(data jsonb) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN setweight(to_tsvector('english'::regconfig, coalesce(data ->> 'title', '')), 'A')
        || setweight(to_tsvector('english'::regconfig, coalesce(data ->> 'brand', '') || ' ' || coalesce(data ->> 'vendor', '')
                                                         || ' ' || coalesce(data ->> 'product_type', '')), 'B')
        || setweight(jsonb_to_tsvector('english'::regconfig, coalesce(data -> 'tags', '[]'::jsonb), '["string"]'), 'B')
        || setweight(jsonb_to_tsvector('english'::regconfig, jsonb_path_query_array(data, '$.options[*].values[*]'), '["string"]'), 'B')
        || setweight(to_tsvector('english'::regconfig, coalesce(data ->> 'description', data ->> 'description_html', '')), 'C');
-- +goose StatementEnd

ALTER TABLE products
    ADD COLUMN search_title     text GENERATED ALWAYS AS (lower(coalesce(data ->> 'title', ''))) STORED,
    ADD COLUMN search_brand     text GENERATED ALWAYS AS (lower(coalesce(data ->> 'brand', data ->> 'vendor', ''))) STORED,
    ADD COLUMN search_min_price numeric GENERATED ALWAYS AS (search_price(data, false)) STORED,
    ADD COLUMN search_max_price numeric GENERATED ALWAYS AS (search_price(data, true)) STORED,
    ADD COLUMN search_available boolean GENERATED ALWAYS AS (search_available(data)) STORED,
    ADD COLUMN search_doc       tsvector GENERATED ALWAYS AS (search_document(data)) STORED;

CREATE INDEX products_search_doc ON products USING gin (search_doc);
CREATE INDEX products_search_title_trgm ON products USING gin (search_title gin_trgm_ops);
CREATE INDEX products_search_brand ON products (search_brand);
-- A search without words (legacy /api/search with filters only) lists the newest first.
CREATE INDEX products_search_recent ON products (updated_at DESC, id);

-- The ranked hits of a completed search execution, best first, for paging.
CREATE TABLE search_hits (
    execution_id text NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
    position     integer NOT NULL,
    product_id   uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
    score        double precision NOT NULL,
    reasons      jsonb NOT NULL DEFAULT '[]',
    PRIMARY KEY (execution_id, position)
);

-- +goose Down
DROP TABLE search_hits;
DROP INDEX products_search_recent;
DROP INDEX products_search_brand;
DROP INDEX products_search_title_trgm;
DROP INDEX products_search_doc;
ALTER TABLE products
    DROP COLUMN search_doc,
    DROP COLUMN search_available,
    DROP COLUMN search_max_price,
    DROP COLUMN search_min_price,
    DROP COLUMN search_brand,
    DROP COLUMN search_title;
DROP FUNCTION search_document(jsonb);
DROP FUNCTION search_available(jsonb);
DROP FUNCTION search_price(jsonb, boolean);
