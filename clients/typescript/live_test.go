// Package typescript_test runs the TypeScript client's own tests (npm test) against a
// live service that it starts: `make test` runs them this way.
package typescript_test

import (
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/stockroom/stockroom/cmd/stockroom/stacktest"
	"github.com/stockroom/stockroom/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

func TestTypeScriptClientAgainstALiveService(t *testing.T) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("Node.js and npm are not installed: the TypeScript client is not tested")
	}
	if _, err := os.Stat("node_modules/.package-lock.json"); err != nil {
		t.Fatal("the TypeScript client's packages are not installed: run `make clients-deps` (make test does)")
	}
	stack := stacktest.Start(t, stacktest.Options{})
	cmd := exec.CommandContext(t.Context(), npm, "test")
	cmd.Env = append(os.Environ(),
		"STOCKROOM_URL="+stack.URL,
		"STOCKROOM_API_KEY="+stack.Key,
		"STOCKROOM_DEMO_STORE_URL="+stack.Store.BaseURL,
		"STOCKROOM_DEMO_STORE_PRODUCTS="+strconv.Itoa(stack.Store.Catalog().Len()),
	)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm test: %v\n%s", err, out)
	}
	t.Logf("npm test:\n%s", out)
}
