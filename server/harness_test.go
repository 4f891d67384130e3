package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/stockroom/stockroom/core/access"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/server"
	"github.com/stockroom/stockroom/server/openapi/openapitest"
	"github.com/stockroom/stockroom/storage/postgres"
	"github.com/stockroom/stockroom/storage/postgres/postgrestest"
	"github.com/stockroom/stockroom/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

// env is one API over a fresh database, with one organization and key ready.
type env struct {
	t       *testing.T
	pool    *pgxpool.Pool
	access  *access.Service
	catalog *catalog.Service
	api     *server.Server
	key     string
	org     access.Organization
}

type envOptions struct {
	deps func(*server.Deps)
	opts server.Options
}

func newEnv(t *testing.T, o envOptions) *env {
	t.Helper()
	pool := postgrestest.Migrated(t, postgres.PoolOptions{})
	e := &env{t: t, pool: pool}
	e.access = access.NewService(postgres.NewAccessStore(pool), access.ServiceOptions{CacheTTL: -1})
	e.catalog = catalog.NewService(postgres.NewCatalogStore(pool))
	e.org, e.key = e.newOrg("acme")
	deps := server.Deps{Access: e.access, Catalog: e.catalog}
	if o.deps != nil {
		o.deps(&deps)
	}
	e.api = server.New(deps, o.opts)
	return e
}

// newOrg creates an organization with credits and auto top-up, and a key for it.
func (e *env) newOrg(name string) (access.Organization, string) {
	e.t.Helper()
	ctx := context.Background()
	org, err := e.access.Store().CreateOrganization(ctx, name, 1000, true)
	if err != nil {
		e.t.Fatal(err)
	}
	_, secret, err := e.access.IssueKey(ctx, name, "test")
	if err != nil {
		e.t.Fatal(err)
	}
	return org, secret
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("response is not a JSON object: %v\n%s", err, r.body)
	}
	return m
}

// do sends a request with the env's key. body may be nil, a string (sent as is) or a value
// (sent as JSON).
func (e *env) do(method, path string, body any) response {
	return e.doWithHeaders(method, path, body, map[string]string{"x-api-key": e.key})
}

func (e *env) doWithHeaders(method, path string, body any, headers map[string]string) response {
	e.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = bytes.NewBufferString(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		r = bytes.NewReader(raw)
	}
	req := httptest.NewRequest(method, path, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := e.api.App().Test(req, -1)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	if err := e.checker().Check(req, resp); err != nil {
		e.t.Error(err)
	}
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: raw}
}

// checker checks every response the tests receive against the OpenAPI document, so that
// the document cannot drift from the code.
func (e *env) checker() *openapitest.Checker {
	e.t.Helper()
	c, err := openapitest.Shared()
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// client is an HTTP client for the API served by listen, checking every response against
// the OpenAPI document.
func (e *env) client() *http.Client {
	return &http.Client{Transport: e.checker().Transport(e.t, nil)}
}

// seedVendor writes a vendor with collections of the given sizes; listing i of collection c
// is https://HOST/products/c-i. It returns the collection URLs in the order given.
func (e *env) seedVendor(host string, sizes ...int) []string {
	e.t.Helper()
	ctx := context.Background()
	store := e.catalog.Store()
	at := time.Now()
	var inputs []catalog.CollectionInput
	var urls []string
	for c, n := range sizes {
		n := n
		u := fmt.Sprintf("https://%s/collections/c%d", host, c)
		urls = append(urls, u)
		inputs = append(inputs, catalog.CollectionInput{URL: u, Title: fmt.Sprintf("C%d", c), ProductsTotal: &n})
	}
	if err := store.UpsertCollections(ctx, host, inputs, at); err != nil {
		e.t.Fatal(err)
	}
	for c, n := range sizes {
		var ls []catalog.ListingInput
		for i := 0; i < n; i++ {
			ls = append(ls, catalog.ListingInput{
				URL: fmt.Sprintf("https://%s/products/c%d-%d", host, c, i), Name: fmt.Sprintf("Product %d-%d", c, i),
				Price:          &catalog.Price{Currency: "USD", Current: 10 + float64(i)},
				CollectionURLs: []string{urls[c]},
			})
		}
		if err := store.UpsertListings(ctx, host, ls, at); err != nil {
			e.t.Fatal(err)
		}
	}
	return urls
}

// listen serves the API on a loopback port until the test ends and returns its base URL.
func (e *env) listen() string {
	e.t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.t.Fatal(err)
	}
	go func() { _ = e.api.App().Listener(l) }()
	e.t.Cleanup(func() { _ = e.api.App().ShutdownWithTimeout(5 * time.Second) })
	return "http://" + l.Addr().String()
}

type catalogListing = catalog.ListingInput

var ctxBG = context.Background()

func nowUTC() time.Time { return time.Now().UTC() }
