package access

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// ServiceOptions tune a Service. The zero value is usable.
type ServiceOptions struct {
	// CacheTTL is how long an authenticated key is trusted without asking the store again.
	// A revoked key stops working within this time. Default 10s; negative disables the cache.
	CacheTTL time.Duration
	// TouchInterval is how often a key's last-use time is written at most. Default 1 minute.
	TouchInterval time.Duration
	Logger        *slog.Logger
}

// Service authenticates keys and manages organizations and keys.
type Service struct {
	store Store
	opts  ServiceOptions
	now   func() time.Time

	mu      sync.Mutex
	cache   map[string]cachedKey // by hex of the hash
	touched map[string]time.Time // key id -> last time written
}

type cachedKey struct {
	principal Principal
	until     time.Time
}

// NewService returns a Service over store.
func NewService(store Store, opts ServiceOptions) *Service {
	if opts.CacheTTL == 0 {
		opts.CacheTTL = 10 * time.Second
	}
	if opts.TouchInterval == 0 {
		opts.TouchInterval = time.Minute
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Service{store: store, opts: opts, now: time.Now, cache: map[string]cachedKey{}, touched: map[string]time.Time{}}
}

// Store returns the store behind the service, for administrative commands.
func (s *Service) Store() Store { return s.store }

// Authenticate returns who a secret belongs to, or ErrUnknownKey.
func (s *Service) Authenticate(ctx context.Context, secret string) (Principal, error) {
	hash := HashSecret(secret)
	cacheKey := string(hash)
	now := s.now()
	if s.opts.CacheTTL > 0 {
		s.mu.Lock()
		c, ok := s.cache[cacheKey]
		s.mu.Unlock()
		if ok && now.Before(c.until) {
			s.touch(c.principal.KeyID, now)
			return c.principal, nil
		}
	}
	key, err := s.store.ActiveKeyByHash(ctx, hash)
	if err != nil {
		return Principal{}, err
	}
	p := Principal{OrganizationID: key.OrganizationID, KeyID: key.ID}
	if s.opts.CacheTTL > 0 {
		s.mu.Lock()
		if len(s.cache) > 100_000 { // keys are few; this only bounds a flood of distinct valid keys
			clear(s.cache)
		}
		s.cache[cacheKey] = cachedKey{principal: p, until: now.Add(s.opts.CacheTTL)}
		s.mu.Unlock()
	}
	s.touch(key.ID, now)
	return p, nil
}

// touch records a key's last use at most once per TouchInterval, off the request path.
func (s *Service) touch(keyID string, now time.Time) {
	s.mu.Lock()
	last, ok := s.touched[keyID]
	due := !ok || now.Sub(last) >= s.opts.TouchInterval
	if due {
		s.touched[keyID] = now
	}
	s.mu.Unlock()
	if !due {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.store.TouchKey(ctx, keyID, now); err != nil {
			s.opts.Logger.Warn("record key use", "key_id", keyID, "err", err)
		}
	}()
}

// IssueKey creates a key for the named organization and returns its record and secret.
// The secret is shown once: only its hash is kept.
func (s *Service) IssueKey(ctx context.Context, organizationName, keyName string) (Key, string, error) {
	org, err := s.store.OrganizationByName(ctx, organizationName)
	if err != nil {
		return Key{}, "", fmt.Errorf("organization %q: %w", organizationName, err)
	}
	secret := NewSecret()
	key, err := s.store.CreateKey(ctx, org.ID, keyName, VisiblePrefix(secret), HashSecret(secret))
	if err != nil {
		return Key{}, "", fmt.Errorf("create key: %w", err)
	}
	return key, secret, nil
}

// EnsureOrganization returns the named organization, creating it with the given balance and
// auto top-up setting when it does not exist.
func (s *Service) EnsureOrganization(ctx context.Context, name string, credits int64, autoTopUp bool) (Organization, error) {
	org, err := s.store.OrganizationByName(ctx, name)
	if err == nil {
		return org, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return Organization{}, err
	}
	return s.store.CreateOrganization(ctx, name, credits, autoTopUp)
}

// Organization returns the organization of id, for its own members to read.
func (s *Service) Organization(ctx context.Context, id string) (Organization, error) {
	org, err := s.store.Organization(ctx, id)
	if err != nil {
		return Organization{}, fmt.Errorf("organization %s: %w", id, err)
	}
	return org, nil
}
