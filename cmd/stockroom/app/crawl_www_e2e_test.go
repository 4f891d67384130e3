package app

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	demostore "github.com/stockroom/stockroom/examples/demo-store"
)

// loopbackNames resolves the names it holds to loopback stores and no other.
type loopbackNames map[string]netip.Addr

func (n loopbackNames) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := n[host]; ok {
		return []netip.Addr{a}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// A store that lives on its www. name, crawled by its bare domain (the way a client names
// a vendor), is read on www.: only robots.txt and the home page, asked for on the bare
// domain, are redirected, every listing is found, and the catalog names everything by
// the vendor's canonical URLs. Read at the bare domain, as before, every page of the
// Shopify-like store was a redirect (14 of 30 requests), and the HTML store's later
// category pages were never listed, their links being on www. and the collection read on
// the bare domain (182 of 300 listings found).
func TestCrawlOfAStoreOnWWWReadsItThere(t *testing.T) {
	s, sites := wwwStack(t,
		demostore.Options{Kind: demostore.Shopify, Products: 300, Faults: demostore.Faults{WWW: true}},
		demostore.Options{Kind: demostore.HTML, Products: 300, Faults: demostore.Faults{WWW: true}},
		demostore.Options{Kind: demostore.JSONLD, Products: 300, Faults: demostore.Faults{WWW: true}},
	)
	for i, st := range s.fleet.Stores {
		t.Run(string(st.Kind()), func(t *testing.T) {
			s.t = t
			before := st.Stats()
			body := s.waitEnded("/v2/crawl/"+s.startCrawl(sites[i]), time.Minute)
			if body["status"] != "completed" {
				t.Fatalf("crawl of %s: %v %v", sites[i], body["status"], body["error"])
			}
			want := st.Catalog().Len()
			if got := num(field(body, "meta", "result", "listings_total")); got != want {
				t.Errorf("listings_total %d, want %d", got, want)
			}
			after := st.Stats()
			if redirected := after.ByStatus[http.StatusMovedPermanently] - before.ByStatus[http.StatusMovedPermanently]; redirected != 2 {
				t.Errorf("%d requests redirected to www., want 2 (robots.txt and the home page) of %d", redirected, after.Requests-before.Requests)
			}
			vendor := hostOf(sites[i])
			r := s.do("GET", "/v2/collections?page_size=100&vendor="+vendor, nil)
			collections, _ := r.body["data"].([]any)
			if len(collections) == 0 {
				t.Fatalf("no collections: %s", r.raw)
			}
			for _, c := range collections {
				u, _ := url.Parse(c.(map[string]any)["url"].(string))
				if u.Hostname() != vendor {
					t.Errorf("collection %s is not named on the vendor's host %s", u, vendor)
				}
			}
			q := url.Values{"vendor": {vendor}, "collection_url": {collections[0].(map[string]any)["url"].(string)}, "page_size": {"1"}}
			if r := s.do("GET", "/v2/listings?"+q.Encode(), nil); num(field(r.body, "pagination", "total_items")) == 0 {
				t.Errorf("no listings linked to %v: %s", q, r.raw)
			}
		})
	}
}

// wwwStack starts stores that live on their www. name and a service that knows them as
// shop{i}.test and www.shop{i}.test; sites are their bare-domain URLs, in order.
func wwwStack(t *testing.T, stores ...demostore.Options) (s *stack, sites []string) {
	t.Helper()
	ctx := t.Context()
	fleet, err := demostore.Launch(ctx, stores...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fleet.Stop)
	names := loopbackNames{}
	var addresses, noDelay []string
	for i, st := range fleet.Stores {
		address := strings.TrimPrefix(st.BaseURL, "http://")
		ip, port, _ := net.SplitHostPort(address)
		name := fmt.Sprintf("shop%d.test", i)
		names[name], names["www."+name] = netip.MustParseAddr(ip), netip.MustParseAddr(ip)
		addresses = append(addresses, address)
		noDelay = append(noDelay, name+":"+port, "www."+name+":"+port)
		sites = append(sites, "http://"+name+":"+port)
	}
	base, key, _ := serveResolving(ctx, t, names,
		"STOCKROOM_FETCH__ALLOW="+strings.Join(addresses, ","), "STOCKROOM_FETCH__NO_DELAY_HOSTS="+strings.Join(noDelay, ","))
	return &stack{t: t, base: base, key: key, fleet: fleet}, sites
}

// An extraction of the listings of a store on www., which the catalog names by their
// canonical URLs (on the bare domain), asks for each product on www. and through no
// redirect: the crawl kept each listing's own URL beside as its page URL, which the
// extraction's items are (before: 90 of the extraction's 180 requests were redirects).
// Each product is still stored under its canonical URL.
func TestExtractionOfAStoreOnWWWAsksItThere(t *testing.T) {
	s, sites := wwwStack(t, demostore.Options{Kind: demostore.Shopify, Products: 60, Faults: demostore.Faults{WWW: true}})
	st := s.fleet.Stores[0]
	if body := s.waitEnded("/v2/crawl/"+s.startCrawl(sites[0]), time.Minute); body["status"] != "completed" {
		t.Fatalf("crawl: %v %v", body["status"], body["error"])
	}
	before := st.Stats()
	r := s.do("POST", "/v2/extract", map[string]any{"vendor": hostOf(sites[0]), "max_products": 30})
	if r.status != 202 {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	body := s.waitEnded("/v2/extract/"+r.body["execution_id"].(string)+"?page_size=100", time.Minute)
	if body["status"] != "completed" || num(field(body, "meta", "result", "products_successful")) != 30 {
		t.Fatalf("extraction: %v %v", body["status"], field(body, "meta", "result"))
	}
	after := st.Stats()
	if redirected := after.ByStatus[http.StatusMovedPermanently] - before.ByStatus[http.StatusMovedPermanently]; redirected != 0 {
		t.Errorf("%d of %d requests redirected to www., want none", redirected, after.Requests-before.Requests)
	}
	items, _ := body["data"].([]any)
	if len(items) != 30 {
		t.Fatalf("%d items, want 30", len(items))
	}
	for _, it := range items {
		item := it.(map[string]any)
		page, _ := url.Parse(item["url"].(string))
		product, _ := url.Parse(field(item, "product", "url").(string))
		if page.Hostname() != "www."+hostOf(sites[0]) || product.Hostname() != hostOf(sites[0]) || page.Path != product.Path {
			t.Fatalf("item %s holds product %s, want the page on www. and the product under its canonical URL", page, product)
		}
	}
}
