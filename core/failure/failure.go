// Package failure names the ways a core operation can fail that a client must be told about.
//
// Core code returns *Error values; the HTTP layer turns each Kind into a status and an error
// code in one place. Any other error is an internal one.
package failure

import (
	"errors"
	"fmt"
)

// Kind classifies an Error. Each kind is one client-visible error code.
type Kind int

const (
	// Invalid is a request the server cannot read: malformed JSON, a missing field, a wrong type.
	Invalid Kind = iota + 1
	// Validation is a readable request with a value out of range or a bad URL.
	Validation
	// NotFound is an unknown resource, or one that belongs to another organization.
	NotFound
	// InsufficientCredits is a start the organization's balance cannot pay for.
	InsufficientCredits
	// AutoTopUpRequired is a crawl start while the organization has auto top-up off.
	AutoTopUpRequired
	// Forbidden is a request the key may not make.
	Forbidden
	// NotRunning is a cancel of an execution that has already ended.
	NotRunning
	// RateLimited is a request over the key's rate limit.
	RateLimited
	// TooLarge is a request body over the size limit.
	TooLarge
	// Unavailable is a feature whose backing service is not configured or not reachable.
	Unavailable
)

// Error is a failure the client is told about.
type Error struct {
	Kind    Kind
	Message string
	// Param names the request parameter at fault, when there is one.
	Param string
	// Details are extra root-level fields of the error body, such as invalid_urls.
	Details map[string]any
	// Cause is the underlying error, for logs; the client sees Message only.
	Cause error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return e.Message + ": " + e.Cause.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Cause }

// Is matches any *Error of the same Kind, so errors.Is(err, &Error{Kind: NotFound}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind
}

// KindOf returns the Kind of the first *Error in err's chain, or 0 when there is none.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

// BadRequest reports a request the server cannot read.
func BadRequest(format string, args ...any) *Error {
	return &Error{Kind: Invalid, Message: fmt.Sprintf(format, args...)}
}

// Missing reports a required parameter that is absent.
func Missing(param string) *Error {
	return &Error{Kind: Invalid, Param: param, Message: param + " is required"}
}

// WrongType reports a parameter of the wrong JSON or query type.
func WrongType(param, want string) *Error {
	return &Error{Kind: Invalid, Param: param, Message: fmt.Sprintf("%s must be %s", param, want)}
}

// OutOfRange reports a parameter whose value is outside what the endpoint accepts.
func OutOfRange(param string, format string, args ...any) *Error {
	return &Error{Kind: Validation, Param: param, Message: param + " " + fmt.Sprintf(format, args...)}
}

// NotFoundf reports an unknown resource.
func NotFoundf(format string, args ...any) *Error {
	return &Error{Kind: NotFound, Message: fmt.Sprintf(format, args...)}
}

// StorageDown reports a backing store that cannot be reached; the client may retry.
func StorageDown(cause error) *Error {
	return &Error{Kind: Unavailable, Message: "storage is unavailable, retry shortly", Cause: cause}
}
