package stockroom_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	stockroom "github.com/stockroom/stockroom/clients/go/stockroom"
)

// The example of the Standard Webhooks specification: its secret, message and signature.
const (
	vectorSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTimestamp = "1614265330"
	vectorBody      = `{"test": 2432232314}`
	vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

var vectorTime = time.Unix(1614265330, 0)

func webhookHeader(id, timestamp, signature string) http.Header {
	h := http.Header{}
	h.Set("webhook-id", id)
	h.Set("webhook-timestamp", timestamp)
	h.Set("webhook-signature", signature)
	return h
}

func TestVerifyWebhookAcceptsTheSpecificationsExample(t *testing.T) {
	header := webhookHeader(vectorID, vectorTimestamp, vectorSignature)
	if err := stockroom.VerifyWebhook(vectorSecret, header, []byte(vectorBody), vectorTime); err != nil {
		t.Fatal(err)
	}
	// A secret without its prefix is the same key.
	if err := stockroom.VerifyWebhook(vectorSecret[len("whsec_"):], header, []byte(vectorBody), vectorTime); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyWebhook(t *testing.T) {
	tests := []struct {
		name    string
		secret  string
		header  http.Header
		body    string
		now     time.Time
		wantErr error
	}{
		{"one of several signatures matches", vectorSecret,
			webhookHeader(vectorID, vectorTimestamp, "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= "+vectorSignature),
			vectorBody, vectorTime, nil},
		{"a signature of another version is ignored", vectorSecret,
			webhookHeader(vectorID, vectorTimestamp, "v1a,"+vectorSignature[3:]),
			vectorBody, vectorTime, stockroom.ErrWebhookSignature},
		{"a changed body", vectorSecret, webhookHeader(vectorID, vectorTimestamp, vectorSignature),
			`{"test": 2432232315}`, vectorTime, stockroom.ErrWebhookSignature},
		{"a changed id", vectorSecret, webhookHeader("msg_other", vectorTimestamp, vectorSignature),
			vectorBody, vectorTime, stockroom.ErrWebhookSignature},
		{"another secret", "whsec_" + "c2VjcmV0IG9mIGFub3RoZXIgZW5kcG9pbnQ=", webhookHeader(vectorID, vectorTimestamp, vectorSignature),
			vectorBody, vectorTime, stockroom.ErrWebhookSignature},
		{"a timestamp too old", vectorSecret, webhookHeader(vectorID, vectorTimestamp, vectorSignature),
			vectorBody, vectorTime.Add(stockroom.WebhookTolerance + time.Second), stockroom.ErrWebhookTimestamp},
		{"a timestamp too new", vectorSecret, webhookHeader(vectorID, vectorTimestamp, vectorSignature),
			vectorBody, vectorTime.Add(-stockroom.WebhookTolerance - time.Second), stockroom.ErrWebhookTimestamp},
		{"a timestamp just within tolerance", vectorSecret, webhookHeader(vectorID, vectorTimestamp, vectorSignature),
			vectorBody, vectorTime.Add(stockroom.WebhookTolerance), nil},
		{"no signature header", vectorSecret, webhookHeader(vectorID, vectorTimestamp, ""),
			vectorBody, vectorTime, stockroom.ErrWebhookHeaders},
		{"a timestamp that is not a number", vectorSecret, webhookHeader(vectorID, "yesterday", vectorSignature),
			vectorBody, vectorTime, stockroom.ErrWebhookHeaders},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := stockroom.VerifyWebhook(tt.secret, tt.header, []byte(tt.body), tt.now)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("got %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestVerifyWebhookRefusesASecretThatIsNotBase64(t *testing.T) {
	header := webhookHeader(vectorID, vectorTimestamp, vectorSignature)
	if err := stockroom.VerifyWebhook("whsec_not base64!", header, []byte(vectorBody), vectorTime); err == nil {
		t.Fatal("a secret that does not decode verified a delivery")
	}
}
