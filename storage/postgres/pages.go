package postgres

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/fetch"
)

// PageStore keeps the pages the fetcher may ask about conditionally (fetch.PageStore).
type PageStore struct{ pool *pgxpool.Pool }

// NewPageStore returns a PageStore over pool.
func NewPageStore(pool *pgxpool.Pool) *PageStore { return &PageStore{pool: pool} }

func pageKeyHash(key string) []byte {
	sum := sha256.Sum256([]byte(key))
	return sum[:]
}

// Page returns the page stored under key.
func (s *PageStore) Page(ctx context.Context, key string) (fetch.StoredPage, bool, error) {
	var p fetch.StoredPage
	var storedKey string
	err := s.pool.QueryRow(ctx,
		`SELECT key, status, header, body, etag, last_modified FROM fetched_pages WHERE key_hash = $1`,
		pageKeyHash(key)).Scan(&storedKey, &p.Status, &p.Header, &p.Body, &p.ETag, &p.LastModified)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fetch.StoredPage{}, false, nil
	case err != nil:
		return fetch.StoredPage{}, false, fmt.Errorf("read stored page: %w", err)
	case storedKey != key:
		return fetch.StoredPage{}, false, nil // a hash collision: as good as none
	}
	if p.Header == nil {
		p.Header = http.Header{}
	}
	return p, true, nil
}

// SavePage stores page under key, replacing what was there.
func (s *PageStore) SavePage(ctx context.Context, key string, p fetch.StoredPage) error {
	_, err := s.pool.Exec(ctx, `
		INSERT INTO fetched_pages (key_hash, key, status, header, body, etag, last_modified)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (key_hash) DO UPDATE SET key = excluded.key, status = excluded.status,
			header = excluded.header, body = excluded.body, etag = excluded.etag,
			last_modified = excluded.last_modified, fetched_at = now()`,
		pageKeyHash(key), key, p.Status, p.Header, p.Body, p.ETag, p.LastModified)
	if err != nil {
		return fmt.Errorf("store page: %w", err)
	}
	return nil
}
