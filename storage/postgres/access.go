package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/access"
)

// AccessStore implements access.Store.
type AccessStore struct{ pool *pgxpool.Pool }

// NewAccessStore returns an access.Store over pool.
func NewAccessStore(pool *pgxpool.Pool) *AccessStore { return &AccessStore{pool: pool} }

var _ access.Store = (*AccessStore)(nil)

const organizationColumns = "id::text, name, credits, auto_top_up, created_at"

func scanOrganization(row pgx.Row) (access.Organization, error) {
	var o access.Organization
	err := row.Scan(&o.ID, &o.Name, &o.Credits, &o.AutoTopUp, &o.CreatedAt)
	if isNoRows(err) {
		return o, access.ErrNotFound
	}
	return o, err
}

func (s *AccessStore) CreateOrganization(ctx context.Context, name string, credits int64, autoTopUp bool) (access.Organization, error) {
	o, err := scanOrganization(s.pool.QueryRow(ctx,
		"INSERT INTO organizations (id, name, credits, auto_top_up) VALUES ($1, $2, $3, $4) RETURNING "+organizationColumns,
		uuid.New(), name, credits, autoTopUp))
	if isUniqueViolation(err) {
		return o, fmt.Errorf("organization %q already exists", name)
	}
	if err != nil {
		return o, fmt.Errorf("create organization: %w", err)
	}
	return o, nil
}

func (s *AccessStore) Organizations(ctx context.Context) ([]access.Organization, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+organizationColumns+" FROM organizations ORDER BY name")
	if err != nil {
		return nil, fmt.Errorf("list organizations: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (access.Organization, error) { return scanOrganization(r) })
}

func (s *AccessStore) OrganizationByName(ctx context.Context, name string) (access.Organization, error) {
	return scanOrganization(s.pool.QueryRow(ctx, "SELECT "+organizationColumns+" FROM organizations WHERE name = $1", name))
}

func (s *AccessStore) Organization(ctx context.Context, id string) (access.Organization, error) {
	if _, err := uuid.Parse(id); err != nil {
		return access.Organization{}, access.ErrNotFound
	}
	return scanOrganization(s.pool.QueryRow(ctx, "SELECT "+organizationColumns+" FROM organizations WHERE id = $1", id))
}

func (s *AccessStore) UpdateOrganization(ctx context.Context, name string, change access.OrganizationChange) (access.Organization, error) {
	o, err := scanOrganization(s.pool.QueryRow(ctx, `
		UPDATE organizations SET
			credits = COALESCE($2, credits),
			auto_top_up = COALESCE($3, auto_top_up),
			updated_at = now()
		WHERE name = $1 RETURNING `+organizationColumns, name, change.Credits, change.AutoTopUp))
	if err != nil {
		return o, fmt.Errorf("update organization %q: %w", name, err)
	}
	return o, nil
}

const keyColumns = "id::text, organization_id::text, name, prefix, created_at, last_used_at, revoked_at"

func scanKey(row pgx.Row) (access.Key, error) {
	var k access.Key
	err := row.Scan(&k.ID, &k.OrganizationID, &k.Name, &k.Prefix, &k.CreatedAt, &k.LastUsedAt, &k.RevokedAt)
	return k, err
}

func (s *AccessStore) CreateKey(ctx context.Context, organizationID, name, prefix string, hash []byte) (access.Key, error) {
	k, err := scanKey(s.pool.QueryRow(ctx,
		"INSERT INTO api_keys (id, organization_id, name, prefix, hash) VALUES ($1, $2, $3, $4, $5) RETURNING "+keyColumns,
		uuid.New(), organizationID, name, prefix, hash))
	if err != nil {
		return k, fmt.Errorf("create key: %w", err)
	}
	return k, nil
}

func (s *AccessStore) Keys(ctx context.Context, organizationID string) ([]access.Key, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+keyColumns+" FROM api_keys WHERE organization_id = $1 ORDER BY created_at", organizationID)
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (access.Key, error) { return scanKey(r) })
}

// RevokeKey revokes by key id or by visible prefix.
func (s *AccessStore) RevokeKey(ctx context.Context, idOrPrefix string) error {
	var tag interface{ RowsAffected() int64 }
	var err error
	if _, perr := uuid.Parse(idOrPrefix); perr == nil {
		tag, err = s.pool.Exec(ctx, "UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL", idOrPrefix)
	} else {
		tag, err = s.pool.Exec(ctx, "UPDATE api_keys SET revoked_at = now() WHERE prefix = $1 AND revoked_at IS NULL", idOrPrefix)
	}
	if err != nil {
		return fmt.Errorf("revoke key: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("key %q: %w", idOrPrefix, access.ErrNotFound)
	}
	return nil
}

func (s *AccessStore) ActiveKeyByHash(ctx context.Context, hash []byte) (access.Key, error) {
	k, err := scanKey(s.pool.QueryRow(ctx, "SELECT "+keyColumns+" FROM api_keys WHERE hash = $1 AND revoked_at IS NULL", hash))
	if isNoRows(err) {
		return k, access.ErrUnknownKey
	}
	if err != nil {
		return k, classify("look up key", err)
	}
	return k, nil
}

func (s *AccessStore) TouchKey(ctx context.Context, id string, at time.Time) error {
	_, err := s.pool.Exec(ctx, "UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)", id, at)
	return err
}

func (s *AccessStore) Charge(ctx context.Context, organizationID string, credits int64) error {
	return charge(ctx, s.pool, organizationID, credits)
}

// charge takes credits from a balance, never below zero: ErrInsufficientCredits when it
// cannot pay.
func charge(ctx context.Context, db execer, organizationID string, credits int64) error {
	if credits <= 0 {
		return nil
	}
	tag, err := db.Exec(ctx, "UPDATE organizations SET credits = credits - $2, updated_at = now() WHERE id = $1 AND credits >= $2", organizationID, credits)
	if err != nil {
		return fmt.Errorf("charge credits: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return access.ErrInsufficientCredits
	}
	return nil
}

func (s *AccessStore) Refund(ctx context.Context, organizationID string, credits int64) error {
	if credits <= 0 {
		return nil
	}
	_, err := s.pool.Exec(ctx, "UPDATE organizations SET credits = credits + $2, updated_at = now() WHERE id = $1", organizationID, credits)
	if err != nil {
		return fmt.Errorf("refund credits: %w", err)
	}
	return nil
}
