package app_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"github.com/stockroom/stockroom/cmd/stockroom/app"
	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/storage/storagetest"
)

// A whole service, started in a test: over empty databases of its own, on a free loopback
// port, stopped before the test ends. The databases are on the servers the package's
// TestMain found or started (storagetest.Main); a deployed service is configured the same
// way, from DATABASE_URL and CLICKHOUSE_URL.
func Example() {
	ctx := context.Background()
	postgresURL, dropPostgres, err := storagetest.CreatePostgres(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dropPostgres()
	clickhouseURL, dropClickHouse, err := storagetest.CreateClickHouse(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dropClickHouse()
	dir, err := os.MkdirTemp("", "stockroom-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	address, err := freeLoopbackAddress()
	if err != nil {
		fmt.Println(err)
		return
	}

	cfg, err := configs.Load("", []string{
		"DATABASE_URL=" + postgresURL,
		"CLICKHOUSE_URL=" + clickhouseURL,
		"STOCKROOM_SERVER__ADDRESS=" + address,
		"STOCKROOM_USAGE__SPOOL_DIR=" + filepath.Join(dir, "usage-spool"),
		// Compiled adapters are kept where the package's other tests keep them, so that
		// only the first service of a run compiles them.
		"STOCKROOM_ADAPTERS__CACHE_DIR=" + filepath.Join(os.TempDir(), "stockroom-test-adapter-cache"),
		"STOCKROOM_LOG__LEVEL=warn",
		// Metrics on a port of the system's choosing (svc.MetricsURL says which).
		"STOCKROOM_METRICS__LISTEN=127.0.0.1:0",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	svc, err := app.New(ctx, cfg, app.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer svc.Close()
	if err := svc.Migrate(ctx); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := svc.Access().EnsureOrganization(ctx, "example", 100, false); err != nil {
		fmt.Println(err)
		return
	}
	_, key, err := svc.Access().IssueKey(ctx, "example", "example key")
	if err != nil {
		fmt.Println(err)
		return
	}

	// Start returns once the API accepts connections; the service stops when runCtx ends.
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	if err := svc.Start(runCtx); err != nil {
		fmt.Println(err)
		return
	}
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+address+"/v2/vendors", nil)
	req.Header.Set("x-api-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
	} else {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.Status)
		fmt.Println(string(body))
	}
	stop()
	if err := svc.Wait(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 200 OK
	// {"data":[],"pagination":{"page":1,"page_size":20,"total_items":0,"total_pages":0,"has_next":false,"has_prev":false},"meta":{}}
}

// freeLoopbackAddress is an address on loopback that nothing listens on, as of now.
func freeLoopbackAddress() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}
