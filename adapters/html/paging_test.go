package html

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/sdk/sdktest"
	"github.com/stockroom/stockroom/core/adapter"
)

func TestIsNextLabel(t *testing.T) {
	for s, want := range map[string]bool{
		"Next": true, "Next page »": true, "»": true, "›": true, "Suivant": true, "weiter ›": true,
		"« Previous page": false, "‹": false, "Page 2": false, "": false, "Next-gen gadgets": false,
		"Page Next": true, "Nextpage": true, "Page suivante": true, "Page Previous": false, "Page": false,
	} {
		if got := isNextLabel(s); got != want {
			t.Errorf("isNextLabel(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzIsNextLabel checks that isNextLabel reads every label as its first version did,
// kept here as the reference: it lower-cased the label, trimmed arrows and spaces off it
// and looked the word up in a map, then again without the hidden words of a pager.
func FuzzIsNextLabel(f *testing.F) {
	for _, s := range []string{"Next", "Next page »", "»", "›", " › ", "Suivant", "weiter ›", "« Previous page", "‹", "Page 2", "",
		"NÄCHSTE SEITE", "next\u00a0", "Page Next", "pagesuivante", "下一页 ❯", "Next-gen gadgets", "\xff", "→→", ">"} {
		f.Add(s)
	}
	words := map[string]bool{
		"next": true, "next page": true, "weiter": true, "nächste": true, "nächste seite": true,
		"suivant": true, "page suivante": true, "siguiente": true, "página siguiente": true,
		"successivo": true, "pagina successiva": true, "avanti": true, "volgende": true,
		"próxima": true, "próximo": true, "seguinte": true, "nästa": true, "næste": true,
		"neste": true, "następna": true, "další": true, "次へ": true, "下一页": true,
	}
	hidden := []string{"page", "seite", "pagina", "página"}
	reference := func(s string) bool {
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "" {
			return false
		}
		trimmed := strings.TrimSpace(strings.Trim(s, "›»→>⟩❯ \u00a0"))
		if trimmed == "" {
			return strings.ContainsAny(s, "›»→>❯")
		}
		if words[trimmed] {
			return true
		}
		compact := strings.ReplaceAll(trimmed, " ", "")
		for _, h := range hidden {
			compact = strings.TrimSuffix(strings.TrimPrefix(compact, h), h)
		}
		return compact != trimmed && (words[compact] || compact == "suivante")
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isNextLabel(s), reference(s); got != want {
			t.Fatalf("isNextLabel(%q) = %v, the first version %v", s, got, want)
		}
	})
}

// numberedPage is page n of 4 of a category whose pagination, after the first page,
// shows numbers only: its "next" is an icon without words, and the relative links are
// written as the site writes them.
func numberedPage(n int) string {
	var bar strings.Builder
	for k := 1; k <= 4; k++ {
		fmt.Fprintf(&bar, `<a href="?page=%d">%d</a> `, k, k)
	}
	if n == 1 {
		bar.WriteString(`<a href="/shop/rope?page=2">Next</a>`)
	} else if n < 4 {
		fmt.Fprintf(&bar, `<a class="icon-next" href="/shop/rope?page=%d"><svg></svg></a>`, n+1)
	}
	return fmt.Sprintf(`<html><body><p>Page %[1]d of 4</p><ul>
<li><a href="/products/r%[1]da"><h3>A</h3></a><span class="price">$1.00</span></li>
<li><a href="/products/r%[1]db"><h3>B</h3></a><span class="price">$2.00</span></li>
</ul><nav class="pagination">%[2]s</nav></body></html>`, n, bar.String())
}

// A page named ahead goes on to the next number's page when it links there, whatever the
// link says, and the last page, which does not, ends the collection.
func TestListGoesOnFromAPageNamedAheadThatLinksToTheNextNumber(t *testing.T) {
	pages := sdktest.Pages{}
	collection := site + "/shop/rope"
	for n := 1; n <= 4; n++ {
		u := collection
		if n > 1 {
			u = fmt.Sprintf("%s?page=%d", collection, n)
		}
		pages[u] = htmlDoc(u, numberedPage(n))
	}
	set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: pages}
	p1, err := set.List(context.Background(), "", collection, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(p1.Ahead) != 3 || p1.Total != 8 {
		t.Fatalf("page 1: ahead %q, total %d; want 3 pages of 8 products", p1.Ahead, p1.Total)
	}
	for i, cursor := range p1.Ahead {
		p, err := set.List(context.Background(), "", collection, cursor, p1.Total)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if i+1 < len(p1.Ahead) {
			want = p1.Ahead[i+1]
		}
		if p.Next != want || len(p.Listings) != 2 {
			t.Errorf("%s: next %q, %d listings; want next %q, 2 listings", cursor, p.Next, len(p.Listings), want)
		}
	}
}

// The next-page links of real platforms' pagers, on a first page: the label hidden for
// screen readers beside the visible word, in a title or an aria-label beside an icon, or
// only in rel="next".
func TestListFindsNextLinksWhoseLabelIsSplitOrHidden(t *testing.T) {
	for _, tc := range []struct{ platform, pager string }{
		{"Magento 2 (Luma)", `<div class="pages"><strong class="label pages-label" id="paging-label">Page</strong><ul class="items pages-items">
			<li class="item current"><strong class="page"><span class="label">You're currently reading page</span><span>1</span></strong></li>
			<li class="item"><a href="/gear.html?p=2" class="page"><span class="label">Page</span><span>2</span></a></li>
			<li class="item pages-item-next"><a class="action next" href="/gear.html?p=2" title="Next"><span class="label">Page</span><span>Next</span></a></li></ul></div>`},
		{"WooCommerce (Storefront)", `<nav class="woocommerce-pagination"><ul class="page-numbers"><li><span aria-current="page" class="page-numbers current">1</span></li>
			<li><a class="page-numbers" href="/gear.html?p=2">2</a></li><li><a class="next page-numbers" href="/gear.html?p=2">&rarr;</a></li></ul></nav>`},
		{"an icon font's ligature, labelled by its title", `<div class="pager"><a href="/gear.html?p=2" title="Next"><i class="material-icons">chevron_right</i></a></div>`},
		{"Shopify (Dawn), an icon with an aria-label", `<nav class="pagination-wrapper" role="navigation" aria-label="Pagination"><ul class="pagination__list">
			<li><a href="/gear.html?p=2" class="pagination__item" aria-label="Page 2">2</a></li>
			<li><a href="/gear.html?p=2" class="pagination__item--prev pagination__item link motion-reduce" aria-label="Next page"><svg aria-hidden="true" focusable="false" class="icon icon-caret"><title>Caret</title><path d="M0 0"/></svg></a></li></ul></nav>`},
		{"Bootstrap, rel=next alone", `<ul class="pagination"><li class="page-item"><a class="page-link" href="/gear.html?p=2" rel="next"><span aria-hidden="true">&raquo;</span><span class="sr-only">Go forward</span></a></li></ul>`},
		{"a link with a hidden span and no space", `<div class="paging"><a href="/gear.html?p=2">Next<span class="visually-hidden">page</span></a></div>`},
	} {
		page := `<html><body><header><a href="/contact">Contact</a></header><ul class="products">
			<li class="product"><a href="/products/rope"><img src="/rope.jpg"></a><a href="/products/rope">Rope</a><span class="price">$12.00</span></li>
			<li class="product"><a href="/products/tent"><img src="/tent.jpg"></a><a href="/products/tent">Tent</a><span class="price">$99.00</span></li>
			</ul>` + tc.pager + `</body></html>`
		set := &adapter.Set{Source: sdktest.Modules{sdk.Native(Adapter{})}, Fetcher: sdktest.Pages{site + "/gear.html": htmlDoc(site+"/gear.html", page)}}
		p, err := set.List(context.Background(), "", site+"/gear.html", "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Listings) != 2 || p.Next != site+"/gear.html?p=2" {
			t.Errorf("%s: %d listings, next %q", tc.platform, len(p.Listings), p.Next)
		}
	}
}
