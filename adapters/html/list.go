package html

import (
	"strings"

	"github.com/stockroom/stockroom/adapters/sdk"
)

// List reads one page of the collection at c.URL(). The cursor is the URL of the page to
// read ("" for the collection itself); Next is the following page's URL, "" on the last.
func (Adapter) List(c *sdk.Call) (sdk.Page, error) {
	collection, ok := resolverOf(c.URL())
	if !ok {
		return sdk.Page{}, sdk.Fail("not a collection URL: %q", c.URL())
	}
	target := c.URL()
	if c.Cursor() != "" {
		// The cursor is an absolute URL this adapter returned. Another adapter's cursor (a
		// page number) reaches here when that adapter failed: refuse it rather than resolve
		// it as a relative link; and stay on the collection's site whatever it says.
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
	// Where each link leads comes in one host call for the page: asked link by link, it
	// was a call per link.
	hrefs := sdk.Nodes(links).Attr("href")
	items, tiles := readTiles(links, hrefs, urls)
	out := sdk.Page{Listings: items}
	if next := nextPage(c.URL(), target, root, links, hrefs, tiles, urls); next != "" && next != target && next != c.URL() {
		out.Next = next
		// A collection states its size on every page; once the host knows it (from an
		// earlier page), reading it again is work for nothing: 4 % of the guest's work on
		// a demo category page (1,483 of 33,628 loop heads).
		total := c.Total()
		if total == 0 {
			out.Total = statedTotal(root, len(items))
			total = out.Total
		}
		if c.Cursor() == "" && total > 0 && len(items) > 0 {
			out.Ahead = pagesAhead(urls.page, next, (total+len(items)-1)/len(items))
		}
	}
	return out, nil
}
