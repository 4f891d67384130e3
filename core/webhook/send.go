package webhook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Message is one event on its way to one receiver. ID is the webhook-id header: the same
// on every attempt, so that a receiver can drop what it has already handled.
type Message struct {
	ID     string
	URL    string
	Secret string
	Body   []byte
}

// Attempt is what one try at sending a message met.
type Attempt struct {
	At       time.Time
	Duration time.Duration
	// StatusCode is the receiver's answer, zero when there was none.
	StatusCode int
	// Error says why the attempt failed; empty when the receiver answered 2xx.
	Error string
}

// OK reports whether the receiver took the message.
func (a Attempt) OK() bool { return a.Error == "" }

// Sender posts messages. Its client decides which addresses may be reached and how long
// an attempt may last (see fetch.Guard.Client).
type Sender struct {
	client    *http.Client
	userAgent string
}

// NewSender returns a Sender over client, which sends userAgent as its User-Agent.
func NewSender(client *http.Client, userAgent string) *Sender {
	return &Sender{client: client, userAgent: userAgent}
}

// Send makes one attempt at delivering m, signed for the moment it is sent.
func (s *Sender) Send(ctx context.Context, m Message) Attempt {
	start := time.Now()
	a := Attempt{At: start}
	a.Error = s.post(ctx, m, start, &a.StatusCode)
	a.Duration = time.Since(start)
	return a
}

func (s *Sender) post(ctx context.Context, m Message, now time.Time, status *int) string {
	signature, err := Signature(m.Secret, m.ID, now, m.Body)
	if err != nil {
		return err.Error()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.URL, bytes.NewReader(m.Body))
	if err != nil {
		return fmt.Sprintf("build request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", s.userAgent)
	req.Header.Set("webhook-id", m.ID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	req.Header.Set("webhook-signature", signature)
	resp, err := s.client.Do(req)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	// What the receiver says is not kept; reading a little lets the connection be reused.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	*status = resp.StatusCode
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return "receiver answered " + strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode)
	}
	return ""
}
