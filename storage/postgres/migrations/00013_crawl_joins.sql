-- +goose Up
-- One crawl runs per hostname, whichever organization starts it. Another organization's
-- start answers with the running crawl and joins it: the joining organization may follow
-- the crawl (its status, its lists, an extraction waiting for it), not cancel it, which
-- stays its starter's. The key leads with the organization, as its lists read it.
CREATE TABLE execution_joins (
    organization_id uuid NOT NULL REFERENCES organizations (id),
    execution_id    text NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
    joined_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, execution_id)
);

-- +goose Down
DROP TABLE execution_joins;
