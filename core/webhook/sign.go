package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SecretPrefix starts every signing secret, as the Standard Webhooks specification
// suggests, so that a secret is recognised for what it is.
const SecretPrefix = "whsec_"

// secretBytes is the length of a secret's random key: as long as SHA-256's block of
// output, which is what HMAC-SHA256 keys should be at least.
const secretBytes = 32

// NewSecret returns a fresh signing secret: SecretPrefix followed by the base64 of random
// bytes.
func NewSecret() (string, error) {
	key := make([]byte, secretBytes)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("make webhook secret: %w", err)
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// Signature is the webhook-signature header of a message: "v1," followed by the base64
// of HMAC-SHA256, keyed with the secret's decoded bytes, of msgID.timestamp.body.
func Signature(secret, msgID string, timestamp time.Time, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil || len(key) == 0 {
		return "", errors.New("webhook secret is not whsec_ followed by base64")
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + strconv.FormatInt(timestamp.Unix(), 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}
