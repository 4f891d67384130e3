package headless

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/stockroom/stockroom/adapters/internal/storefront"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Discover lists the collections the home page's state names, each with the product
// count it states.
func (Adapter) Discover(c *sdk.Call) ([]sdk.Collection, error) {
	home := c.Page()
	if home == nil || !home.OK() {
		return nil, sdk.Fail("no home page")
	}
	st, ok := readState(home)
	if !ok {
		return nil, sdk.Fail("no embedded state in the home page")
	}
	links := newLinks(home, c.URL())
	var out []sdk.Collection
	seen := map[string]bool{}
	cols, _ := findCollections(st.data)
	for _, col := range cols {
		u := links.of(col, "/collections/")
		if u == "" || seen[u] {
			continue
		}
		seen[u] = true
		out = append(out, sdk.Collection{URL: u, Handle: first(col, handleKeys).String(), Title: first(col, titleKeys).String(),
			ProductsCount: count(col)})
	}
	return out, nil
}

// count is the number of products a collection states it holds.
func count(col gjson.Result) *int {
	n := first(col, []string{"productsCount", "productCount", "products_count", "count", "products.totalCount"})
	if n.Type != gjson.Number {
		return nil
	}
	c := int(n.Int())
	return &c
}

// List reads one listing page of a collection from its state. The cursor is the address
// of the page to read ("" the collection's first); the next page is the page's rel=next
// link, else the collection with ?page=N while the state's page info says more follow.
func (Adapter) List(c *sdk.Call) (sdk.Page, error) {
	pageURL := c.Cursor()
	if pageURL == "" {
		pageURL = c.URL()
	}
	d := c.Need(pageURL)
	if d == nil {
		return sdk.Page{}, sdk.ErrPending
	}
	if !d.OK() {
		if c.Cursor() != "" && d.Status == 404 {
			return sdk.Page{}, nil // past the last page
		}
		return sdk.Page{}, sdk.Fail("listing page %s: %s", pageURL, d.Failure())
	}
	st, ok := readState(d)
	if !ok {
		return sdk.Page{}, sdk.Fail("no embedded state in %s", pageURL)
	}
	links := newLinks(d, pageURL)
	hint := stateCurrency(st.data)
	var page sdk.Page
	for _, p := range findProducts(st.data) {
		u := links.of(p, "/products/")
		if u == "" {
			continue
		}
		l := sdk.Listing{URL: u, ID: first(p, []string{"id"}).String(), Title: first(p, titleKeys).String(), Price: priceOf(p, hint)}
		if img := imageURL(first(p, []string{"featuredImage", "image", "images.0", "thumbnail"})); img != "" {
			l.Images = []sdk.Image{{URL: links.resolve(img), Position: 1}}
		}
		page.Listings = append(page.Listings, l)
	}
	info := first(st.data, []string{"pageInfo", "pagination", "meta.pagination", "paging", "page_info", "products.pageInfo", "collection.products.pageInfo"})
	n := max(1, int(first(info, []string{"page", "currentPage", "current_page"}).Int()))
	total := int(first(info, totalKeys).Int())
	last := int(first(info, []string{"totalPages", "pageCount", "lastPage", "total_pages", "last_page"}).Int())
	if size := int(first(info, []string{"pageSize", "perPage", "per_page", "limit"}).Int()); last == 0 && total > 0 && size > 0 {
		last = storefront.LastPage(total, size)
	}
	page.Total = total
	root := d.HTML()
	if next := root.SelectOne(`link[rel="next"], a[rel="next"]`).Attr("href"); next != "" {
		page.Next = links.resolve(next)
	} else if n < last || (last == 0 && first(info, []string{"hasNextPage", "hasNext", "has_next_page"}).Bool()) {
		page.Next = withPage(c.URL(), n+1)
	}
	// The first page names the later ones at once, when they are numbered as ?page=N.
	if n == 1 && last > 1 && page.Next == withPage(c.URL(), 2) {
		for k := 2; k <= min(last, 1+storefront.MaxAhead); k++ {
			page.Ahead = append(page.Ahead, withPage(c.URL(), k))
		}
	}
	return page, nil
}

// withPage is a collection's address with ?page=n.
func withPage(collectionURL string, n int) string {
	u, err := url.Parse(collectionURL)
	if err != nil {
		return ""
	}
	q := u.Query()
	q.Set("page", strconv.Itoa(n))
	u.RawQuery = q.Encode()
	return u.String()
}

// imageURL is the address of an image as a state writes it: a string, or an object with
// its url.
func imageURL(v gjson.Result) string {
	if v.Type == gjson.String {
		return v.String()
	}
	return first(v, []string{"url", "src", "originalSrc", "transformedSrc"}).String()
}

// links finds where the state's objects lead. A state often names a product or a
// collection by its handle alone and leaves its address to the application's routes; the
// page's own links to it say which route that is.
type links struct {
	resolve func(string) string
	// byLast maps the last path segment of each of the page's links to the link.
	byLast map[string]string
	origin string
}

func newLinks(page *sdk.Doc, pageURL string) links {
	l := links{resolve: storefront.Resolver(pageURL), byLast: map[string]string{}, origin: storefront.Origin(pageURL)}
	for _, href := range sdk.Nodes(page.HTML().Select("a[href]")).Attr("href") {
		u := l.resolve(href)
		if p, err := url.Parse(u); err == nil && p.Path != "" {
			seg := strings.TrimSuffix(p.Path, "/")
			seg = seg[strings.LastIndexByte(seg, '/')+1:]
			if _, taken := l.byLast[seg]; !taken && seg != "" {
				l.byLast[seg] = u
			}
		}
	}
	return l
}

// of is where v leads: its own link, else the page's link ending in its handle, else
// fallback (a route such as "/products/") followed by its handle; "" when v has neither.
func (l links) of(v gjson.Result, fallback string) string {
	if link := first(v, linkKeys); link.Type == gjson.String && link.String() != "" {
		return l.resolve(link.String())
	}
	handle := first(v, handleKeys).String()
	if handle == "" {
		return ""
	}
	if u, ok := l.byLast[handle]; ok {
		return u
	}
	return l.origin + fallback + url.PathEscape(handle)
}
