// Package access holds organizations, their API keys and their credit balances, and decides
// who a request comes from.
package access

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"strings"
	"time"
)

// Organization is an account: it owns keys, executions and a credit balance.
type Organization struct {
	ID        string
	Name      string
	Credits   int64
	AutoTopUp bool
	CreatedAt time.Time
}

// Key is an API key's record. The secret itself is never stored.
type Key struct {
	ID             string
	OrganizationID string
	Name           string
	// Prefix is the first characters of the secret, shown so people can tell keys apart.
	Prefix     string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}

// Principal is who an authenticated request comes from.
type Principal struct {
	OrganizationID string
	KeyID          string
}

// ErrUnknownKey is returned for a key that does not exist or was revoked.
var ErrUnknownKey = errors.New("invalid API key")

// ErrNotFound is returned for an unknown organization or key.
var ErrNotFound = errors.New("not found")

// ErrInsufficientCredits is returned by Charge when the balance cannot pay.
var ErrInsufficientCredits = errors.New("insufficient credits")

// OrganizationChange is a partial update; nil fields are left as they are.
type OrganizationChange struct {
	Credits   *int64
	AutoTopUp *bool
}

// Store keeps organizations and keys.
type Store interface {
	CreateOrganization(ctx context.Context, name string, credits int64, autoTopUp bool) (Organization, error)
	Organizations(ctx context.Context) ([]Organization, error)
	OrganizationByName(ctx context.Context, name string) (Organization, error)
	Organization(ctx context.Context, id string) (Organization, error)
	UpdateOrganization(ctx context.Context, name string, change OrganizationChange) (Organization, error)

	CreateKey(ctx context.Context, organizationID, name, prefix string, hash []byte) (Key, error)
	Keys(ctx context.Context, organizationID string) ([]Key, error)
	RevokeKey(ctx context.Context, id string) error
	// ActiveKeyByHash finds a key that is not revoked; ErrUnknownKey otherwise.
	ActiveKeyByHash(ctx context.Context, hash []byte) (Key, error)
	TouchKey(ctx context.Context, id string, at time.Time) error

	// Charge takes credits from an organization's balance atomically, never below zero.
	Charge(ctx context.Context, organizationID string, credits int64) error
	// Refund gives back credits charged for a search the caller waited on that then
	// failed. An execution's start needs none: it charges in the transaction that starts it.
	Refund(ctx context.Context, organizationID string, credits int64) error
}

// keyPrefix marks Stockroom keys so that secret scanners and people recognise them.
const keyPrefix = "srk_"

// visiblePrefixLen is how much of a key stays visible in listings: the marker and 8 characters.
const visiblePrefixLen = len(keyPrefix) + 8

var keyEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewSecret returns a fresh random API key secret.
func NewSecret() string {
	b := make([]byte, 25) // 200 bits
	if _, err := rand.Read(b); err != nil {
		panic("access: crypto/rand failed: " + err.Error()) // the OS RNG does not fail on Linux
	}
	return keyPrefix + strings.ToLower(keyEncoding.EncodeToString(b))
}

// HashSecret is the stored form of a secret.
func HashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// VisiblePrefix is the part of a secret that may be shown again after creation.
func VisiblePrefix(secret string) string {
	if len(secret) < visiblePrefixLen {
		return secret
	}
	return secret[:visiblePrefixLen]
}
