package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// inCurrency gives the listings of page, at pageURL, whose price names no currency the
// page's (pageCurrency), read once for the page.
func inCurrency(listings []sdk.Listing, page *sdk.Doc, pageURL string) {
	currency := ""
	for i := range listings {
		p := listings[i].Price
		if p == nil || p.Currency != "" {
			continue
		}
		if currency == "" {
			if currency = pageCurrency(page, pageURL); currency == "" {
				return
			}
		}
		p.Currency = currency
	}
}

// List reads one page of the collection at c.URL(). The cursor is the URL of the page to
// read, or "" for the collection's first page. The answer's Next is the URL of the
// following page, or "" on the last page.
func (Adapter) List(c *sdk.Call) (sdk.Page, error) {
	collection, ok := resolverOf(c.URL())
	if !ok {
		return sdk.Page{}, sdk.Fail("not a collection URL: %q", c.URL())
	}
	target := c.URL()
	if c.Cursor() != "" {
		// The cursor is an absolute URL that this adapter returned earlier. When another
		// adapter fails, its cursor (a page number, say) may reach here: refuse it rather
		// than read it as a relative link. Never leave the collection's site.
		u, ok := collection.link(c.Cursor())
		if !ok || !strings.HasPrefix(c.Cursor(), "http://") && !strings.HasPrefix(c.Cursor(), "https://") {
			return sdk.Page{}, sdk.Fail("bad cursor %q", c.Cursor())
		}
		target = u.url
	}
	d := c.Need(target)
	if d == nil {
		return sdk.Page{}, sdk.ErrPending
	}
	if !d.OK() {
		return sdk.Page{}, sdk.Fail("collection page %s: %s", target, d.Failure())
	}
	urls, ok := docResolver(d)
	if !ok {
		return sdk.Page{}, sdk.Fail("bad page URL %q", target)
	}
	root := d.HTML()
	links := root.Select("a[href]")
	// Ask the host for every link's target in one call.
	hrefs := sdk.Nodes(links).Attr("href")
	items, tiles := readTiles(links, hrefs, urls)
	inCurrency(items, d, urls.page)
	out := sdk.Page{Listings: items}
	if next := nextPage(c.URL(), target, root, links, hrefs, tiles, urls); next != "" && next != target && next != c.URL() {
		out.Next = next
		// A collection states its size on every page. Read it only while the host does
		// not know it yet.
		total := c.Total()
		if total == 0 {
			out.Total = statedTotal(root, len(items))
			total = out.Total
		}
		// The first page names the later pages, so that the host can fetch them at once.
		if c.Cursor() == "" && total > 0 && len(items) > 0 {
			out.Ahead = pagesAhead(urls.page, next, (total+len(items)-1)/len(items))
		}
	}
	return out, nil
}
