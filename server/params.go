package server

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

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

// String returns a string field, "" when absent.
func (b body) String(name string) (string, error) {
	raw, ok := b.present(name)
	if !ok {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", failure.WrongType(name, "a string")
	}
	return s, nil
}

// Int returns a whole-number field, nil when absent.
func (b body) Int(name string) (*int, error) {
	raw, ok := b.present(name)
	if !ok {
		return nil, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return nil, failure.WrongType(name, "a whole number")
	}
	n := int(f)
	return &n, nil
}

// Bool returns a boolean field, nil when absent.
func (b body) Bool(name string) (*bool, error) {
	raw, ok := b.present(name)
	if !ok {
		return nil, nil
	}
	var v bool
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, failure.WrongType(name, "true or false")
	}
	return &v, nil
}

// Float returns a number field, nil when absent.
func (b body) Float(name string) (*float64, error) {
	raw, ok := b.present(name)
	if !ok {
		return nil, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, failure.WrongType(name, "a number")
	}
	return &f, nil
}

// Object returns an object field as a body of its own, nil when absent.
func (b body) Object(name string) (body, error) {
	raw, ok := b.present(name)
	if !ok {
		return nil, nil
	}
	var v body
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, failure.WrongType(name, "a JSON object")
	}
	return v, nil
}

// Strings returns an array-of-strings field, nil when absent.
func (b body) Strings(name string) ([]string, error) {
	raw, ok := b.present(name)
	if !ok {
		return nil, nil
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

func (q query) String(name string) (string, error) { return q.c.Query(name), nil }
func (q query) Int(name string) (*int, error)      { return queryInt(q.c, name) }

// Strings reads a repeated parameter (?a=1&a=2).
func (q query) Strings(name string) ([]string, error) {
	var out []string
	for _, v := range q.c.Context().QueryArgs().PeekMulti(name) {
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
	if err != nil {
		return nil, failure.WrongType(name, "a whole number")
	}
	return &n, nil
}
