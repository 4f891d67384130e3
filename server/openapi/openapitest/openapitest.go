// Package openapitest checks HTTP responses against Stockroom's OpenAPI document, so that a
// test suite fails whenever the service answers something the document does not describe:
// a status it does not list, a media type it does not give, a body its schema refuses, a
// required header missing. Test harnesses wrap their HTTP client's transport with
// Transport, or call Check on each (request, response) pair they get another way.
package openapitest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	validationerrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"github.com/stockroom/stockroom/server/openapi"
)

// Checker checks responses against the document. It is safe for concurrent use.
type Checker struct {
	// mu serializes validations: the validator's caches are not documented as safe for
	// concurrent use, and end-to-end tests call from many goroutines.
	mu        sync.Mutex
	validator validator.Validator
	schemas   schema_validation.SchemaValidator
	// unknownRoute holds the answers a route the document does not name may get (the key
	// is checked first, then the route): 401 and 404, each with its body's schema.
	unknownRoute map[int]*base.Schema
}

// New builds a Checker over the document the server serves.
func New() (*Checker, error) {
	raw, err := openapi.Document()
	if err != nil {
		return nil, err
	}
	doc, err := libopenapi.NewDocument(raw)
	if err != nil {
		return nil, fmt.Errorf("read the OpenAPI document: %w", err)
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		return nil, fmt.Errorf("build the OpenAPI model: %w", err)
	}
	// Format assertions make timestamps prove they are RFC 3339.
	v, errs := validator.NewValidator(doc, config.WithFormatAssertions())
	if len(errs) > 0 {
		return nil, fmt.Errorf("build the OpenAPI validator: %w", errors.Join(errs...))
	}
	c := &Checker{validator: v, schemas: schema_validation.NewSchemaValidator(config.WithFormatAssertions()), unknownRoute: map[int]*base.Schema{}}
	for status, name := range map[int]string{http.StatusUnauthorized: "Unauthorized", http.StatusNotFound: "NotFound"} {
		schema, err := responseSchema(&model.Model, name)
		if err != nil {
			return nil, err
		}
		c.unknownRoute[status] = schema
	}
	return c, nil
}

// responseSchema is the JSON body schema of the component response name.
func responseSchema(model *v3.Document, name string) (*base.Schema, error) {
	if model.Components == nil || model.Components.Responses == nil {
		return nil, errors.New("the document has no component responses")
	}
	resp := model.Components.Responses.GetOrZero(name)
	if resp == nil || resp.Content == nil {
		return nil, fmt.Errorf("the document has no component response %s", name)
	}
	media := resp.Content.GetOrZero("application/json")
	if media == nil || media.Schema == nil {
		return nil, fmt.Errorf("component response %s has no JSON schema", name)
	}
	return media.Schema.Schema(), nil
}

// shared is the one Checker of a test binary: building one reads and compiles the whole
// document, which every test would otherwise repeat.
var shared = sync.OnceValues(New)

// Shared returns the test binary's Checker, building it on first use.
func Shared() (*Checker, error) { return shared() }

// Check reports how resp departs from the document, or nil when the document describes it.
// It reads resp.Body and leaves an equivalent reader in its place.
func (c *Checker) Check(req *http.Request, resp *http.Response) error {
	body, err := readBack(resp)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	checked := *resp
	checked.Body = io.NopCloser(bytes.NewReader(body))
	ok, errs := c.validator.ValidateHttpResponse(req, &checked)
	if ok {
		return nil
	}
	if len(errs) > 0 && (errs[0].IsPathMissingError() || errs[0].IsOperationMissingError()) {
		return c.checkUnknownRoute(req, resp, body)
	}
	return departure(req, resp, body, describe(errs))
}

// checkUnknownRoute checks the answer to a route the document does not name.
func (c *Checker) checkUnknownRoute(req *http.Request, resp *http.Response, body []byte) error {
	schema, ok := c.unknownRoute[resp.StatusCode]
	if !ok {
		return departure(req, resp, body, "the route is not in the document, and the answer is neither its 401 nor its 404")
	}
	if mediaType := resp.Header.Get("Content-Type"); !strings.HasPrefix(mediaType, "application/json") {
		return departure(req, resp, body, fmt.Sprintf("an unknown route's %d has media type %q, not JSON", resp.StatusCode, mediaType))
	}
	if ok, errs := c.schemas.ValidateSchemaBytes(schema, body); !ok {
		return departure(req, resp, body, describe(errs))
	}
	return nil
}

// Transport returns a RoundTripper that sends through next (http.DefaultTransport when nil)
// and fails t for every response the document does not describe.
func (c *Checker) Transport(t T, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return checkingTransport{checker: c, t: t, next: next}
}

// T is what a transport needs of a test: testing.TB satisfies it.
type T interface {
	Helper()
	Errorf(format string, args ...any)
}

type checkingTransport struct {
	checker *Checker
	t       T
	next    http.RoundTripper
}

func (ct checkingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := ct.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if err := ct.checker.Check(req, resp); err != nil {
		ct.t.Helper()
		ct.t.Errorf("%v", err)
	}
	return resp, nil
}

// readBack reads a response's body and puts an equivalent reader in its place.
func readBack(resp *http.Response) ([]byte, error) {
	if resp.Body == nil {
		return nil, nil
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("read the response body: %w", err)
	}
	return body, nil
}

// departure is the error of a response the document does not describe, with enough of
// the response to see why.
func departure(req *http.Request, resp *http.Response, body []byte, why string) error {
	const shown = 2000
	if len(body) > shown {
		body = append(body[:shown:shown], "..."...)
	}
	return fmt.Errorf("the OpenAPI document does not describe the answer to %s %s: %d %s\n%s\nbody: %s",
		req.Method, req.URL.RequestURI(), resp.StatusCode, resp.Header.Get("Content-Type"), why, body)
}

// describe lists validation errors one a line, with each schema failure's place.
func describe(errs []*validationerrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "- %s: %s\n", e.Message, e.Reason)
		for _, f := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "  - %s at %s (schema %s)\n", f.Reason, f.FieldPath, f.KeywordLocation)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
