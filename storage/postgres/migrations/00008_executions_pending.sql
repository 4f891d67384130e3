-- +goose Up
-- The resumer looks every few seconds for executions left pending with no job; most
-- executions have ended, so the index holds only the pending ones.
CREATE INDEX executions_pending ON executions (kind, created_at) WHERE status = 'pending';

-- +goose Down
DROP INDEX executions_pending;
