package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/execution"
)

// ExecutionStore implements execution.Store.
type ExecutionStore struct {
	pool  *pgxpool.Pool
	onEnd EndHook
}

// NewExecutionStore returns an execution.Store over pool.
func NewExecutionStore(pool *pgxpool.Pool) *ExecutionStore { return &ExecutionStore{pool: pool} }

// EndHook runs in the transaction that records an execution's end (Finish or Cancel), so
// that what it writes (the jobs that tell webhooks) is committed with the end or not at
// all. ended is the execution as it now stands; lastProgress is its progress document
// before the end, which the end clears.
type EndHook func(ctx context.Context, tx pgx.Tx, ended execution.Execution, lastProgress json.RawMessage) error

// WithEndHook returns a store over the same pool that runs hook at every end.
func (s *ExecutionStore) WithEndHook(hook EndHook) *ExecutionStore {
	return &ExecutionStore{pool: s.pool, onEnd: hook}
}

// ended runs the end hook, when there is one.
func (s *ExecutionStore) ended(ctx context.Context, tx pgx.Tx, e execution.Execution, lastProgress json.RawMessage) error {
	if s.onEnd == nil {
		return nil
	}
	if err := s.onEnd(ctx, tx, e, lastProgress); err != nil {
		return fmt.Errorf("after the end of %s: %w", e.ID, err)
	}
	return nil
}

var _ execution.Store = (*ExecutionStore)(nil)

const executionColumns = `id, kind, organization_id::text, status, coalesce(vendor, ''), steps, progress, parameters,
	result, coalesce(error, ''), credits_used, created_at, started_at, stopped_at`

func scanExecution(row pgx.Row) (execution.Execution, error) {
	var e execution.Execution
	var steps []byte
	err := row.Scan(&e.ID, &e.Kind, &e.OrganizationID, &e.Status, &e.Vendor, &steps, &e.Progress, &e.Parameters,
		&e.Result, &e.Error, &e.CreditsUsed, &e.CreatedAt, &e.StartedAt, &e.StoppedAt)
	if isNoRows(err) {
		return e, execution.ErrNotFound
	}
	if err != nil {
		return e, err
	}
	if err := json.Unmarshal(steps, &e.Steps); err != nil {
		return e, fmt.Errorf("execution %s steps: %w", e.ID, err)
	}
	return e, nil
}

func stepsJSON(steps []execution.Step) []byte {
	if steps == nil {
		steps = []execution.Step{}
	}
	b, _ := json.Marshal(steps) // a slice of plain structs always encodes
	return b
}

func jsonOrNull(raw json.RawMessage) any {
	if len(raw) == 0 {
		return nil
	}
	return []byte(raw)
}

func (s *ExecutionStore) Get(ctx context.Context, id, organizationID string) (execution.Execution, error) {
	query := "SELECT " + executionColumns + " FROM executions WHERE id = $1"
	args := []any{id}
	if organizationID != "" {
		if _, err := uuid.Parse(organizationID); err != nil {
			return execution.Execution{}, execution.ErrNotFound
		}
		query += ` AND (organization_id = $2
			OR EXISTS (SELECT 1 FROM execution_joins j WHERE j.organization_id = $2 AND j.execution_id = $1))`
		args = append(args, organizationID)
	}
	e, err := scanExecution(s.pool.QueryRow(ctx, query, args...))
	if err != nil && err != execution.ErrNotFound {
		return e, classify("get execution", err)
	}
	return e, err
}

func (s *ExecutionStore) List(ctx context.Context, f execution.Filter) ([]execution.Execution, error) {
	kinds := make([]string, len(f.Kinds))
	for i, k := range f.Kinds {
		kinds[i] = string(k)
	}
	statuses := make([]string, len(f.Statuses))
	for i, st := range f.Statuses {
		statuses[i] = string(st)
	}
	// Its own executions and those it joined, each set read by its key (the joined ones by
	// their ids, found first, whatever the statistics); an organization joins only others'
	// crawls, so the two never overlap.
	rows, err := s.pool.Query(ctx, "SELECT "+executionColumns+` FROM executions
		WHERE organization_id = $1 AND kind = ANY($2) AND (cardinality($3::text[]) = 0 OR status = ANY($3))
		UNION ALL
		SELECT `+executionColumns+` FROM executions
		WHERE id = ANY(ARRAY(SELECT execution_id FROM execution_joins WHERE organization_id = $1))
			AND kind = ANY($2) AND (cardinality($3::text[]) = 0 OR status = ANY($3))
		ORDER BY created_at DESC, id LIMIT $4`, f.OrganizationID, kinds, statuses, f.Limit)
	if err != nil {
		return nil, classify("list executions", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (execution.Execution, error) { return scanExecution(r) })
}

func (s *ExecutionStore) Acquire(ctx context.Context, id, owner string, ttl time.Duration) (execution.Execution, bool, error) {
	e, err := scanExecution(s.pool.QueryRow(ctx, `UPDATE executions SET
			status = 'running', lease_owner = $2, lease_until = now() + $3::interval,
			started_at = coalesce(started_at, now()), updated_at = now()
		WHERE id = $1 AND status IN ('pending', 'running') AND (lease_until IS NULL OR lease_until < now() OR lease_owner = $2)
		RETURNING `+executionColumns, id, owner, ttl.String()))
	if err == execution.ErrNotFound {
		return e, false, nil
	}
	if err != nil {
		return e, false, classify("acquire execution", err)
	}
	return e, true, nil
}

func (s *ExecutionStore) Report(ctx context.Context, l execution.Lease, ttl time.Duration, progress json.RawMessage, steps []execution.Step) error {
	tag, err := s.pool.Exec(ctx, `UPDATE executions SET lease_until = now() + $3::interval, progress = coalesce($4, progress),
			steps = $5, updated_at = now()
		WHERE id = $1 AND lease_owner = $2 AND status = 'running'`, l.ExecutionID, l.Owner, ttl.String(), jsonOrNull(progress), stepsJSON(steps))
	if err != nil {
		return classify("report execution progress", err)
	}
	if tag.RowsAffected() == 0 {
		return execution.ErrLeaseLost
	}
	return nil
}

func (s *ExecutionStore) Finish(ctx context.Context, l execution.Lease, status execution.Status, result json.RawMessage, message string, steps []execution.Step) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var lastProgress json.RawMessage
		// The row is read before the update for its progress, which the end clears.
		row := tx.QueryRow(ctx, `WITH before AS (
				SELECT id AS before_id, progress AS last_progress FROM executions
				WHERE id = $1 AND lease_owner = $2 AND status = 'running' FOR UPDATE
			)
			UPDATE executions SET status = $3, result = $4, error = nullif($5, ''), steps = $6,
				progress = NULL, stopped_at = now(), lease_owner = NULL, lease_until = NULL, updated_at = now()
			FROM before WHERE id = before_id
			RETURNING `+executionColumns+`, last_progress`,
			l.ExecutionID, l.Owner, status, jsonOrNull(result), message, stepsJSON(steps))
		e, err := scanExecution(scanAlso{row, &lastProgress})
		if err == execution.ErrNotFound {
			return execution.ErrLeaseLost
		}
		if err != nil {
			return err
		}
		return s.ended(ctx, tx, e, lastProgress)
	})
	if errors.Is(err, execution.ErrLeaseLost) {
		return err
	}
	return classify("finish execution", err)
}

// scanAlso scans a row of an execution's columns followed by more.
type scanAlso struct {
	row  pgx.Row
	more any
}

func (r scanAlso) Scan(dest ...any) error { return r.row.Scan(append(dest, r.more)...) }

func (s *ExecutionStore) Cancel(ctx context.Context, id, organizationID string) (execution.Execution, error) {
	var out execution.Execution
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		query := "SELECT " + executionColumns + " FROM executions WHERE id = $1"
		args := []any{id}
		if organizationID != "" {
			if _, err := uuid.Parse(organizationID); err != nil {
				return execution.ErrNotFound
			}
			query += " AND organization_id = $2"
			args = append(args, organizationID)
		}
		e, err := scanExecution(tx.QueryRow(ctx, query+" FOR UPDATE", args...))
		if err != nil {
			return err
		}
		if e.Status.Ended() {
			return execution.ErrEnded
		}
		steps := execution.FailRunningStep(e.Steps)
		out, err = scanExecution(tx.QueryRow(ctx, `UPDATE executions SET status = 'failed', error = $2, steps = $3,
				progress = NULL, stopped_at = now(), lease_owner = NULL, lease_until = NULL, updated_at = now()
			WHERE id = $1 RETURNING `+executionColumns, id, execution.CanceledMessage, stepsJSON(steps)))
		if err != nil {
			return err
		}
		return s.ended(ctx, tx, out, e.Progress)
	})
	if err == execution.ErrNotFound || err == execution.ErrEnded {
		return out, err
	}
	return out, classify("cancel execution", err)
}

// Stranded reads its executions through their partial index (executions_lapsed).
func (s *ExecutionStore) Stranded(ctx context.Context, kinds []execution.Kind) ([]execution.Stranded, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, kind FROM executions
		WHERE kind = ANY($1) AND status = 'running' AND lease_until < now()
		ORDER BY created_at`, kinds)
	if err != nil {
		return nil, classify("list stranded executions", err)
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (execution.Stranded, error) {
		var e execution.Stranded
		err := row.Scan(&e.ID, &e.Kind)
		return e, err
	})
}
