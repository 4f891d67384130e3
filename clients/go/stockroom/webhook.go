package stockroom

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// WebhookTolerance is how far a webhook's timestamp may be from the receiver's clock, as
// the Standard Webhooks specification advises: older deliveries may be replays.
const WebhookTolerance = 5 * time.Minute

// The reasons VerifyWebhook refuses a delivery, wrapped in its error.
var (
	ErrWebhookHeaders   = errors.New("stockroom: webhook headers missing or malformed")
	ErrWebhookTimestamp = errors.New("stockroom: webhook timestamp too old or too new")
	ErrWebhookSignature = errors.New("stockroom: no webhook signature matches")
)

// VerifyWebhook checks that a webhook delivery was signed with secret (the endpoint's
// "whsec_..." secret), as the Standard Webhooks specification says: the webhook-signature
// header holds one or more "v1,BASE64" signatures, each an HMAC-SHA256, keyed with the
// secret's decoded bytes, of webhook-id, webhook-timestamp and the raw body joined by
// dots; and the timestamp is within WebhookTolerance of now. Pass the body exactly as it
// arrived: a re-encoded body does not verify.
func VerifyWebhook(secret string, header http.Header, body []byte, now time.Time) error {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return fmt.Errorf("stockroom: webhook secret is not whsec_ and base64: %w", err)
	}
	id, timestamp, signatures := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	if id == "" || timestamp == "" || signatures == "" {
		return fmt.Errorf("%w: need webhook-id, webhook-timestamp and webhook-signature", ErrWebhookHeaders)
	}
	seconds, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: webhook-timestamp %q is not a number of seconds", ErrWebhookHeaders, timestamp)
	}
	if skew := now.Sub(time.Unix(seconds, 0)); skew > WebhookTolerance || skew < -WebhookTolerance {
		return fmt.Errorf("%w: %s from now", ErrWebhookTimestamp, skew.Round(time.Second))
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	expected := mac.Sum(nil)
	for _, signature := range strings.Fields(signatures) {
		version, encoded, ok := strings.Cut(signature, ",")
		if !ok || version != "v1" {
			continue
		}
		given, err := base64.StdEncoding.DecodeString(encoded)
		if err == nil && hmac.Equal(given, expected) {
			return nil
		}
	}
	return ErrWebhookSignature
}
