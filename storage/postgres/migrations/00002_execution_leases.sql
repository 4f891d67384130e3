-- +goose Up
-- A runner holds a lease while it works; a lapsed lease means its process died.
ALTER TABLE executions ADD COLUMN lease_owner text, ADD COLUMN lease_until timestamptz;
CREATE INDEX executions_lapsed ON executions (kind, lease_until) WHERE status = 'running';

-- +goose Down
ALTER TABLE executions DROP COLUMN lease_owner, DROP COLUMN lease_until;
