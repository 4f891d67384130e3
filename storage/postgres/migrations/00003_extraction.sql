-- +goose Up
-- One row per input URL of an extraction, in input order. The same URL given twice is
-- fetched once; each of its rows receives the outcome.
CREATE TABLE execution_items (
    execution_id text NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
    position     integer NOT NULL,
    url          text NOT NULL,
    outcome      text,
    message      text NOT NULL DEFAULT '',
    retry        boolean NOT NULL DEFAULT false,
    final_url    text,
    product_id   uuid REFERENCES products (id),
    PRIMARY KEY (execution_id, position)
);
CREATE INDEX execution_items_by_url ON execution_items (execution_id, url);

-- +goose Down
DROP TABLE execution_items;
