package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/stockroom/stockroom/core/execution"
)

// execer runs a statement on a pool or in a transaction.
type execer interface {
	Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error)
}

// RecordStart writes, in the caller's transaction tx, what Postgres keeps of an
// execution's start: e as a pending execution, e.CreditsUsed taken from its
// organization's balance, and items as its inputs in order. The caller queues the
// execution's job in the same transaction (storage/jobs does), so that all of it is
// committed together or not at all.
//
// A crawl of a vendor that has an active crawl writes no execution and charges nothing:
// e's organization joins that crawl when it is another's, e.Webhook (when set) is attached
// to it, and RecordStart returns *execution.ActiveError naming it; tx must then be
// committed for the join and the webhook to hold. A balance that cannot pay is
// access.ErrInsufficientCredits.
func RecordStart(ctx context.Context, tx pgx.Tx, e execution.Execution, items []string) error {
	params := e.Parameters
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	// A conflict on the one active crawl of a vendor inserts nothing instead of failing,
	// which would end the transaction.
	tag, err := tx.Exec(ctx, `INSERT INTO executions (id, kind, organization_id, status, vendor, steps, parameters, credits_used)
		VALUES ($1, $2, $3, 'pending', nullif($4, ''), $5, $6, $7)
		ON CONFLICT DO NOTHING`,
		e.ID, e.Kind, e.OrganizationID, e.Vendor, stepsJSON(e.Steps), []byte(params), e.CreditsUsed)
	if err != nil {
		return classify("create execution", err)
	}
	if tag.RowsAffected() == 0 {
		err := activeCrawl(ctx, tx, e)
		var active *execution.ActiveError
		if errors.As(err, &active) && e.Webhook != nil {
			// The start's webhook follows the crawl it was answered with.
			if err := recordWebhook(ctx, tx, active.Existing, e.OrganizationID, e.Webhook); err != nil {
				return err
			}
		}
		return err
	}
	if err := charge(ctx, tx, e.OrganizationID, e.CreditsUsed); err != nil {
		return err
	}
	if e.Webhook != nil {
		if err := recordWebhook(ctx, tx, e.ID, e.OrganizationID, e.Webhook); err != nil {
			return err
		}
	}
	if len(items) > 0 {
		return addItems(ctx, tx, e.ID, items)
	}
	return nil
}

// activeCrawl answers a start whose execution conflicted with another: the running crawl
// of its vendor, which another organization's start joins.
func activeCrawl(ctx context.Context, tx pgx.Tx, e execution.Execution) error {
	if e.Kind != execution.Crawl {
		return fmt.Errorf("create execution: %s already exists", e.ID)
	}
	var existing string
	err := tx.QueryRow(ctx, `WITH active AS (
			-- Locked, so that the crawl cannot end before this start commits: its end would
			-- not see the joining organization, nor the webhook the start attaches.
			SELECT id, organization_id FROM executions
			WHERE kind = 'crawl' AND vendor = $1 AND status IN ('pending', 'running')
			FOR SHARE
		), joined AS (
			INSERT INTO execution_joins (organization_id, execution_id)
			SELECT $2, id FROM active WHERE organization_id <> $2
			ON CONFLICT DO NOTHING
		)
		SELECT id FROM active`, e.Vendor, e.OrganizationID).Scan(&existing)
	if isNoRows(err) {
		// The other crawl ended in between: the caller may simply try again.
		return fmt.Errorf("create execution: the active crawl of %s ended while %s started", e.Vendor, e.ID)
	}
	if err != nil {
		return classify("join the active crawl", err)
	}
	return &execution.ActiveError{Existing: existing}
}
