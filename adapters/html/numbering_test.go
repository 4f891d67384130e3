package html

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

func TestPagesAheadFollowsTheSitesNumbering(t *testing.T) {
	for _, c := range []struct {
		first, next string
		want        []string // pages 2 to 4
	}{
		{site + "/shop/sale", site + "/shop/sale?page=2",
			[]string{site + "/shop/sale?page=2", site + "/shop/sale?page=3", site + "/shop/sale?page=4"}},
		{site + "/c?sort=new&page=1", site + "/c?sort=new&page=2",
			[]string{site + "/c?sort=new&page=2", site + "/c?sort=new&page=3", site + "/c?sort=new&page=4"}},
		// The parameter is rewritten where next writes it; a 2 elsewhere stays.
		{site + "/c?size=2", site + "/c?p=2&size=2",
			[]string{site + "/c?p=2&size=2", site + "/c?p=3&size=2", site + "/c?p=4&size=2"}},
		{site + "/c?q=red+shoes", site + "/c?q=red+shoes&pg=2",
			[]string{site + "/c?q=red+shoes&pg=2", site + "/c?q=red+shoes&pg=3", site + "/c?q=red+shoes&pg=4"}},
		{site + "/garden/", site + "/garden/page/2/",
			[]string{site + "/garden/page/2/", site + "/garden/page/3/", site + "/garden/page/4/"}},
		{site + "/garden", site + "/garden/2",
			[]string{site + "/garden/2", site + "/garden/3", site + "/garden/4"}},
		{site + "/caf%C3%A9", site + "/caf%C3%A9/seite/2",
			[]string{site + "/caf%C3%A9/seite/2", site + "/caf%C3%A9/seite/3", site + "/caf%C3%A9/seite/4"}},
		// Numberings it cannot tell: nothing is named.
		{site + "/c", site + "/c?start=24", nil},        // an offset, not a page
		{site + "/c", site + "/c?page=3", nil},          // not page 2
		{site + "/c?page=0", site + "/c?page=2", nil},   // pages counted from 0
		{site + "/c", site + "/c?page=2&sort=new", nil}, // two parameters changed
		{site + "/c?sort=new", site + "/c?page=2", nil}, // one dropped
		{site + "/c", site + "/other?page=2", nil},
		{site + "/c", "https://elsewhere.example/c?page=2", nil},
		{site + "/c", site + "/c/a/b/2", nil},
		{site + "/c", site + "/c/page/2?x=1", nil},
	} {
		if got := pagesAhead(c.first, c.next, 4); !slices.Equal(got, c.want) {
			t.Errorf("%s then %s: %q, want %q", c.first, c.next, got, c.want)
		}
	}
	if got := pagesAhead(site+"/c", site+"/c?page=2", 1); got != nil {
		t.Errorf("a collection of one page: %q", got)
	}
	if got := pagesAhead(site+"/c", site+"/c?page=2", 1<<30); len(got) != maxAhead || got[maxAhead-1] != site+"/c?page=1001" {
		t.Errorf("a size beyond belief named %d pages (last %q), want %d", len(got), got[len(got)-1], maxAhead)
	}
}

// A later page of a numbering is read as its number, and any page of the same numbering
// is written as the site writes that page; a page it cannot read as numbered is refused.
func TestNumberingReadsALaterPage(t *testing.T) {
	for _, c := range []struct {
		first, page string
		n           int
		page9       string
	}{
		{site + "/shop/sale", site + "/shop/sale?page=7", 7, site + "/shop/sale?page=9"},
		{site + "/c?sort=new&page=1", site + "/c?sort=new&page=12", 12, site + "/c?sort=new&page=9"},
		{site + "/c?size=24", site + "/c?p=24&size=24", 24, site + "/c?p=9&size=24"},
		{site + "/garden/", site + "/garden/page/3/", 3, site + "/garden/page/9/"},
		{site + "/garden", site + "/garden/31", 31, site + "/garden/9"},
		{site + "/c", site + "/c?page=03", 0, ""}, // not written plainly
		{site + "/c", site + "/c?page=1", 0, ""},  // the first page again
		{site + "/c", site + "/c?page=-2", 0, ""},
		{site + "/c", site + "/c", 0, ""},
		{site + "/c", site + "/c?after=abc", 0, ""},
	} {
		n, at := pageNumbering(c.first, c.page)
		if n != c.n || (at == nil) != (c.n == 0) {
			t.Errorf("%s of %s: page %d (numbered: %v), want %d", c.page, c.first, n, at != nil, c.n)
			continue
		}
		if at == nil {
			continue
		}
		if got := at(n); got != c.page {
			t.Errorf("%s of %s: at(%d) = %q, want the page itself", c.page, c.first, n, got)
		}
		if got := at(9); got != c.page9 {
			t.Errorf("%s of %s: at(9) = %q, want %q", c.page, c.first, got, c.page9)
		}
	}
}

// FuzzPlainQueryNumbering checks that plainQueryNumbering reads a plain first page and its
// ?key=n page as parsedNumbering does through net/url: the same page number, and the same
// URL for every other page.
func FuzzPlainQueryNumbering(f *testing.F) {
	for _, seed := range [][2]string{
		{site + "/shop/sale", "?page=3"}, {"http://127.0.0.4:39135/shop/sale", "?p=12"}, {"https://a.example", "?page=2"},
		{site + "/c/", "?page=2"}, {site + "/a/../b", "?page=2"}, {"http://h:x/c", "?page=2"}, {site + "/c", "?page=02"},
		{site + "/c", "?a%20b=2"}, {site + "/c?x=1", "&page=2"}, {"HTTP://h/c", "?page=2"}, {"http://h:/c", "?page=2"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, first, rest string) {
		page := first + rest
		n, at := plainQueryNumbering(first, page)
		if at == nil {
			return
		}
		wantN, wantAt := parsedNumbering(first, page)
		if wantAt == nil || n != wantN {
			t.Fatalf("%q of %q: page %d, net/url reads %d (numbered: %v)", page, first, n, wantN, wantAt != nil)
		}
		for _, k := range []int{1, 2, n, n + 1, 1000} {
			if got, want := at(k), wantAt(k); got != want {
				t.Errorf("%q of %q: page %d at %q, net/url writes %q", page, first, k, got, want)
			}
		}
	})
}

// categoryPage is page n of a category of 3 pages of two tiles that says its size.
func categoryPage(n int) string {
	next := ""
	if n < 3 {
		next = fmt.Sprintf(`<a class="next" href="/shop/tools?page=%d">Next page »</a>`, n+1)
	}
	return fmt.Sprintf(`<html><body><div class="results">Showing page %[1]d of 3</div><ul>
<li><a href="/products/p%[1]da"><h3>A</h3></a><span class="price">$1.00</span></li>
<li><a href="/products/p%[1]db"><h3>B</h3></a><span class="price">$2.00</span></li>
</ul>%[2]s</body></html>`, n, next)
}

// The first page of a category that states its size names its later pages, which the host
// may then list at once; later pages name none.
func TestListNamesTheLaterPagesOfACategoryOfKnownSize(t *testing.T) {
	pages := sdktest.Pages{}
	for n, u := range []string{site + "/shop/tools", site + "/shop/tools?page=2", site + "/shop/tools?page=3"} {
		pages[u] = htmlDoc(u, categoryPage(n+1))
	}
	set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: pages}
	p1, err := set.List(context.Background(), "", site+"/shop/tools", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{site + "/shop/tools?page=2", site + "/shop/tools?page=3"}; !slices.Equal(p1.Ahead, want) || p1.Next != want[0] || p1.Total != 6 {
		t.Fatalf("page 1: ahead %q, next %q, total %d; want %q, the first, 6", p1.Ahead, p1.Next, p1.Total, want)
	}
	for _, cursor := range p1.Ahead {
		p, err := set.List(context.Background(), "", site+"/shop/tools", cursor, p1.Total)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Ahead) != 0 || len(p.Listings) != 2 || !strings.HasSuffix(p.Listings[0].URL, "a") {
			t.Errorf("%s: %d listings, ahead %q", cursor, len(p.Listings), p.Ahead)
		}
		if want := map[string]string{p1.Ahead[0]: p1.Ahead[1]}[cursor]; p.Next != want {
			t.Errorf("%s: next %q, want %q", cursor, p.Next, want)
		}
	}
}
