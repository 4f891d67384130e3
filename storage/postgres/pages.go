package postgres

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"time"

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
	var digest int64 // the digest's bits, as bigint keeps them
	err := s.pool.QueryRow(ctx,
		`SELECT key, status, header, body, etag, last_modified, digest FROM fetched_pages WHERE key_hash = $1`,
		pageKeyHash(key)).Scan(&storedKey, &p.Status, &p.Header, &p.Body, &p.ETag, &p.LastModified, &digest)
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
	p.Digest = uint64(digest)
	return p, true, nil
}

// SavePage stores page under key, replacing what was there.
func (s *PageStore) SavePage(ctx context.Context, key string, p fetch.StoredPage) error {
	_, err := s.pool.Exec(ctx, `
		INSERT INTO fetched_pages (key_hash, key, status, header, body, etag, last_modified, size, digest)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (key_hash) DO UPDATE SET key = excluded.key, status = excluded.status,
			header = excluded.header, body = excluded.body, etag = excluded.etag,
			last_modified = excluded.last_modified, size = excluded.size, digest = excluded.digest,
			fetched_at = now(), used_at = now()`,
		pageKeyHash(key), key, p.Status, p.Header, p.Body, p.ETag, p.LastModified, len(p.Body)+len(key), int64(p.Digest))
	if err != nil {
		return fmt.Errorf("store page: %w", err)
	}
	return nil
}

// RevalidatePage records that the page under key, if its body is still the one with
// p.Digest, is current and was used now: it takes p's validators and header and keeps
// its body.
func (s *PageStore) RevalidatePage(ctx context.Context, key string, p fetch.StoredPage) error {
	_, err := s.pool.Exec(ctx, `
		UPDATE fetched_pages SET header = $3, etag = $4, last_modified = $5, used_at = now()
		WHERE key_hash = $1 AND digest = $2`,
		pageKeyHash(key), int64(p.Digest), p.Header, p.ETag, p.LastModified)
	if err != nil {
		return fmt.Errorf("revalidate stored page: %w", err)
	}
	return nil
}

// Prune deletes the pages not used since notUsedSince, then the least recently used
// pages until those left take at most maxBytes (0: no budget). It returns how many it
// deleted.
func (s *PageStore) Prune(ctx context.Context, notUsedSince time.Time, maxBytes int64) (int64, error) {
	stale, err := s.pool.Exec(ctx, `DELETE FROM fetched_pages WHERE used_at < $1`, notUsedSince)
	if err != nil {
		return 0, fmt.Errorf("prune stored pages: %w", err)
	}
	if maxBytes <= 0 {
		return stale.RowsAffected(), nil
	}
	over, err := s.pool.Exec(ctx, `
		DELETE FROM fetched_pages WHERE key_hash IN (
			SELECT key_hash FROM (
				SELECT key_hash, sum(size) OVER (ORDER BY used_at DESC, key_hash) AS kept
				FROM fetched_pages
			) ranked WHERE kept > $1
		)`, maxBytes)
	if err != nil {
		return stale.RowsAffected(), fmt.Errorf("prune stored pages over %d bytes: %w", maxBytes, err)
	}
	return stale.RowsAffected() + over.RowsAffected(), nil
}
