package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/server"
)

// errorOf checks the documented error shape and returns its code and message.
func errorOf(t *testing.T, r response) (code, message string) {
	t.Helper()
	body := r.json(t)
	e, ok := body["error"].(map[string]any)
	if !ok {
		t.Fatalf("error body has no error object: %s", r.body)
	}
	rid := r.header.Get("Request-ID")
	if rid == "" || e["request_id"] != rid {
		t.Errorf("error request_id %v, header %q", e["request_id"], rid)
	}
	code, _ = e["code"].(string)
	message, _ = e["message"].(string)
	return code, message
}

func TestUnknownRouteIsNotFoundInTheErrorShape(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.do("GET", "/v2/nothing-here", nil)
	if code, _ := errorOf(t, r); r.status != 404 || code != "NOT_FOUND" {
		t.Fatalf("got %d %s", r.status, r.body)
	}
}

func TestBadBodiesAreRefusedClearly(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seedVendor("shop.example", 3)
	cases := []struct {
		name, body, code, mentions string
	}{
		{"malformed JSON", `{"vendor": "shop.example",`, "INVALID_REQUEST", "JSON"},
		{"not an object", `["shop.example"]`, "INVALID_REQUEST", "object"},
		{"null body", `null`, "INVALID_REQUEST", "object"},
		{"vendor of the wrong type", `{"vendor": 42}`, "INVALID_REQUEST", "vendor"},
		{"page of the wrong type", `{"vendor": "shop.example", "page": "2"}`, "INVALID_REQUEST", "page"},
		{"fractional page size", `{"vendor": "shop.example", "page_size": 2.5}`, "INVALID_REQUEST", "page_size"},
		{"collection_urls not an array", `{"vendor": "shop.example", "collection_urls": "x"}`, "INVALID_REQUEST", "collection_urls"},
		{"missing vendor", `{}`, "INVALID_REQUEST", "vendor"},
		{"vendor not a domain", `{"vendor": "not a domain"}`, "VALIDATION_ERROR", "vendor"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do("POST", "/v1/listings", c.body)
			code, msg := errorOf(t, r)
			if r.status != 400 || code != c.code || !strings.Contains(msg, c.mentions) {
				t.Errorf("got %d %s %q, want 400 %s mentioning %q", r.status, code, msg, c.code, c.mentions)
			}
		})
	}
}

func TestBodyOverTheLimitIs413(t *testing.T) {
	e := newEnv(t, envOptions{opts: server.Options{BodyLimit: 1024}})
	// Through a real listener: the limit is enforced while reading the connection.
	base := e.listen()
	huge := `{"vendor": "shop.example", "pad": "` + strings.Repeat("x", 4096) + `"}`
	req, _ := http.NewRequest("POST", base+"/v1/listings", strings.NewReader(huge))
	req.Header.Set("x-api-key", e.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := response{status: resp.StatusCode, header: resp.Header, body: raw}
	if code, _ := errorOf(t, r); r.status != fiber.StatusRequestEntityTooLarge || code != "PAYLOAD_TOO_LARGE" {
		t.Fatalf("got %d %s", r.status, r.body)
	}
}

func TestClientRequestIDIsKeptWhenSane(t *testing.T) {
	e := newEnv(t, envOptions{})
	r := e.doWithHeaders("GET", "/v2/vendors", nil, map[string]string{"x-api-key": e.key, "Request-ID": "client-abc.123"})
	if got := r.header.Get("Request-ID"); got != "client-abc.123" {
		t.Errorf("sane id replaced: %q", got)
	}
	r = e.doWithHeaders("GET", "/v2/vendors", nil, map[string]string{"x-api-key": e.key, "Request-ID": "bad id <script>"})
	if got := r.header.Get("Request-ID"); got == "" || strings.Contains(got, " ") {
		t.Errorf("insane id kept: %q", got)
	}
}
