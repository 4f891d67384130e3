-- +goose Up
-- An execution is now created in the same transaction as its job, so none is left pending
-- without one, and the resumer no longer looks for such executions.
DROP INDEX executions_pending;

-- +goose Down
CREATE INDEX executions_pending ON executions (kind, created_at) WHERE status = 'pending';
