package crawl

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stockroom/stockroom/core/adapter"
	"github.com/stockroom/stockroom/core/catalog"
	"github.com/stockroom/stockroom/core/product"
)

const shop = "https://shop.example"

// pageSite is a store of pages in a plain form the textShop adapter reads: "category"
// and the URLs of its products a line each, "product TITLE PRICE", or anything else for
// a page that is neither. Pages not in it answer 404; pages in status answer that. It
// counts the fetches of each URL.
type pageSite struct {
	pages  map[string]string
	status map[string]int
	mu     sync.Mutex
	counts map[string]int
	order  []string
}

func (s *pageSite) Fetch(ctx context.Context, u string) (*adapter.Document, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[u]++
	s.order = append(s.order, u)
	s.mu.Unlock()
	switch st := s.status[u]; st {
	case 0:
	case http.StatusForbidden:
		return &adapter.Document{URL: u, Status: st, Header: http.Header{}, Blocked: true, Err: "fetch " + u + ": automated access not permitted"}, nil
	default:
		return &adapter.Document{URL: u, Status: st, Header: http.Header{}}, nil
	}
	body, ok := s.pages[u]
	if !ok {
		return &adapter.Document{URL: u, Status: http.StatusNotFound, Header: http.Header{}}, nil
	}
	return &adapter.Document{URL: u, Status: http.StatusOK, Header: http.Header{}, Body: []byte(body)}, nil
}

func (s *pageSite) fetches(u string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[u]
}

// textShop is a generic adapter of pageSite's pages: its home page's menu links are
// menu, category pages list their lines, product pages extract.
type textShop struct{ menu []string }

func (textShop) Info() adapter.Info {
	return adapter.Info{Name: "text", Capabilities: []adapter.Op{adapter.OpDiscover, adapter.OpList, adapter.OpExtract}}
}

func (a textShop) Call(_ context.Context, req *adapter.Request) (*adapter.Response, error) {
	switch req.Op {
	case adapter.OpDiscover:
		resp := &adapter.Response{}
		for _, u := range a.menu {
			resp.Collections = append(resp.Collections, adapter.Collection{URL: u})
		}
		return resp, nil
	case adapter.OpList:
		if req.Round == 0 {
			return &adapter.Response{Fetch: []string{req.URL}}, nil
		}
		d := req.Docs[0]
		if d.Status != http.StatusOK {
			return &adapter.Response{Outcome: adapter.Other, Message: fmt.Sprintf("page %s: status %d", d.URL, d.Status)}, nil
		}
		lines := strings.Split(string(d.Body), "\n")
		resp := &adapter.Response{}
		if lines[0] == "category" {
			for _, u := range lines[1:] {
				resp.Listings = append(resp.Listings, adapter.Listing{URL: u})
			}
		}
		return resp, nil
	}
	f := strings.Fields(string(req.Docs[0].Body))
	if len(f) != 3 || f[0] != "product" {
		return &adapter.Response{Outcome: adapter.NonProductURL, Message: "no product"}, nil
	}
	price, _ := strconv.ParseFloat(f[2], 64)
	title := f[1]
	return &adapter.Response{Product: &product.Product{Title: &title, Price: &product.Price{Current: price, Currency: "EUR"}}}, nil
}

func urlsetOf(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">`)
	for _, l := range locs {
		loc, alt, _ := strings.Cut(l, " ")
		b.WriteString("<url><loc>" + loc + "</loc>")
		if alt != "" {
			b.WriteString(`<xhtml:link rel="alternate" hreflang="de" href="` + alt + `"/>`)
		}
		b.WriteString("</url>")
	}
	return b.String() + "</urlset>"
}

func indexOf(locs ...string) string {
	var b strings.Builder
	b.WriteString("<sitemapindex>")
	for _, l := range locs {
		b.WriteString("<sitemap><loc>" + l + "</loc></sitemap>")
	}
	return b.String() + "</sitemapindex>"
}

func gz(s string) string {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

// sitemapShop is a store whose home page links no category, only a menu page: its
// categories and products are in a nested, partly gzipped sitemap index announced in
// robots.txt. Shoes and hats are categories by their address; /sale is one only its page
// tells; /desk-lamp is a product only its page tells, /story neither; the scarf and the
// sale item are in no category but /sale; /p/gone is a product the sitemap still names
// after it went; /de/p/boot is the boot in German.
func sitemapShop() *pageSite {
	return &pageSite{pages: map[string]string{
		shop + "/":                        "home",
		shop + "/robots.txt":              "User-agent: *\nDisallow: /cart\nSitemap: " + shop + "/sitemaps/index.xml\n",
		shop + "/sitemaps/index.xml":      indexOf(shop+"/sitemaps/catalog.xml.gz", shop+"/sitemaps/pages.xml", shop+"/sitemaps/misc.xml"),
		shop + "/sitemaps/catalog.xml.gz": gz(indexOf(shop+"/sitemaps/categories.xml", shop+"/sitemaps/products-1.xml.gz")),
		shop + "/sitemaps/categories.xml": urlsetOf(shop+"/c/shoes", shop+"/c/hats"),
		shop + "/sitemaps/products-1.xml.gz": gz(urlsetOf(shop+"/p/boot "+shop+"/de/p/boot", shop+"/p/sandal", shop+"/p/cap",
			shop+"/p/scarf", shop+"/de/p/boot "+shop+"/p/boot", shop+"/p/gone")),
		shop + "/sitemaps/pages.xml": urlsetOf(shop+"/", shop+"/info/shipping", shop+"/info/about"),
		shop + "/sitemaps/misc.xml":  urlsetOf(shop+"/sale", shop+"/desk-lamp", shop+"/story"),
		shop + "/c/shoes":            "category\n" + shop + "/p/boot\n" + shop + "/p/sandal",
		shop + "/c/hats":             "category\n" + shop + "/p/cap",
		shop + "/sale":               "category\n" + shop + "/p/scarf\n" + shop + "/p/sale-item",
		shop + "/p/boot":             "product Boot 80",
		shop + "/de/p/boot":          "product Stiefel 80",
		shop + "/p/sandal":           "product Sandal 40",
		shop + "/p/cap":              "product Cap 15",
		shop + "/p/scarf":            "product Scarf 20",
		shop + "/p/sale-item":        "product Sale 5",
		shop + "/desk-lamp":          "product Lamp 35.5",
		shop + "/story":              "our story",
		shop + "/info/shipping":      "shipping",
	}}
}

// listingCatalog is siteCatalog that also answers Listings from what was written, as a
// resumed crawl asks.
type listingCatalog struct {
	siteCatalog
	names  map[string]string
	prices map[string]*catalog.Price
}

func (c *listingCatalog) UpsertListings(ctx context.Context, vendor string, ls []catalog.ListingInput, at time.Time) error {
	if err := c.siteCatalog.UpsertListings(ctx, vendor, ls, at); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.names == nil {
		c.names, c.prices = map[string]string{}, map[string]*catalog.Price{}
	}
	for _, l := range ls {
		if !l.Unchanged {
			c.names[l.URL], c.prices[l.URL] = l.Name, l.Price
		}
	}
	return nil
}

func (c *listingCatalog) Listings(_ context.Context, q catalog.ListingQuery) ([]catalog.Listing, int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var all []catalog.Listing
	seen := map[string]bool{}
	for _, link := range c.links {
		u, col, _ := strings.Cut(link, " in ")
		if slices.Contains(q.CollectionURLs, col) && !seen[u] {
			seen[u] = true
			all = append(all, catalog.Listing{URL: u})
		}
	}
	from := min(q.Page.Offset(), len(all))
	return all[from:min(from+q.Page.Size, len(all))], len(all), nil
}

func (c *listingCatalog) linked(collection string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, link := range c.links {
		if u, col, _ := strings.Cut(link, " in "); col == collection {
			out = append(out, strings.TrimPrefix(u, shop))
		}
	}
	slices.Sort(out)
	return out
}

func quietPipeline(site adapter.Fetcher, store catalog.Store, mods ...adapter.Module) *Pipeline {
	quiet := slog.New(slog.DiscardHandler)
	return NewPipeline(&adapter.Set{Source: modules(mods), Fetcher: site, Logger: quiet}, store, nil, PipelineOptions{Collections: 2, Logger: quiet})
}

// A store whose home page links no category is crawled from its sitemaps: the
// categories they name are listed, the pages their addresses do not explain are read to
// tell what they are, and the products no category lists are read from their own pages,
// into a collection named after the sitemap. Products a category lists are not fetched,
// a language version of a product is not a product of its own, and a menu link to a page
// the sitemaps show is not a category is no collection.
func TestCrawlOfAStoreWithoutCategoryLinksReadsItsSitemaps(t *testing.T) {
	site := sitemapShop()
	store := &listingCatalog{}
	p := quietPipeline(site, store, textShop{menu: []string{shop + "/info/shipping"}})
	res, err := p.crawl(context.Background(), crawlJob("shop.example"))
	if err != nil {
		t.Fatal(err)
	}
	r := res.(Result)
	index := shop + "/sitemaps/index.xml"
	want := map[string][]string{
		shop + "/c/shoes": {"/p/boot", "/p/sandal"},
		shop + "/c/hats":  {"/p/cap"},
		shop + "/sale":    {"/p/sale-item", "/p/scarf"},
		index:             {"/desk-lamp"},
	}
	slices.Sort(store.collections)
	if wantCols := slices.Sorted(maps.Keys(want)); !slices.Equal(store.collections, wantCols) {
		t.Errorf("collections %q, want %q", store.collections, wantCols)
	}
	for col, listings := range want {
		if got := store.linked(col); !slices.Equal(got, listings) {
			t.Errorf("%s holds %q, want %q", col, got, listings)
		}
	}
	if r.CollectionsTotal != 4 || r.ListingsTotal != 6 {
		t.Errorf("result %d collections, %d listings; want 4 and 6", r.CollectionsTotal, r.ListingsTotal)
	}
	if got := store.prices[shop+"/desk-lamp"]; store.names[shop+"/desk-lamp"] != "Lamp" || got == nil || got.Current != 35.5 || got.Currency != "EUR" {
		t.Errorf("the lamp read from its page: %q at %+v", store.names[shop+"/desk-lamp"], got)
	}
	for u, n := range map[string]int{
		"/p/boot": 0, "/p/sandal": 0, "/p/cap": 0, "/p/scarf": 0, "/de/p/boot": 0, "/info/shipping": 0, // listed, or not products
		"/desk-lamp": 1, "/p/gone": 1, // read once each
		"/story":              2, // read, then tried as a collection
		"/sale":               3, // read, tried as a collection, listed
		"/sitemaps/index.xml": 1, "/sitemaps/catalog.xml.gz": 1, "/sitemaps/products-1.xml.gz": 1,
	} {
		if got := site.fetches(shop + u); got != n {
			t.Errorf("%s fetched %d times, want %d", u, got, n)
		}
	}
	m := r.Method
	if m == nil || m.Source != SourceSitemap {
		t.Fatalf("method %+v, want source %q", m, SourceSitemap)
	}
	for _, says := range []string{"the home page links no category (and 1 page its sitemaps show to be none)",
		"the sitemaps robots.txt names (" + index + "), 6 files of 14 URLs, name 2 categories and 8 pages that may be products, of which 1 was a category",
		"; 1 product in no category read from their own pages"} {
		if !strings.Contains(m.Reason, says) {
			t.Errorf("reason %q does not say %q", m.Reason, says)
		}
	}
}

// A crawl resumed after its categories were listed does not read again the products
// they hold: it asks the catalog what they listed.
func TestResumedSitemapCrawlReadsOnlyWhatNoCategoryListed(t *testing.T) {
	store := &listingCatalog{}
	if _, err := quietPipeline(sitemapShop(), store, textShop{}).crawl(context.Background(), crawlJob("shop.example")); err != nil {
		t.Fatal(err)
	}
	site := sitemapShop()
	job := crawlJob("shop.example")
	job.Progress, _ = json.Marshal(Progress{ListingsFound: 3, Done: []string{shop + "/c/shoes", shop + "/c/hats"}})
	res, err := quietPipeline(site, store, textShop{}).crawl(context.Background(), job)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"/c/shoes", "/c/hats", "/p/boot", "/p/sandal", "/p/cap"} {
		if n := site.fetches(shop + u); n != 0 {
			t.Errorf("%s fetched %d times by the resumed crawl", u, n)
		}
	}
	if n := site.fetches(shop + "/desk-lamp"); n != 1 {
		t.Errorf("the lamp fetched %d times, want once", n)
	}
	if r := res.(Result); r.ListingsTotal != 6 || r.CollectionsTotal != 4 {
		t.Errorf("resumed result %+v, want 4 collections and 6 listings", r)
	}
}

// shopPlatform is a platform adapter that detects every site and names one collection.
type shopPlatform struct{}

func (shopPlatform) Info() adapter.Info {
	return adapter.Info{Name: "shopplatform", Platforms: []string{"shop"},
		Capabilities: []adapter.Op{adapter.OpDetect, adapter.OpDiscover, adapter.OpList}}
}

func (shopPlatform) Call(ctx context.Context, req *adapter.Request) (*adapter.Response, error) {
	switch req.Op {
	case adapter.OpDetect:
		return &adapter.Response{Detection: &adapter.Detection{Platform: "shop", Confidence: 0.9}}, nil
	case adapter.OpDiscover:
		return &adapter.Response{Collections: []adapter.Collection{{URL: shop + "/c/shoes"}}}, nil
	}
	return textShop{}.Call(ctx, req)
}

// A store whose platform adapter names its collections from the platform's own catalog
// is crawled from that alone: its sitemaps are not read.
func TestCrawlOfAPlatformStoreReadsNoSitemap(t *testing.T) {
	site := sitemapShop()
	res, err := quietPipeline(site, &listingCatalog{}, shopPlatform{}, textShop{}).crawl(context.Background(), crawlJob("shop.example"))
	if err != nil {
		t.Fatal(err)
	}
	if n := site.fetches(shop + "/robots.txt"); n != 0 {
		t.Errorf("robots.txt fetched %d times for its sitemaps", n)
	}
	m := res.(Result).Method
	if m.Source != SourcePlatform || m.Reason != "the shopplatform adapter named 1 collection from the store's own catalog" {
		t.Errorf("method %+v", m)
	}
}

// Categories the home page links and more the sitemaps name are listed together.
func TestCrawlCombinesLinksAndSitemaps(t *testing.T) {
	res, err := quietPipeline(sitemapShop(), &listingCatalog{}, textShop{menu: []string{shop + "/c/shoes"}}).crawl(context.Background(), crawlJob("shop.example"))
	if err != nil {
		t.Fatal(err)
	}
	r := res.(Result)
	if r.Method.Source != SourceLinksAndSitemap || !strings.Contains(r.Method.Reason, "the home page links 1 category; ") ||
		!strings.Contains(r.Method.Reason, "name 1 category more") {
		t.Errorf("method %+v", r.Method)
	}
	if r.CollectionsTotal != 4 || r.ListingsTotal != 6 {
		t.Errorf("result %d collections, %d listings; want 4 and 6", r.CollectionsTotal, r.ListingsTotal)
	}
}

// A product page behind a bot wall stops the crawl at once; one the store fails to give
// fails it, naming the page, once it was tried again.
func TestCrawlSaysWhichProductPageItCouldNotRead(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   string
	}{
		{http.StatusForbidden, "automated access not permitted"},
		{http.StatusBadGateway, "could not list 1 of 1 collections whole"},
	} {
		site := sitemapShop()
		site.status = map[string]int{shop + "/p/gone": tc.status}
		_, err := quietPipeline(site, &listingCatalog{}, textShop{}).crawl(context.Background(), crawlJob("shop.example"))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), shop+"/p/gone") {
			t.Errorf("crawl with /p/gone answering %d: %v, want an error naming it with %q", tc.status, err, tc.want)
		}
		if blocked := errors.Is(err, adapter.ErrBlocked); blocked != (tc.status == http.StatusForbidden) {
			t.Errorf("crawl with /p/gone answering %d: a bot wall: %v", tc.status, blocked)
		}
	}
}

// A sitemap that names nothing the adapters can read as a product fails the crawl, and
// says so.
func TestCrawlOfSitemapsWithoutProductsSaysSo(t *testing.T) {
	site := &pageSite{pages: map[string]string{
		shop + "/":            "home",
		shop + "/sitemap.xml": urlsetOf(shop+"/story", shop+"/p/gone"),
		shop + "/story":       "our story",
	}}
	_, err := quietPipeline(site, &listingCatalog{}, textShop{}).crawl(context.Background(), crawlJob("shop.example"))
	if want := "list collections: none of the 0 found, nor any of the 2 pages the sitemaps name, shows a listing the adapters can read"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("crawl: %v, want %q", err, want)
	}
}

// A category that links its products in another form than the sitemap gives them (a
// query, a category's path) still counts as listing them: they are not read again from
// their own pages.
func TestSitemapProductsListedInAnotherFormAreNotReadAgain(t *testing.T) {
	site := sitemapShop()
	site.pages[shop+"/c/shoes"] = "category\n" + shop + "/c/shoes/p/boot?colour=brown\n" + shop + "/p/sandal?ref=menu"
	store := &listingCatalog{}
	res, err := quietPipeline(site, store, textShop{}).crawl(context.Background(), crawlJob("shop.example"))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"/p/boot", "/p/sandal"} {
		if n := site.fetches(shop + u); n != 0 {
			t.Errorf("%s fetched %d times, though /c/shoes lists it", u, n)
		}
	}
	if got := store.linked(shop + "/c/shoes"); !slices.Equal(got, []string{"/c/shoes/p/boot?colour=brown", "/p/sandal"}) {
		t.Errorf("shoes hold %q", got)
	}
	if r := res.(Result); r.ListingsTotal != 6 {
		t.Errorf("%d listings, want 6", r.ListingsTotal)
	}
}
