package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/failure"
)

// body is a request's JSON object, read field by field so that a wrong type names its field.
// Fields the endpoint does not know are ignored, so that newer clients keep working.
type body map[string]json.RawMessage

func parseBody(c *fiber.Ctx) (body, error) {
	raw := bytes.TrimSpace(c.Body())
	if len(raw) == 0 {
		return body{}, nil
	}
	var b body
	if err := json.Unmarshal(raw, &b); err != nil {
		var typeErr *json.UnmarshalTypeError
		if asTypeErr(err, &typeErr) {
			return nil, failure.BadRequest("request body must be a JSON object")
		}
		return nil, failure.BadRequest("request body is not valid JSON: %v", err)
	}
	if b == nil { // the body was `null`
		return nil, failure.BadRequest("request body must be a JSON object")
	}
	return b, nil
}

func asTypeErr(err error, target **json.UnmarshalTypeError) bool {
	t, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*target = t
	}
	return ok
}

func (b body) present(name string) (json.RawMessage, bool) {
	raw, ok := b[name]
	if !ok || string(raw) == "null" {
		return nil, false
	}
	return raw, true
}

// field returns a field's JSON, nil when absent. A field with a NUL character in any of its
// text, keys included, is refused: Postgres stores no NUL in text, and no client means one.
func (b body) field(name string) (json.RawMessage, bool, error) {
	raw, ok := b.present(name)
	if !ok {
		return nil, false, nil
	}
	if path, found := nulIn(name, raw); found {
		return nil, false, errNUL(path)
	}
	return raw, true, nil
}

// nulIn returns the path of the first text in raw, the JSON of the field name, that holds a
// NUL character: the field itself, an element (urls[2]) or a member (customer_profile.style)
// whose value or key holds one.
func nulIn(name string, raw json.RawMessage) (string, bool) {
	// JSON can only write a NUL as an escape; without one, there is nothing to look for.
	if !bytes.Contains(raw, []byte(`\u0000`)) {
		return "", false
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false // the typed read reports what is wrong with it
	}
	return nulInValue(name, v)
}

func nulInValue(path string, v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return path, strings.IndexByte(v, 0) >= 0
	case []any:
		for i, e := range v {
			if p, found := nulInValue(path+"["+strconv.Itoa(i)+"]", e); found {
				return p, true
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if strings.IndexByte(k, 0) >= 0 {
				return path, true
			}
			if p, found := nulInValue(path+"."+k, v[k]); found {
				return p, true
			}
		}
	}
	return "", false
}

func errNUL(path string) error {
	return failure.OutOfRange(path, "must not contain NUL characters (\\u0000)")
}

// String returns a string field, "" when absent.
func (b body) String(name string) (string, error) {
	raw, ok, err := b.field(name)
	if err != nil || !ok {
		return "", err
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", failure.WrongType(name, "a string")
	}
	return s, nil
}

// Int returns a whole-number field, nil when absent. One too large for an int is refused
// as out of range: it is a whole number, just not one any parameter takes.
func (b body) Int(name string) (*int, error) {
	raw, ok, err := b.field(name)
	if err != nil || !ok {
		return nil, err
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || f != math.Trunc(f) {
		return nil, failure.WrongType(name, "a whole number")
	}
	if math.Abs(f) >= math.MaxInt64 {
		return nil, errTooLarge(name)
	}
	n := int(f)
	return &n, nil
}

func errTooLarge(name string) error { return failure.OutOfRange(name, "is too large") }

// Bool returns a boolean field, nil when absent.
func (b body) Bool(name string) (*bool, error) {
	raw, ok, err := b.field(name)
	if err != nil || !ok {
		return nil, err
	}
	var v bool
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, failure.WrongType(name, "true or false")
	}
	return &v, nil
}

// Float returns a number field, nil when absent.
func (b body) Float(name string) (*float64, error) {
	raw, ok, err := b.field(name)
	if err != nil || !ok {
		return nil, err
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, failure.WrongType(name, "a number")
	}
	return &f, nil
}

// Object returns an object field as a body of its own, nil when absent.
func (b body) Object(name string) (body, error) {
	raw, ok, err := b.field(name)
	if err != nil || !ok {
		return nil, err
	}
	var v body
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, failure.WrongType(name, "a JSON object")
	}
	return v, nil
}

// Strings returns an array-of-strings field, nil when absent.
func (b body) Strings(name string) ([]string, error) {
	raw, ok, err := b.field(name)
	if err != nil || !ok {
		return nil, err
	}
	var v []string
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, failure.WrongType(name, "an array of strings")
	}
	return v, nil
}

// params reads request parameters from a JSON body or a query string alike, so that one
// handler serves GET and POST forms of an endpoint.
type params interface {
	String(name string) (string, error)
	Int(name string) (*int, error)
	Strings(name string) ([]string, error)
}

// query reads parameters from the query string.
type query struct{ c *fiber.Ctx }

// String reads a parameter, refusing one that holds a NUL character as a body's fields are.
func (q query) String(name string) (string, error) {
	v := q.c.Query(name)
	if strings.IndexByte(v, 0) >= 0 {
		return "", errNUL(name)
	}
	return v, nil
}

func (q query) Int(name string) (*int, error) { return queryInt(q.c, name) }

// Strings reads a repeated parameter (?a=1&a=2).
func (q query) Strings(name string) ([]string, error) {
	var out []string
	for _, v := range q.c.Context().QueryArgs().PeekMulti(name) {
		if bytes.IndexByte(v, 0) >= 0 {
			return nil, errNUL(name)
		}
		out = append(out, string(v))
	}
	return out, nil
}

// fromQuery and fromBody pick where an endpoint's parameters come from.
func fromQuery(c *fiber.Ctx) (params, error) { return query{c}, nil }
func fromBody(c *fiber.Ctx) (params, error)  { return parseBody(c) }

// queryInt reads a whole-number query parameter, nil when absent.
func queryInt(c *fiber.Ctx, name string) (*int, error) {
	raw := c.Query(name)
	if raw == "" {
		return nil, nil
	}
	n, err := strconv.Atoi(raw)
	if errors.Is(err, strconv.ErrRange) {
		return nil, errTooLarge(name)
	}
	if err != nil {
		return nil, failure.WrongType(name, "a whole number")
	}
	return &n, nil
}
