package stockroom

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// APIError is an answer of the service that is not a success. Every error but a 401
// carries the documented body {"error": {"code", "message", "request_id"}}; a 401 carries
// {"error", "status"}, read here as its Message with no Code.
type APIError struct {
	// Status is the HTTP status, such as 404.
	Status int
	// Code is the error's code, such as ErrorCodeNOTFOUND; empty for a 401 and for a body
	// that is not the documented shape (say, from a proxy in between).
	Code ErrorCode
	// Message says what went wrong, naming the parameter at fault.
	Message string
	// RequestID is the request's id, from the body or else the Request-ID header: quote
	// it when reporting a problem.
	RequestID string
	// RetryAfter is how long a 429 asks to wait; zero when the answer does not say.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("stockroom: %d", e.Status)
	if e.Code != "" {
		msg += " " + string(e.Code)
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.RequestID != "" {
		msg += " (request " + e.RequestID + ")"
	}
	return msg
}

// temporary says whether the same request may succeed later: the service was limiting
// the rate, or failed in a way that is not the request's fault.
func (e *APIError) temporary() bool {
	return e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// ResponseError is nil for a successful answer (2xx) and an *APIError for any other, read
// from its body (the Body field of every generated response).
func ResponseError(resp *http.Response, body []byte) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	apiErr := &APIError{Status: resp.StatusCode, RequestID: resp.Header.Get("Request-ID")}
	if seconds, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		apiErr.RetryAfter = time.Duration(seconds) * time.Second
	}
	var documented Error
	var unauthorized Unauthorized
	switch {
	case json.Unmarshal(body, &documented) == nil && documented.Error.Code != "":
		apiErr.Code = documented.Error.Code
		apiErr.Message = documented.Error.Message
		if documented.Error.RequestID != "" {
			apiErr.RequestID = documented.Error.RequestID
		}
	case json.Unmarshal(body, &unauthorized) == nil && unauthorized.Error != "":
		apiErr.Message = string(unauthorized.Error)
	default:
		apiErr.Message = http.StatusText(resp.StatusCode)
	}
	return apiErr
}

// Answer is the decoded body of a successful answer (a generated response's JSON200 or
// JSON202), or why there is none: an *APIError, or a success without the documented
// JSON body.
func Answer[T any](decoded *T, resp *http.Response, body []byte) (*T, error) {
	if err := ResponseError(resp, body); err != nil {
		return nil, err
	}
	if decoded == nil {
		return nil, fmt.Errorf("stockroom: %d answer without the documented JSON body (Content-Type %q)", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return decoded, nil
}

// ExecutionError is an execution that ended failed (or was canceled, which reads as
// failed with the message "canceled").
type ExecutionError struct {
	// ExecutionID is the execution's id.
	ExecutionID string
	// Message is the execution's error.
	Message string
}

func (e *ExecutionError) Error() string {
	return fmt.Sprintf("stockroom: execution %s failed: %s", e.ExecutionID, e.Message)
}
