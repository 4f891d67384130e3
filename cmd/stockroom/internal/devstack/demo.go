package devstack

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/stockroom/stockroom/core/access"
	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// Demo organization of `make run`.
const (
	demoOrganization = "demo"
	demoCredits      = 1_000_000
)

// demoKey returns the demo organization's key: the one remembered in run.env while it still
// works, else a new one (keys are stored hashed, so an old secret cannot be shown again).
func demoKey(ctx context.Context, svc *access.Service, runEnv string) (string, error) {
	if _, err := svc.EnsureOrganization(ctx, demoOrganization, demoCredits, true); err != nil {
		return "", fmt.Errorf("demo organization: %w", err)
	}
	if secret := readEnvFile(runEnv)["STOCKROOM_API_KEY"]; secret != "" {
		if _, err := svc.Authenticate(ctx, secret); err == nil {
			return secret, nil
		}
	}
	_, secret, err := svc.IssueKey(ctx, demoOrganization, "make run")
	return secret, err
}

func readEnvFile(path string) map[string]string {
	out := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			out[k] = v
		}
	}
	return out
}

// apiAddress is 127.0.0.1 on the port an earlier run used when it is free, else 8080, else a
// free one (remembered for next time).
func apiAddress(dataDir string) (string, error) {
	var address string
	err := onRememberedPort(dataDir, "api-port", "8080", "127.0.0.1", func(port string) error {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", port))
		if err != nil {
			return err
		}
		address = l.Addr().String()
		return l.Close()
	})
	if err != nil {
		return "", fmt.Errorf("no free port for the API: %w", err)
	}
	return address, nil
}

// demoStorePort is where `make run` serves its demo stores when no earlier run chose one.
const demoStorePort = "8090"

// demoCatalogs are the demo stores `make run` serves.
var demoCatalogs = []demostore.Options{
	{Kind: demostore.Shopify, Products: 1000},
	{Kind: demostore.JSONLD, Products: 300},
	{Kind: demostore.HTML, Products: 300},
	{Kind: demostore.Sitemap, Products: 300},
	{Kind: demostore.WooCommerce, Products: 300},
	{Kind: demostore.Magento, Products: 300},
	{Kind: demostore.Headless, Products: 300},
	{Kind: demostore.Script, Products: 300},
}

// demoStores starts `make run`'s demo stores, each on its loopback address and all on one
// port: an earlier run's when it is free, else preferred, else one found free (remembered
// for next time). A second run then serves the same URLs, and crawling them again
// refreshes what the first run put in the catalog: on new ports every run, a store's
// collections were added to its vendor once more (the vendor is the host, a collection is a
// URL with the port) and the old ones stayed.
func demoStores(ctx context.Context, dataDir, preferred string) (*demostore.Fleet, error) {
	var fleet *demostore.Fleet
	err := onRememberedPort(dataDir, "demo-port", preferred, demostore.DefaultHost(demostore.Shopify), func(port string) error {
		opts := slices.Clone(demoCatalogs)
		for i := range opts {
			opts[i].Addr = net.JoinHostPort(demostore.DefaultHost(opts[i].Kind), port)
		}
		var err error
		fleet, err = demostore.Launch(ctx, opts...)
		return err
	})
	if err != nil {
		if fleet != nil { // started, but its port could not be remembered
			fleet.Stop()
		}
		return nil, err
	}
	return fleet, nil
}

// onRememberedPort calls start with a port until it succeeds: the one remembered in
// dataDir/name by an earlier run, then preferred, then ports free on host at the time
// (three tries, as another program may take one meanwhile). It remembers the port that
// started. A preferred of "0" means none.
func onRememberedPort(dataDir, name, preferred, host string, start func(port string) error) error {
	file := filepath.Join(dataDir, name)
	var candidates []string
	if b, err := os.ReadFile(file); err == nil {
		candidates = append(candidates, strings.TrimSpace(string(b)))
	}
	candidates = append(candidates, preferred, "", "", "") // "": free on host now
	lastErr := errors.New("no port to try")
	for _, port := range candidates {
		if port == "" {
			free, err := freePort(host)
			if err != nil {
				lastErr = err
				continue
			}
			port = free
		}
		if n, err := strconv.Atoi(port); err != nil || n <= 0 {
			continue
		}
		if err := start(port); err != nil {
			lastErr = err
			continue
		}
		return os.WriteFile(file, []byte(port+"\n"), 0o644)
	}
	return lastErr
}

// freePort returns a port nothing listens on at host, as of now.
func freePort(host string) (string, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", err
	}
	defer l.Close()
	_, port, err := net.SplitHostPort(l.Addr().String())
	return port, err
}
