package demostore

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"
)

// RunCommand is the demo-store command line, shared by `stockroom demo-store` and the
// standalone examples/demo-store/cmd/demo-store. It starts the selected stores, prints
// one line per store ("shopify http://127.0.0.2:8090 ..."), and serves until ctx is done.
// name is the program name flag errors and -h show.
func RunCommand(ctx context.Context, name string, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	kinds := fs.String("kinds", "shopify,jsonld,html,woocommerce,magento,headless,script", "store kinds to start, comma-separated (shopify, jsonld, html, sitemap, woocommerce, magento, headless, script)")
	products := fs.Int("products", 1000, "products per generated store")
	seed := fs.Uint64("seed", 1, "catalogue seed; the same seed serves the same products")
	port := fs.Int("port", 8090, "port every store listens on, each on its own loopback address (0: any free port)")
	var addrs multiFlag
	fs.Var(&addrs, "addr", "KIND=HOST:PORT listen address for one kind, repeatable (default 127.0.0.2/.3/.4/.9/.10/.11/.12/.13 for shopify/jsonld/html/sitemap/woocommerce/magento/headless/script)")
	catalogPath := fs.String("catalog", "", "serve this Shopify products.json (array or {\"products\": [...]}) instead of a generated catalogue")
	currency := fs.String("currency", "", "ISO 4217 currency the pages announce (default USD; EUR for woocommerce and headless, GBP for magento)")
	pageSize := fs.Int("page-size", 24, "products per category page")
	latency := fs.Duration("latency", 0, "fault: latency added to every answer")
	burst := fs.Int("rate-limit-burst", 0, "fault: answer this many requests in a row with 429")
	every := fs.Int("rate-limit-every", 0, "fault: ... after every this many answered requests (0: only at start)")
	retry := fs.Duration("retry-after", time.Second, "fault: Retry-After announced with 429 and 503")
	errRate := fs.Float64("error-rate", 0, "fault: fraction of requests answered 500/502/503 (0..1)")
	botWall := fs.String("bot-wall", "", "fault: path prefix behind a Cloudflare-like challenge (\"/\" for everything)")
	disallow := fs.String("robots-disallow", "", "fault: comma-separated path prefixes robots.txt disallows, e.g. /collections/sale")
	slow := fs.Duration("slow-delay", 30*time.Second, "fault: how long the slow-product page takes")
	www := fs.Bool("www", false, "fault: redirect (301) a request naming a host without www. to www.{host}, as a store that lives on www. does")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	override := map[Kind]string{}
	for _, a := range addrs {
		k, addr, ok := strings.Cut(a, "=")
		if !ok || !validKind(Kind(k)) {
			return fmt.Errorf("-addr %q: want KIND=HOST:PORT with KIND one of %v", a, Kinds)
		}
		override[Kind(k)] = addr
	}
	faults := Faults{Latency: *latency, RateLimit: RateLimit{Burst: *burst, Every: *every, RetryAfter: *retry},
		ErrorRate: *errRate, BotWall: *botWall, SlowDelay: *slow, WWW: *www}
	for p := range strings.SplitSeq(*disallow, ",") {
		if p = strings.TrimSpace(p); p != "" {
			faults.RobotsDisallow = append(faults.RobotsDisallow, p)
		}
	}
	var cat *Catalog
	if *catalogPath != "" {
		var err error
		if cat, err = LoadShopify(*catalogPath); err != nil {
			return err
		}
	}
	var opts []Options
	for k := range strings.SplitSeq(*kinds, ",") {
		kind := Kind(strings.TrimSpace(k))
		if kind == "" {
			continue
		}
		if !validKind(kind) {
			return fmt.Errorf("-kinds: unknown kind %q (want one of %v)", kind, Kinds)
		}
		addr := override[kind]
		if addr == "" {
			addr = net.JoinHostPort(DefaultHost(kind), strconv.Itoa(*port))
		}
		opts = append(opts, Options{Kind: kind, Products: *products, Seed: *seed, Catalog: cat,
			Currency: *currency, PageSize: *pageSize, Addr: addr, Faults: faults})
	}
	if len(opts) == 0 {
		return ErrNoStores
	}
	fleet, err := Launch(ctx, opts...)
	if err != nil {
		return err
	}
	defer fleet.Stop()
	for _, r := range fleet.Stores {
		fmt.Fprintf(stdout, "%-8s %s  %s, %d products, %d collections (faults: %s/_demo/faults.json)\n",
			r.Kind(), r.BaseURL, r.Name(), r.Catalog().Len(), len(r.Catalog().Collections()), r.BaseURL)
	}
	<-ctx.Done()
	return nil
}

func validKind(k Kind) bool { return slices.Contains(Kinds, k) }

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
