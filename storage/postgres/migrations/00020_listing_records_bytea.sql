-- +goose Up
-- A record is the adapter's own JSON, which the host has already checked and only ever
-- hands back to the adapter: keep its bytes as they are (bytea), without Postgres parsing
-- them again as json, and compress them with lz4 where the server has it, which costs a
-- crawl's writes far less CPU than the default pglz (storage/postgres/RATIONALE.md).
ALTER TABLE listing_records ALTER COLUMN record TYPE bytea USING convert_to(record::text, 'UTF8');
-- +goose StatementBegin
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        ALTER TABLE listing_records ALTER COLUMN record SET COMPRESSION lz4;
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE listing_records ALTER COLUMN record SET COMPRESSION pglz;
ALTER TABLE listing_records ALTER COLUMN record TYPE json USING convert_from(record, 'UTF8')::json;
